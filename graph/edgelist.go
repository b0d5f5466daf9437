package graph

import (
	"bytes"
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
// The input is read in windows of 16 MiB, each cut at line ends into pieces
// of about a megabyte that are parsed in parallel, each into its own list of
// edges; an error names the line of the first malformed one. The graph is
// then built as by FromEdges. It runs on the
// pool of the calling task, or core.Default().
func ReadEdgeList(r io.Reader, symmetrize bool) (*Graph, error) {
	pool := poolOf("graph.ReadEdgeList", nil)
	return core.RunValue(pool, func(*core.Worker) adjacencyResult {
		g, err := readEdgeList(r, symmetrize, adjacencyWindow, pool)
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

// readEdgeList reads r in windows of window bytes.
func readEdgeList(r io.Reader, symmetrize bool, window int, pool *core.Pool) (*Graph, error) {
	opt := par.WithPool(pool)
	buf := make([]byte, window)
	carry := 0 // buf[:carry]: the start of a line cut by the last window
	line := 1  // the first line of the piece at hand
	maxID := int64(-1)
	var keys []uint64
	for eof := false; !eof; {
		k, err := io.ReadFull(r, buf[carry:])
		switch err {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			eof = true
		default:
			return nil, fmt.Errorf("graph: ReadEdgeList: %w", err)
		}
		text := buf[:carry+k]
		cut := len(text)
		if !eof {
			cut = bytes.LastIndexByte(text, '\n') + 1
			if cut == 0 {
				return nil, fmt.Errorf("graph: ReadEdgeList: line %d: a line of %d bytes or more", line, len(text))
			}
		}
		window := text[:cut]
		bounds := chunkBounds(window, isNewline)
		pieces := max(len(bounds)-1, 0)
		parsed := make([]edgePiece, pieces)
		par.For(0, pieces, func(i int) {
			parsed[i] = parseEdgePiece(window[bounds[i]:bounds[i+1]], symmetrize)
		}, opt)
		for _, p := range parsed {
			if p.badLine > 0 {
				return nil, fmt.Errorf("graph: ReadEdgeList: line %d: %s", line+p.badLine-1, p.bad)
			}
			line += p.lines
			maxID = max(maxID, p.maxID)
			keys = append(keys, p.keys...)
		}
		carry = copy(buf, text[cut:])
	}
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
