package graph

import (
	"fmt"
	"io"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// ReadEdgeList reads a graph in SNAP's edge-list text format: one edge per
// line, a source and a target id separated by spaces or tabs; lines that
// start with # are comments, and blank lines are skipped. Ids must be
// non-negative and fit in an int32; the graph has max id + 1 vertices (ids
// are not renumbered, so unused ids are isolated vertices). With
// symmetrize, each edge is also added reversed. Duplicate edges and
// self-loops are dropped, as by FromEdges.
//
// The input is read whole, cut into pieces of about a megabyte at line
// ends, and the pieces are parsed in parallel, each into its own list of
// edges; an error names the line of the first malformed one. It runs on the
// pool of the calling task, or core.Default().
func ReadEdgeList(r io.Reader, symmetrize bool) (*Graph, error) {
	pool := poolOf("graph.ReadEdgeList", nil)
	text, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("graph: ReadEdgeList: %w", err)
	}
	return core.Run(pool, func(*core.Worker) adjacencyResult {
		g, err := parseEdgeList(text, symmetrize, pool)
		return adjacencyResult{g, err}
	}).unpack()
}

// edgePiece is what parsing one piece of an edge list gives.
type edgePiece struct {
	keys    []uint64
	maxID   int64 // -1: no edge
	lines   int   // lines in the piece: all but the last piece end with a newline
	badLine int   // line of the first error within the piece (1-based); 0: none
	bad     string
}

func parseEdgeList(text []byte, symmetrize bool, pool *core.Pool) (*Graph, error) {
	opt := par.WithPool(pool)
	bounds := chunkBounds(text, isNewline)
	pieces := max(len(bounds)-1, 0)
	parsed := make([]edgePiece, pieces)
	par.For(0, pieces, func(i int) {
		parsed[i] = parseEdgePiece(text[bounds[i]:bounds[i+1]], symmetrize)
	}, opt)
	line := 1 // the first line of the piece at hand
	maxID := int64(-1)
	total := 0
	for _, p := range parsed {
		if p.badLine > 0 {
			return nil, fmt.Errorf("graph: ReadEdgeList: line %d: %s", line+p.badLine-1, p.bad)
		}
		line += p.lines
		maxID = max(maxID, p.maxID)
		total += len(p.keys)
	}
	starts := make([]int, pieces+1)
	for i, p := range parsed {
		starts[i+1] = starts[i] + len(p.keys)
	}
	keys := make([]uint64, total)
	par.For(0, pieces, func(i int) {
		copy(keys[starts[i]:], parsed[i].keys)
		parsed[i].keys = nil
	}, opt)
	return fromKeys(int(maxID+1), keys, symmetrize, pool), nil
}

// parseEdgePiece parses whole lines.
func parseEdgePiece(text []byte, symmetrize bool) edgePiece {
	p := edgePiece{maxID: -1}
	if symmetrize {
		p.keys = make([]uint64, 0, len(text)/6)
	} else {
		p.keys = make([]uint64, 0, len(text)/12)
	}
	for at := 0; at < len(text); {
		end := at
		for end < len(text) && text[end] != '\n' {
			end++
		}
		line := text[at:end]
		p.lines++
		at = end + 1
		s := skipBlank(line, 0)
		if s == len(line) || line[s] == '#' {
			continue
		}
		u, e, ok := parseUint(line, s, maxVertices-1)
		if !ok {
			p.badLine, p.bad = p.lines, fmt.Sprintf("source %q: want an integer from 0 to %d", token(line, s), maxVertices-1)
			return p
		}
		t := skipBlank(line, e)
		if t == len(line) {
			p.badLine, p.bad = p.lines, "missing the target"
			return p
		}
		v, e, ok := parseUint(line, t, maxVertices-1)
		if !ok {
			p.badLine, p.bad = p.lines, fmt.Sprintf("target %q: want an integer from 0 to %d", token(line, t), maxVertices-1)
			return p
		}
		if r := skipBlank(line, e); r != len(line) {
			p.badLine, p.bad = p.lines, fmt.Sprintf("unexpected %q after the target", token(line, r))
			return p
		}
		p.keys = append(p.keys, edgeKey(int32(u), int32(v)))
		if symmetrize {
			p.keys = append(p.keys, edgeKey(int32(v), int32(u)))
		}
		p.maxID = max(p.maxID, int64(u), int64(v))
	}
	return p
}

// skipBlank skips spaces and tabs (and a carriage return) within a line.
func skipBlank(line []byte, at int) int {
	for at < len(line) && (line[at] == ' ' || line[at] == '\t' || line[at] == '\r') {
		at++
	}
	return at
}
