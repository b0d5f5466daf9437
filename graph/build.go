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

// isSymmetric reports whether every edge of g has its reverse.
//
// It checks that, for every vertex v, the ids below v in v's row (its "down"
// list) are exactly the vertices u < v whose rows hold v (its "up" edges),
// in order. The targets are cut into a few ranges holding about equal parts
// of the down lists, checked in parallel; a range [a, b) scans the rows of
// u = 0..b-1 in order, each from the first entry at or above max(a, u+1)
// up to b, and keeps for each of its targets v a cursor into v's row: an up
// edge u→v must find u under v's cursor, which then moves on. As u only
// grows, the cursors walk the down lists in order, and at the end every
// cursor must have reached the end of its down list. The rows are read in
// order; the random accesses per up edge are the cursor, the row's end and
// the entry under the cursor. Scratch: 8 bytes per vertex.
func isSymmetric(g *Graph, pool *core.Pool) bool {
	n := g.NumVertices()
	m := g.NumEdges()
	if n == 0 || m == 0 {
		return true
	}
	opt := par.WithPool(pool)
	// cursor[v]: the index in g.edges of the next entry of v's row that an
	// up edge must match, so that a check reads no offset. It first holds
	// the running count of down edges, by which the ranges are cut: a
	// range's checks are one per down edge of its targets (the work of
	// symmetric rows), and in a graph whose hubs have low ids, such as an
	// R-MAT graph, the down lists grow with the id.
	cursor := make([]int64, n)
	par.ForRange(0, n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			i, _ := slices.BinarySearch(g.adj(int32(v)), int32(v))
			cursor[v] = int64(i)
		}
	}, opt)
	down := reduce.PrefixSum(cursor, cursor, opt)
	ranges := min(symmetryRanges*pool.Workers(), n)
	cut := make([]int, ranges+1)
	for c := 1; c < ranges; c++ {
		v, _ := slices.BinarySearch(cursor, int64(c)*down/int64(ranges))
		cut[c] = max(min(v, n), cut[c-1])
	}
	cut[ranges] = n
	return reduce.Reduce(0, ranges, true, func(lo, hi int, ok bool) bool {
		for c := lo; c < hi && ok; c++ {
			ok = symmetricRange(g, cut[c], cut[c+1], cursor)
		}
		return ok
	}, func(x, y bool) bool { return x && y }, opt, par.Simple(1))
}

// symmetryRanges is the number of target ranges per worker isSymmetric
// checks: more than one, so that a worker that finishes early finds one
// to take, and few, as each range scans all the rows below its end.
const symmetryRanges = 2

// symmetricRange checks the down lists of the targets [a, b) (see
// isSymmetric); it owns cursor[a:b].
func symmetricRange(g *Graph, a, b int, cursor []int64) bool {
	if a >= b {
		return true
	}
	copy(cursor[a:b], g.offsets[a:b])
	edges := g.edges
	for u := 0; u < b-1; u++ {
		row := g.adj(int32(u))
		from := int32(max(a, u+1))
		i, _ := slices.BinarySearch(row, from)
		for _, v := range row[i:] {
			if v >= int32(b) {
				break
			}
			k := cursor[v]
			if k >= g.offsets[v+1] || edges[k] != int32(u) {
				return false
			}
			cursor[v] = k + 1
		}
	}
	for v := a; v < b; v++ {
		if k := cursor[v]; k < g.offsets[v+1] && edges[k] < int32(v) {
			return false // v's row holds a u < v without the edge u→v
		}
	}
	return true
}

// isCleanRow reports whether row (of vertex v) is strictly increasing and
// does not hold v.
func isCleanRow(row []int32, v int32) bool {
	prev := int32(-1)
	for _, w := range row {
		if w <= prev || w == v {
			return false
		}
		prev = w
	}
	return true
}

// normalizeRows sorts every row of g and drops duplicates and self-loops,
// for graphs read from files, whose rows need not be clean. Rows are checked
// in parallel, read only, and cleaned in place where they need it; the
// edges are packed only if some row shrank.
func normalizeRows(g *Graph, pool *core.Pool) {
	opt := par.WithPool(pool)
	n := g.NumVertices()
	deg := make([]int64, n) // deg[v]: row v's length once cleaned
	shrank := reduce.Reduce(0, n, false, func(lo, hi int, shrank bool) bool {
		for v := lo; v < hi; v++ {
			row := g.adj(int32(v))
			deg[v] = int64(len(row))
			if isCleanRow(row, int32(v)) {
				continue // the common case: read only, nothing written
			}
			slices.Sort(row)
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
	}, func(x, y bool) bool { return x || y }, opt, par.Simple(leafVertices))
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
