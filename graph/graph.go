package graph

import (
	"fmt"
	"math"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
)

// Graph is a graph in compressed sparse rows: the out-neighbours of vertex v
// are edges[offsets[v]:offsets[v+1]], sorted by id, without duplicates and
// without self-loops. Vertex ids are int32, offsets int64, so a Graph holds
// 4 bytes per edge and 8 per vertex (plus one offset).
//
// A symmetric Graph (every edge u→v has its reverse v→u) stands for an
// undirected graph: each undirected edge is stored, and counted by NumEdges,
// once in each direction, as in Ligra and PBBS.
//
// A Graph is immutable once built: every method and algorithm may be called
// from many goroutines at once.
type Graph struct {
	offsets   []int64 // len n+1, offsets[0] = 0, non-decreasing
	edges     []int32 // len offsets[n]
	symmetric bool
}

// Panic messages of the package's functions.
const (
	badVertex = "graph: %s: vertex %d out of range [0, %d)"
)

// leafVertices caps the vertices one leaf of an edge-heavy loop takes:
// those loops run with par.Simple(leafVertices), which splits the range
// down to it (about 60 000 edges on an average R-MAT row, tens of
// microseconds). A leaf is the unit a worker cannot share once started, so
// small leaves keep the workers even when rows are skewed, and when the
// operating system deschedules one worker on a busy machine the others are
// held back by one small leaf at most, not by a chunk of 1/(4·P) of the loop.
const leafVertices = 4096

// maxVertices is the most vertices a Graph can hold: ids are int32.
const maxVertices = math.MaxInt32

// NumVertices returns the number of vertices, n; vertices are 0..n-1.
func (g *Graph) NumVertices() int { return len(g.offsets) - 1 }

// NumEdges returns the number of directed edges stored; a symmetric graph
// counts each undirected edge twice.
func (g *Graph) NumEdges() int64 { return int64(len(g.edges)) }

// Neighbors returns the out-neighbours of v, sorted by id, as a view into
// the graph: the caller must not modify it. It panics if v is not a vertex.
func (g *Graph) Neighbors(v int32) []int32 {
	if v < 0 || int(v) >= g.NumVertices() {
		panic(fmt.Sprintf(badVertex, "Neighbors", v, g.NumVertices()))
	}
	return g.edges[g.offsets[v]:g.offsets[v+1]]
}

// Degree returns the number of out-neighbours of v. It panics if v is not a
// vertex.
func (g *Graph) Degree(v int32) int {
	if v < 0 || int(v) >= g.NumVertices() {
		panic(fmt.Sprintf(badVertex, "Degree", v, g.NumVertices()))
	}
	return int(g.offsets[v+1] - g.offsets[v])
}

// Symmetric reports whether every edge u→v has its reverse v→u, that is
// whether g stands for an undirected graph.
func (g *Graph) Symmetric() bool { return g.symmetric }

// emptyGraph is a Graph of n isolated vertices.
func emptyGraph(n int) *Graph {
	return &Graph{offsets: make([]int64, n+1), edges: []int32{}, symmetric: true}
}

// poolOf resolves the options of an entry point that takes par.WithPool only.
func poolOf(call string, opts []par.Option) *core.Pool {
	return loop.Resolve(call, loop.SetPool, opts).Pool
}

// adj is the neighbour list of v without the bounds check of Neighbors.
func (g *Graph) adj(v int32) []int32 { return g.edges[g.offsets[v]:g.offsets[v+1]] }
