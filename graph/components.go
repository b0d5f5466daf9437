package graph

import (
	"sync/atomic"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// Afforest's parameters (Sutton, Ben-Nun and Barak, "Optimizing Parallel
// Graph Connectivity Computation via Subgraph Sampling", IPDPS 2018).
const (
	// sampleRounds: the first edges of every row linked before the sample.
	sampleRounds = 2
	// sampleVertices: vertices whose labels vote for the giant component.
	sampleVertices = 1024
)

// ConnectedComponents labels every vertex with the smallest vertex id of its
// connected component, so the labels do not depend on the scheduling. A
// graph that is not symmetric is taken as undirected: u and v are in one
// component when a path joins them ignoring the edges' directions.
//
// It is a concurrent union-find over one int32 per vertex, which becomes the
// result: a root is linked below the smaller of two roots by
// compare-and-swap, so the root of every tree is its smallest vertex, and
// finds halve their paths. On a symmetric graph it follows Afforest: link
// the first two edges of every row, compress, take the most frequent label
// in a sample as the giant component, and skip the rows of its vertices when
// linking the rest (each of the giant's edges to another component is also in
// that component's rows). No scratch beyond the result. Its one option is
// par.WithPool.
func ConnectedComponents(g *Graph, opts ...par.Option) []int32 {
	pool := poolOf("graph.ConnectedComponents", opts)
	if g == nil {
		panic("graph: ConnectedComponents with a nil g")
	}
	return core.RunValue(pool, func(*core.Worker) []int32 {
		return components(g, par.WithPool(pool))
	})
}

func components(g *Graph, opt par.Option) []int32 {
	n := g.NumVertices()
	label := make([]int32, n)
	par.ForRange(0, n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			label[v] = int32(v)
		}
	}, opt)
	giant := int32(-1) // -1: no vertex's row is skipped
	from := 0          // the first edge of each row not yet linked
	if g.symmetric {
		for r := 0; r < sampleRounds; r++ {
			par.ForRange(0, n, func(lo, hi int) {
				for v := lo; v < hi; v++ {
					if row := g.adj(int32(v)); r < len(row) {
						link(label, int32(v), row[r])
					}
				}
			}, opt, par.Simple(leafVertices))
		}
		compress(label, opt)
		giant = mostFrequent(label)
		from = sampleRounds
	}
	par.ForRange(0, n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if giant >= 0 && find(label, int32(v)) == giant {
				continue
			}
			row := g.adj(int32(v))
			for _, u := range row[min(from, len(row)):] {
				link(label, int32(v), u)
			}
		}
	}, opt, par.Simple(leafVertices))
	compress(label, opt)
	return label
}

// The union-find forest lives in label: label[v] is v's parent, and a root
// is its own parent. Every access is atomic, as finds and links run at once.
//
// Invariants, which make label[v] = find(v) the smallest id of v's component
// at the end:
//   - label[v] <= v, so parent pointers only go down in id and there are no
//     cycles;
//   - only a root's label changes to a smaller id (link's CAS expects the
//     root's own id), and a non-root's label changes only to an ancestor
//     (path halving stores the grandparent), so the set of vertices below a
//     root only grows, by whole trees;
//   - two roots are joined only when an edge joins their trees, so every
//     tree lies within one component, and the smallest vertex of a
//     component, having no smaller id to be linked below, stays its root.

// find returns the root of v's tree, halving the path on the way: each
// visited vertex is pointed at its grandparent. A concurrent link may make
// the returned root a non-root at once; link re-checks by its CAS.
func find(label []int32, v int32) int32 {
	for {
		p := atomic.LoadInt32(&label[v])
		if p == v {
			return v
		}
		gp := atomic.LoadInt32(&label[p])
		if gp != p {
			// Point v past p; if another find moved label[v] meanwhile it
			// moved it to an ancestor too, so losing that store is harmless.
			atomic.CompareAndSwapInt32(&label[v], p, gp)
		}
		v = gp
	}
}

// link joins the trees of u and v: the larger root is linked below the
// smaller, by a CAS that fails if the larger root was linked meanwhile, in
// which case the roots are found again.
func link(label []int32, u, v int32) {
	for {
		ru, rv := find(label, u), find(label, v)
		if ru == rv {
			return
		}
		if ru < rv {
			ru, rv = rv, ru
		}
		if atomic.CompareAndSwapInt32(&label[ru], ru, rv) { // ru was a root and is now below rv
			return
		}
	}
}

// compress points every vertex straight at its root.
func compress(label []int32, opt par.Option) {
	par.ForRange(0, len(label), func(lo, hi int) {
		for v := lo; v < hi; v++ {
			atomic.StoreInt32(&label[v], find(label, int32(v)))
		}
	}, opt, par.Simple(4*leafVertices))
}

// mostFrequent returns the label that most of sampleVertices vertices,
// chosen by a fixed hash, carry; the label array must be compressed.
func mostFrequent(label []int32) int32 {
	n := len(label)
	if n == 0 {
		return -1
	}
	counts := make(map[int32]int, 64)
	best, bestCount := int32(-1), 0
	for i := 0; i < sampleVertices; i++ {
		l := label[mix64(uint64(i))%uint64(n)]
		counts[l]++
		if c := counts[l]; c > bestCount || (c == bestCount && l < best) {
			best, bestCount = l, c
		}
	}
	return best
}
