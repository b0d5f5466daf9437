package graph

import (
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// triangleLeaf caps the vertices a leaf of the counting loop takes: the
// work per vertex is skewed (a row's merges cost its length times its
// neighbours'), so leaves stay small for the stealing to even them out.
const triangleLeaf = 256

// Triangles returns the number of triangles of the symmetric graph g: sets
// {u, v, w} of vertices joined pairwise.
//
// It ranks the vertices by degree (ties by id), renumbers them by rank, and
// keeps every edge only in the direction of the higher rank, which leaves
// each vertex at most √(2·NumEdges) out-edges and the hubs almost none
// (Schank and Wagner, "Finding, Counting and Listing All Triangles in Large
// Graphs", WEA 2005; the renumbering as in the GAP benchmark suite). Then,
// for every kept edge u→v, the out-neighbours of u ranked above v are merged
// with those of v: each triangle is counted once, at its lowest-ranked
// vertex. The ranks come from sortpar.Sort, rows are built and counted in
// parallel, the counts summed by reduce.Reduce, whose leaves split further
// where workers steal, as the rows' lengths are skewed. It uses 4 bytes per
// kept edge (half the edges) and 28 per vertex. Its one option is
// par.WithPool.
//
// It panics if g is not symmetric.
func Triangles(g *Graph, opts ...par.Option) int64 {
	pool := poolOf("graph.Triangles", opts)
	if g == nil {
		panic("graph: Triangles with a nil g")
	}
	if !g.symmetric {
		panic("graph: Triangles: g is not symmetric")
	}
	return core.RunValue(pool, func(*core.Worker) int64 {
		return triangles(g, par.WithPool(pool))
	})
}

func triangles(g *Graph, opt par.Option) int64 {
	o := orientByRank(g, opt)
	n := o.NumVertices()
	return reduce.Reduce(0, n, int64(0), func(lo, hi int, acc int64) int64 {
		for u := lo; u < hi; u++ {
			ru := o.adj(int32(u))
			for i, v := range ru {
				acc += intersectCount(ru[i+1:], o.adj(v))
			}
		}
		return acc
	}, func(x, y int64) int64 { return x + y }, par.Simple(triangleLeaf), opt)
}

// orientByRank returns g renumbered by rank (degree, then id, ascending),
// with only the edges from lower to higher rank, each row sorted.
func orientByRank(g *Graph, opt par.Option) *Graph {
	n := g.NumVertices()
	// order[r] is the vertex of rank r: sort (degree, id) keys.
	keys := make([]uint64, n)
	par.ForRange(0, n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			keys[v] = uint64(g.offsets[v+1]-g.offsets[v])<<32 | uint64(v)
		}
	}, opt)
	sortpar.Sort(keys, opt)
	rank := make([]int32, n)
	deg := make([]int64, n) // deg[r]: the kept out-degree of rank r
	par.ForRange(0, n, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			rank[uint32(keys[r])] = int32(r)
		}
	}, opt)
	// The rows are read in vertex order, so that g's rows stream from
	// memory; each is written to its rank's place.
	par.ForRange(0, n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			r := rank[v]
			k := int64(0)
			for _, w := range g.adj(int32(v)) {
				if rank[w] > r {
					k++
				}
			}
			deg[r] = k
		}
	}, opt, par.Simple(leafVertices))
	o := &Graph{offsets: make([]int64, n+1)}
	o.offsets[n] = reduce.PrefixSum(o.offsets[:n], deg, opt)
	o.edges = make([]int32, o.offsets[n])
	par.ForRange(0, n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			r := rank[v]
			out := o.edges[o.offsets[r]:o.offsets[r+1]]
			k := 0
			for _, w := range g.adj(int32(v)) {
				if rw := rank[w]; rw > r {
					out[k] = rw
					k++
				}
			}
			slices.Sort(out)
		}
	}, opt, par.Simple(leafVertices))
	return o
}

// intersectCount returns how many ids two sorted lists share. The loop
// advances by comparisons turned into numbers, not branches, which a
// merge of random lists would mispredict half the time.
func intersectCount(a, b []int32) int64 {
	var c int64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		if x == y {
			c++
		}
		i += b2i(x <= y)
		j += b2i(y <= x)
	}
	return c
}

// b2i is 1 for true, 0 for false; the compiler makes it a SETcc.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
