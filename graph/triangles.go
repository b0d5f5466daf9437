package graph

import (
	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// triangleGrain is the fewest vertices a leaf of the counting loop takes:
// rows are short and skewed, so leaves stay small for the stealing to even
// them out.
const triangleGrain = 64

// Triangles returns the number of triangles of the symmetric graph g: sets
// {u, v, w} of vertices joined pairwise.
//
// It orients every edge from the endpoint of lower degree to the one of
// higher degree (ties by id), which leaves each vertex at most
// √(2·NumEdges) out-edges, builds that oriented graph (half the edges), and
// counts, for every oriented edge u→v, the common out-neighbours of u and v
// by merging their sorted rows: each triangle is found once, from its
// lowest-ranked vertex (Schank and Wagner, "Finding, Counting and Listing
// All Triangles in Large Graphs", WEA 2005). Vertices are counted in
// parallel by reduce.Reduce, whose leaves split further where workers steal,
// as the rows' lengths are skewed. Its one option is par.WithPool.
//
// It panics if g is not symmetric.
func Triangles(g *Graph, opts ...par.Option) int64 {
	pool := poolOf("graph.Triangles", opts)
	if !g.symmetric {
		panic("graph: Triangles: g is not symmetric")
	}
	return core.Run(pool, func(*core.Worker) int64 {
		return triangles(g, par.WithPool(pool))
	})
}

func triangles(g *Graph, opt par.Option) int64 {
	o := orient(g, opt)
	n := o.NumVertices()
	return reduce.Reduce(0, n, int64(0), func(lo, hi int, acc int64) int64 {
		for u := lo; u < hi; u++ {
			ru := o.adj(int32(u))
			for _, v := range ru {
				acc += intersectCount(ru, o.adj(v))
			}
		}
		return acc
	}, func(x, y int64) int64 { return x + y }, par.Grain(triangleGrain), opt)
}

// ranksBelow reports whether u comes before v in the degree order.
func ranksBelow(g *Graph, u, v int32) bool {
	du, dv := g.offsets[u+1]-g.offsets[u], g.offsets[v+1]-g.offsets[v]
	return du < dv || (du == dv && u < v)
}

// orient returns the graph of the edges u→v of g with u ranked below v.
func orient(g *Graph, opt par.Option) *Graph {
	n := g.NumVertices()
	deg := make([]int64, n)
	par.ForRange(0, n, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			k := int64(0)
			for _, v := range g.adj(int32(u)) {
				if ranksBelow(g, int32(u), v) {
					k++
				}
			}
			deg[u] = k
		}
	}, opt)
	o := &Graph{offsets: make([]int64, n+1)}
	o.offsets[n] = reduce.PrefixSum(o.offsets[:n], deg, opt)
	o.edges = make([]int32, o.offsets[n])
	par.ForRange(0, n, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			out := o.edges[o.offsets[u]:o.offsets[u+1]]
			k := 0
			for _, v := range g.adj(int32(u)) {
				if ranksBelow(g, int32(u), v) {
					out[k] = v
					k++
				}
			}
		}
	}, opt)
	return o
}

// intersectCount returns how many ids two sorted lists share.
func intersectCount(a, b []int32) int64 {
	var c int64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		if x == y {
			c++
			i++
			j++
		} else if x < y {
			i++
		} else {
			j++
		}
	}
	return c
}
