package graph

import (
	"fmt"
	"math"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// PageRank computes the PageRank of every vertex (Brin and Page, 1998) by
// power iteration: starting from 1/n everywhere,
//
//	rank'[v] = (1-damping)/n + damping·(Σ rank[u]/outdeg(u) over edges u→v + dangling/n)
//
// where dangling is the rank held by vertices without out-edges, spread
// evenly so that the ranks always sum to 1. It stops after an iteration whose
// L1 change, Σ|rank'[v] - rank[v]|, is below tol, or after maxIter
// iterations, and returns the ranks and the iterations run.
//
// Each iteration is pull-based: every vertex sums the contributions
// rank[u]/outdeg(u) of its in-neighbours, computed once per iteration, so no
// two tasks write the same place and there are no atomics. A symmetric
// graph's rows are its in-neighbours; for any other graph PageRank first
// builds the transposed graph (4 bytes per edge). Sums of floats are taken
// in an order that depends on the scheduling, so ranks can differ in the
// last bits from run to run. Its one option is par.WithPool.
//
// It panics if damping is outside [0, 1], tol is negative or NaN, or
// maxIter is negative.
func PageRank(g *Graph, damping, tol float64, maxIter int, opts ...par.Option) ([]float64, int) {
	pool := poolOf("graph.PageRank", opts)
	if g == nil {
		panic("graph: PageRank with a nil g")
	}
	if !(damping >= 0 && damping <= 1) {
		panic(fmt.Sprintf("graph: PageRank: damping %v: want 0 to 1", damping))
	}
	if !(tol >= 0) {
		panic(fmt.Sprintf("graph: PageRank: tol %v: want at least 0", tol))
	}
	if maxIter < 0 {
		panic(fmt.Sprintf("graph: PageRank: maxIter %d: want at least 0", maxIter))
	}
	type result struct {
		rank []float64
		iter int
	}
	r := core.RunValue(pool, func(*core.Worker) result {
		rank, iter := pageRank(g, damping, tol, maxIter, pool)
		return result{rank, iter}
	})
	return r.rank, r.iter
}

// rankStep is what one iteration folds besides the new ranks: the L1
// change and the rank now held by dangling vertices.
type rankStep struct{ change, dangling float64 }

func addSteps(x, y rankStep) rankStep {
	return rankStep{x.change + y.change, x.dangling + y.dangling}
}

func pageRank(g *Graph, damping, tol float64, maxIter int, pool *core.Pool) ([]float64, int) {
	opt := par.WithPool(pool)
	n := g.NumVertices()
	if n == 0 {
		return []float64{}, 0
	}
	in := g
	if !g.symmetric {
		in = transpose(g, pool)
	}
	rank := make([]float64, n)
	// contrib[u] = rank[u]/outdeg(u), 0 for a dangling u; next holds the
	// contributions of the ranks being computed.
	contrib := make([]float64, n)
	next := make([]float64, n)
	inv := 1 / float64(n)
	dangling := reduce.Reduce(0, n, 0.0, func(lo, hi int, acc float64) float64 {
		for v := lo; v < hi; v++ {
			rank[v] = inv
			if d := g.offsets[v+1] - g.offsets[v]; d > 0 {
				contrib[v] = inv / float64(d)
			} else {
				acc += inv
			}
		}
		return acc
	}, func(x, y float64) float64 { return x + y }, opt)
	iter := 0
	for iter < maxIter {
		iter++
		base := (1-damping)*inv + damping*dangling*inv
		step := reduce.Reduce(0, n, rankStep{}, func(lo, hi int, acc rankStep) rankStep {
			for v := lo; v < hi; v++ {
				sum := 0.0
				for _, u := range in.adj(int32(v)) {
					sum += contrib[u]
				}
				r := base + damping*sum
				acc.change += math.Abs(r - rank[v])
				rank[v] = r
				if d := g.offsets[v+1] - g.offsets[v]; d > 0 {
					next[v] = r / float64(d)
				} else {
					acc.dangling += r
				}
			}
			return acc
		}, addSteps, opt, par.Simple(leafVertices))
		contrib, next = next, contrib
		dangling = step.dangling
		if step.change < tol {
			break
		}
	}
	return rank, iter
}

// transpose returns g with every edge reversed: rows are counted by a
// parallel histogram of the targets, placed by a prefix sum, and filled
// source by source, so each row comes out sorted.
func transpose(g *Graph, pool *core.Pool) *Graph {
	opt := par.WithPool(pool)
	n := g.NumVertices()
	counts := reduce.Counts(g.edges, n, opt)
	offsets := make([]int64, n+1)
	pos := make([]int64, n)
	par.ForRange(0, n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			pos[v] = int64(counts[v])
		}
	}, opt)
	offsets[n] = reduce.PrefixSum(offsets[:n], pos, opt)
	copy(pos, offsets[:n])
	edges := make([]int32, len(g.edges))
	for u := 0; u < n; u++ {
		for _, v := range g.adj(int32(u)) {
			edges[pos[v]] = int32(u)
			pos[v]++
		}
	}
	return &Graph{offsets: offsets, edges: edges, symmetric: false}
}
