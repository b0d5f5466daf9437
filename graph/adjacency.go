package graph

import (
	"fmt"
	"io"
	"math"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// adjacencyHeader is the first token of the PBBS/Ligra adjacency format.
const adjacencyHeader = "AdjacencyGraph"

// ReadAdjacency reads a graph in the AdjacencyGraph text format of PBBS and
// Ligra: the word AdjacencyGraph, the number of vertices n, the number of
// edges m, then n offsets (the first 0, non-decreasing, at most m) and m
// target ids in [0, n), all separated by white space (one per line, as the
// tools write them). Vertex v's out-neighbours are the targets from its
// offset to the next one (or m). Rows are sorted, duplicates and
// self-loops dropped, and the graph checked for symmetry.
//
// The input is read whole, cut into pieces of about a megabyte at white
// space, and the pieces are parsed in two parallel passes: one counts each
// piece's numbers, and a prefix sum of the counts tells each piece where its
// numbers go; the second parses them into place. An error names the line:
// of the first malformed number, of an offset out of order, or of a target
// out of range. It runs on the pool of the calling task, or core.Default().
func ReadAdjacency(r io.Reader) (*Graph, error) {
	pool := poolOf("graph.ReadAdjacency", nil)
	text, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("graph: ReadAdjacency: %w", err)
	}
	return core.Run(pool, func(*core.Worker) adjacencyResult {
		g, err := parseAdjacency(text, pool)
		return adjacencyResult{g, err}
	}).unpack()
}

type adjacencyResult struct {
	g   *Graph
	err error
}

func (r adjacencyResult) unpack() (*Graph, error) { return r.g, r.err }

// adjacencyError is a parse error at a byte offset of the text.
type adjacencyError struct {
	at  int // byte offset; -1: none
	msg string
}

func errorAt(text []byte, at int, format string, args ...any) error {
	return fmt.Errorf("graph: ReadAdjacency: line %d: %s", lineAt(text, at), fmt.Sprintf(format, args...))
}

func parseAdjacency(text []byte, pool *core.Pool) (*Graph, error) {
	opt := par.WithPool(pool)
	// Header: the word, n and m, serially.
	at := skipSpace(text, 0)
	if tok := token(text, at); tok != adjacencyHeader {
		return nil, errorAt(text, at, "want %s, found %q", adjacencyHeader, tok)
	}
	at = skipSpace(text, at+len(adjacencyHeader))
	if at == len(text) {
		return nil, errorAt(text, at, "missing the number of vertices")
	}
	n64, end, ok := parseUint(text, at, maxVertices)
	if !ok {
		return nil, errorAt(text, at, "number of vertices %q: want an integer from 0 to %d", token(text, at), maxVertices)
	}
	at = skipSpace(text, end)
	if at == len(text) {
		return nil, errorAt(text, at, "missing the number of edges")
	}
	m64, end, ok := parseUint(text, at, math.MaxInt64)
	if !ok {
		return nil, errorAt(text, at, "number of edges %q: want a non-negative integer", token(text, at))
	}
	if m64 > uint64(math.MaxInt) {
		return nil, errorAt(text, at, "%d edges do not fit in memory", m64)
	}
	n, m := int(n64), int(m64)
	if n == 0 && m > 0 {
		return nil, errorAt(text, at, "%d edges on no vertices", m)
	}
	body := text[end:]
	base := len(text) - len(body)

	// Pass 1: count each piece's numbers.
	bounds := chunkBounds(body, isSpace)
	pieces := max(len(bounds)-1, 0)
	counts := make([]int, pieces+1)
	par.For(0, pieces, func(i int) {
		c := 0
		inToken := false
		for _, b := range body[bounds[i]:bounds[i+1]] {
			sp := isSpace(b)
			if !sp && !inToken {
				c++
			}
			inToken = !sp
		}
		counts[i] = c
	}, opt)
	total := reduce.PrefixSum(counts[:pieces], counts[:pieces], opt)
	if total != n+m {
		return nil, errorAt(text, len(text), "found %d numbers after the header, want n+m = %d", total, n+m)
	}

	// Pass 2: parse into place. Number k is offset k for k < n, else the
	// target k-n. Each piece reports its first bad number.
	g := &Graph{offsets: make([]int64, n+1), edges: make([]int32, m)}
	g.offsets[n] = int64(m)
	firstBad := make([]adjacencyError, pieces)
	par.For(0, pieces, func(i int) {
		k := counts[i]
		lo, hi := bounds[i], bounds[i+1]
		firstBad[i].at = -1
		for at := skipSpace(body[:hi], lo); at < hi; at = skipSpace(body[:hi], at) {
			limit := uint64(m)
			if k >= n {
				limit = uint64(n - 1)
			}
			v, end, ok := parseUint(body[:hi], at, limit)
			if !ok {
				what := "offset"
				if k >= n {
					what = "target"
				}
				firstBad[i] = adjacencyError{base + at, fmt.Sprintf("%s %q: want an integer from 0 to %d", what, token(body, at), limit)}
				return
			}
			if k < n {
				g.offsets[k] = int64(v)
			} else {
				g.edges[k-n] = int32(v)
			}
			k++
			at = end
		}
	}, opt)
	for _, e := range firstBad {
		if e.at >= 0 {
			return nil, fmt.Errorf("graph: ReadAdjacency: line %d: %s", lineAt(text, e.at), e.msg)
		}
	}
	if n > 0 && g.offsets[0] != 0 {
		return nil, errorAt(text, numberAt(body, bounds, counts, 0)+base, "the first offset is %d, want 0", g.offsets[0])
	}
	if v := par.IndexBlocks(n, func(lo, hi int) int {
		for v := lo; v < hi; v++ {
			if g.offsets[v] > g.offsets[v+1] {
				return v
			}
		}
		return -1
	}, opt); v >= 0 {
		at := len(text)
		if v+1 < n {
			at = numberAt(body, bounds, counts, v+1) + base
		}
		return nil, errorAt(text, at, "offset of vertex %d is %d, below vertex %d's %d", v+1, g.offsets[v+1], v, g.offsets[v])
	}
	normalizeRows(g, pool)
	g.symmetric = isSymmetric(g, pool)
	return g, nil
}

// skipSpace returns the offset of the first byte at or after at that is not
// white space, or len(text).
func skipSpace(text []byte, at int) int {
	for at < len(text) && isSpace(text[at]) {
		at++
	}
	return at
}

// numberAt returns the offset in body of number k, found from the piece
// counts (prefix sums) by a scan of its piece; for error messages.
func numberAt(body []byte, bounds, counts []int, k int) int {
	i := 0
	for i+1 < len(counts)-1 && counts[i+1] <= k {
		i++
	}
	c := counts[i]
	for at := skipSpace(body[:bounds[i+1]], bounds[i]); at < bounds[i+1]; {
		if c == k {
			return at
		}
		for at < bounds[i+1] && !isSpace(body[at]) {
			at++
		}
		at = skipSpace(body[:bounds[i+1]], at)
		c++
	}
	return bounds[i+1]
}
