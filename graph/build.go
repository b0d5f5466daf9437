package graph

import (
	"fmt"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// FromEdges builds a Graph of n vertices from a list of directed edges
// (source, target). With symmetrize, each edge is also added reversed and the
// Graph is symmetric; without, the Graph is symmetric exactly when the list
// (less self-loops) holds every edge's reverse. Duplicate edges and
// self-loops are dropped. edges is not modified.
//
// The edges are packed into 64-bit keys, sorted by sortpar.Sort, deduplicated
// by sortpar.Compact, and the rows are cut in parallel; building takes about
// 8 bytes per edge (16 with symmetrize) besides the Graph. It returns an
// error, naming the first bad edge, if an endpoint is not in [0, n), and one
// if n is negative or above math.MaxInt32. It runs on the pool of the calling
// task, or core.Default().
func FromEdges(n int, edges [][2]int32, symmetrize bool) (*Graph, error) {
	pool := poolOf("graph.FromEdges", nil)
	if n < 0 || n > maxVertices {
		return nil, fmt.Errorf("graph: FromEdges: %d vertices: want 0 to %d", n, maxVertices)
	}
	bad := par.IndexFunc(edges, func(e [2]int32) bool {
		return e[0] < 0 || int(e[0]) >= n || e[1] < 0 || int(e[1]) >= n
	}, par.WithPool(pool))
	if bad >= 0 {
		e := edges[bad]
		return nil, fmt.Errorf("graph: FromEdges: edge %d (%d, %d): vertex out of range [0, %d)", bad, e[0], e[1], n)
	}
	per := 1
	if symmetrize {
		per = 2
	}
	keys := make([]uint64, per*len(edges))
	par.ForRange(0, len(edges), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			u, v := edges[i][0], edges[i][1]
			keys[per*i] = edgeKey(u, v)
			if symmetrize {
				keys[2*i+1] = edgeKey(v, u)
			}
		}
	}, par.WithPool(pool))
	return fromKeys(n, keys, symmetrize, pool), nil
}

// edgeKey packs the edge u→v so that keys sort by source, then target.
func edgeKey(u, v int32) uint64 { return uint64(uint32(u))<<32 | uint64(uint32(v)) }

// fromKeys builds the Graph of n vertices whose edges are keys (edgeKey
// values, in any order, with duplicates and self-loops allowed; keys is
// reused as scratch). symmetric says that keys is known to hold every
// edge's reverse; otherwise the finished Graph is checked.
func fromKeys(n int, keys []uint64, symmetric bool, pool *core.Pool) *Graph {
	opt := par.WithPool(pool)
	keys = par.DeleteFunc(keys, func(k uint64) bool { return k>>32 == k&0xffffffff }, opt)
	sortpar.Sort(keys, opt)
	keys = sortpar.Compact(keys, opt)
	g := fromSortedKeys(n, keys, pool)
	if symmetric {
		g.symmetric = true
	} else {
		g.symmetric = isSymmetric(g, pool)
	}
	return g
}

// fromSortedKeys cuts sorted, distinct, loop-free keys into rows.
func fromSortedKeys(n int, keys []uint64, pool *core.Pool) *Graph {
	opt := par.WithPool(pool)
	m := len(keys)
	g := &Graph{offsets: make([]int64, n+1), edges: make([]int32, m)}
	// Row v starts at the first key whose source is at least v. Key i writes
	// the starts of the rows after key i-1's source up to its own, so every
	// offset is written exactly once, by the key that follows the gap.
	par.ForRange(0, m, func(lo, hi int) {
		prev := int64(-1)
		if lo > 0 {
			prev = int64(keys[lo-1] >> 32)
		}
		for i := lo; i < hi; i++ {
			src := int64(keys[i] >> 32)
			for w := prev + 1; w <= src; w++ {
				g.offsets[w] = int64(i)
			}
			prev = src
			g.edges[i] = int32(uint32(keys[i]))
		}
	}, opt)
	last := int64(-1)
	if m > 0 {
		last = int64(keys[m-1] >> 32)
	}
	par.ForRange(int(last+1), n+1, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			g.offsets[w] = int64(m)
		}
	}, opt)
	return g
}

// isSymmetric reports whether every edge of g has its reverse. Only the
// edges u→v with u < v are looked up, by binary search in v's row, in
// parallel, stopping at the first without a reverse: if all of them have
// one, reversing is a one-to-one map from those edges into the edges with
// u > v, and it is onto (so every edge has its reverse) exactly when the two
// sets are the same size, which a parallel count of the rows' halves tells.
func isSymmetric(g *Graph, pool *core.Pool) bool {
	opt := par.WithPool(pool)
	n := g.NumVertices()
	missing := par.IndexBlocks(n, func(lo, hi int) int {
		for u := lo; u < hi; u++ {
			row := g.adj(int32(u))
			above, _ := slices.BinarySearch(row, int32(u))
			for _, v := range row[above:] {
				if _, ok := slices.BinarySearch(g.adj(v), int32(u)); !ok {
					return u
				}
			}
		}
		return -1
	}, opt)
	if missing >= 0 {
		return false
	}
	balance := reduce.Reduce(0, n, int64(0), func(lo, hi int, acc int64) int64 {
		for u := lo; u < hi; u++ {
			row := g.adj(int32(u))
			below, _ := slices.BinarySearch(row, int32(u))
			acc += int64(len(row) - 2*below) // edges up minus edges down
		}
		return acc
	}, func(x, y int64) int64 { return x + y }, opt)
	return balance == 0
}

// normalizeRows sorts every row of g and drops duplicates and self-loops,
// for graphs read from files, whose rows need not be clean. Rows are cleaned
// in place in parallel; the edges are packed only if some row shrank.
func normalizeRows(g *Graph, pool *core.Pool) {
	opt := par.WithPool(pool)
	n := g.NumVertices()
	deg := make([]int64, n) // deg[v]: row v's length once cleaned
	shrank := reduce.Reduce(0, n, false, func(lo, hi int, shrank bool) bool {
		for v := lo; v < hi; v++ {
			row := g.adj(int32(v))
			if !slices.IsSorted(row) {
				slices.Sort(row)
			}
			k := 0
			for j, w := range row {
				if w == int32(v) || (j > 0 && w == row[j-1]) {
					continue
				}
				row[k] = w
				k++
			}
			deg[v] = int64(k)
			shrank = shrank || k != len(row)
		}
		return shrank
	}, func(x, y bool) bool { return x || y }, opt)
	if !shrank {
		return
	}
	offsets := make([]int64, n+1)
	offsets[n] = reduce.PrefixSum(offsets[:n], deg, opt)
	edges := make([]int32, offsets[n])
	par.ForRange(0, n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			copy(edges[offsets[v]:offsets[v+1]], g.edges[g.offsets[v]:g.offsets[v]+deg[v]])
		}
	}, opt)
	g.offsets, g.edges = offsets, edges
}
