package graph

import (
	"io"

	"github.com/gofork/gofork/par"
)

// ReadAdjacencyWindow is ReadAdjacency with a window of the given size, so
// that tests cross many windows on small inputs.
func ReadAdjacencyWindow(r io.Reader, window int) (*Graph, error) {
	pool := poolOf("graph.ReadAdjacency", nil)
	a := &adjacencyReader{r: r, pool: pool, opt: par.WithPool(pool), window: window}
	return a.read()
}

// ReadEdgeListWindow is ReadEdgeList with a window of the given size.
func ReadEdgeListWindow(r io.Reader, symmetrize bool, window int) (*Graph, error) {
	return readEdgeList(r, symmetrize, window, poolOf("graph.ReadEdgeList", nil))
}
