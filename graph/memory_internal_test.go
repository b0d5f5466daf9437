package graph

import (
	"runtime"
	"testing"
)

// The Graph holds at most 4.5 bytes per edge plus 8 per vertex.
func TestGraphBytes(t *testing.T) {
	for _, g := range []*Graph{RMat(14, 8, 1), RMat(12, 16, 2), emptyGraph(100)} {
		n, m := int64(g.NumVertices()), g.NumEdges()
		got := 4*int64(cap(g.edges)) + 8*int64(cap(g.offsets))
		if limit := int64(4.5*float64(m)) + 8*n + 8; got > limit {
			t.Errorf("graph of %d vertices, %d edges holds %d bytes, limit %d", n, m, got, limit)
		}
	}
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return int64(after.TotalAlloc - before.TotalAlloc)
}

// BFS and ConnectedComponents use at most 16 bytes per vertex besides the
// graph, their result included, plus a constant for the loops' own state.
func TestScratchBytes(t *testing.T) {
	g := RMat(16, 8, 1)
	n := int64(g.NumVertices())
	const slack = 64 << 10
	if got := allocated(func() { BFS(g, 0) }); got > 16*n+slack {
		t.Errorf("BFS allocated %d bytes for %d vertices: over 16 per vertex", got, n)
	}
	if got := allocated(func() { ConnectedComponents(g) }); got > 16*n+slack {
		t.Errorf("ConnectedComponents allocated %d bytes for %d vertices: over 16 per vertex", got, n)
	}
}
