package graph

import (
	"fmt"
	"sync/atomic"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// BFS thresholds.
const (
	// denseDivisor: a level runs bottom-up once its frontier's vertices
	// plus their out-edges exceed NumEdges/denseDivisor (Ligra's rule).
	denseDivisor = 20
	// serialLevelEdges: a top-down level whose frontier has fewer
	// out-edges runs serially on the calling worker, so that long thin
	// graphs (a path) cost a few nanoseconds per level, not a fork-join.
	serialLevelEdges = 2048
	// frontierLeaf caps the frontier vertices a top-down leaf expands.
	frontierLeaf = 256
)

// BFS runs a breadth-first search from src and returns the parent array:
// parent[v] is the vertex from which the search reached v, -1 where v is
// unreachable from src, and parent[src] = src. Following parents from any
// reached vertex leads to src along a shortest path, and each parent is a
// neighbour one level nearer to src; which of several such neighbours is
// chosen depends on the scheduling.
//
// The search is direction-optimizing (Beamer, Asanović and Patterson, SC
// 2012), with Ligra's switch: a level whose frontier, counted with its
// out-edges, exceeds a twentieth of the edges runs bottom-up, each unvisited
// vertex scanning its neighbours for one in the frontier (a bitmap), with no
// atomics and stopping at the first hit; smaller levels run top-down, the
// frontier's vertices claiming their unvisited neighbours by compare-and-swap
// on the parent array. Bottom-up needs in-edges, so on a graph that is not
// symmetric every level runs top-down. Besides the result (4 bytes per
// vertex), BFS uses two frontier lists and two bitmaps: 8.25 bytes per
// vertex.
//
// Its one option is par.WithPool. It panics if src is not a vertex of g.
func BFS(g *Graph, src int32, opts ...par.Option) []int32 {
	pool := poolOf("graph.BFS", opts)
	if g == nil {
		panic("graph: BFS with a nil g")
	}
	n := g.NumVertices()
	if src < 0 || int(src) >= n {
		panic(fmt.Sprintf(badVertex, "BFS", src, n))
	}
	return core.RunValue(pool, func(*core.Worker) []int32 {
		b := newBFS(g, par.WithPool(pool))
		b.run(src)
		return b.parent
	})
}

// bfs is the state of one search.
type bfs struct {
	g      *Graph
	opt    par.Option
	parent []int32
	// cur and next are the frontier lists of a top-down level; curBits and
	// nextBits the bitmaps of a bottom-up one. Allocated on first use.
	cur, next         *vertexQueue
	curBits, nextBits bitmap
}

func newBFS(g *Graph, opt par.Option) *bfs {
	n := g.NumVertices()
	b := &bfs{g: g, opt: opt, parent: make([]int32, n)}
	par.ForRange(0, n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			b.parent[i] = -1
		}
	}, opt)
	b.cur = &vertexQueue{ids: make([]int32, n)}
	b.next = &vertexQueue{ids: make([]int32, n)}
	return b
}

// levelSize is a frontier's size: its vertices and their out-edges.
type levelSize struct{ vertices, edges int64 }

func addSizes(x, y levelSize) levelSize {
	return levelSize{x.vertices + y.vertices, x.edges + y.edges}
}

func (b *bfs) run(src int32) {
	g := b.g
	b.parent[src] = src
	b.cur.ids[0] = src
	b.cur.tail.Store(1)
	size := levelSize{1, int64(g.offsets[src+1] - g.offsets[src])}
	dense := false // whether the frontier is in curBits rather than cur
	threshold := g.NumEdges() / denseDivisor
	for size.vertices > 0 {
		wantDense := g.symmetric && size.vertices+size.edges > threshold
		switch {
		case wantDense && !dense:
			b.ensureBitmaps()
			b.curBits.clear(b.opt)
			b.curBits.fromList(b.cur.list(), b.opt)
			dense = true
		case !wantDense && dense:
			b.cur.reset()
			b.curBits.toList(b.cur, b.opt)
			dense = false
		}
		if dense {
			size = b.bottomUp()
			b.curBits, b.nextBits = b.nextBits, b.curBits
		} else {
			if size.edges < serialLevelEdges {
				size = b.topDownSerial()
			} else {
				size = b.topDown()
			}
			b.cur, b.next = b.next, b.cur
		}
	}
}

func (b *bfs) ensureBitmaps() {
	if b.curBits == nil {
		b.curBits = newBitmap(b.g.NumVertices())
		b.nextBits = newBitmap(b.g.NumVertices())
	}
}

// topDownSerial expands the frontier in cur into next on the calling worker.
func (b *bfs) topDownSerial() levelSize {
	g, parent := b.g, b.parent
	next := b.next.ids
	k := 0
	var edges int64
	for _, u := range b.cur.list() {
		for _, v := range g.adj(u) {
			if parent[v] == -1 {
				parent[v] = u
				next[k] = v
				k++
				edges += g.offsets[v+1] - g.offsets[v]
			}
		}
	}
	b.next.tail.Store(int64(k))
	return levelSize{int64(k), edges}
}

// topDown expands the frontier in cur into next in parallel. A vertex is
// claimed by the compare-and-swap that moves its parent from -1 to a
// frontier vertex: exactly one frontier vertex wins it and appends it.
func (b *bfs) topDown() levelSize {
	g, parent := b.g, b.parent
	b.next.reset()
	frontier := b.cur.list()
	return reduce.Reduce(0, len(frontier), levelSize{}, func(lo, hi int, acc levelSize) levelSize {
		var batch [queueBatch]int32
		k := 0
		for _, u := range frontier[lo:hi] {
			for _, v := range g.adj(u) {
				if atomic.LoadInt32(&parent[v]) != -1 || !atomic.CompareAndSwapInt32(&parent[v], -1, u) {
					continue
				}
				if k == len(batch) {
					b.next.append(batch[:k])
					k = 0
				}
				batch[k] = v
				k++
				acc.vertices++
				acc.edges += g.offsets[v+1] - g.offsets[v]
			}
		}
		b.next.append(batch[:k])
		return acc
	}, addSizes, b.opt, par.Simple(frontierLeaf))
}

// bottomUp finds the next frontier, as nextBits, from the one in curBits:
// every unvisited vertex looks for a neighbour in the frontier. A leaf owns
// whole words of nextBits and the parents of their 64 vertices, so it
// writes both without atomics; curBits is only read.
func (b *bfs) bottomUp() levelSize {
	g, parent, cur, next := b.g, b.parent, b.curBits, b.nextBits
	n := int32(g.NumVertices())
	return reduce.Reduce(0, len(next), levelSize{}, func(lo, hi int, acc levelSize) levelSize {
		for wi := lo; wi < hi; wi++ {
			var word uint64
			first := int32(wi << 6)
			last := min(first+64, n)
			for v := first; v < last; v++ {
				if parent[v] != -1 {
					continue
				}
				for _, u := range g.adj(v) {
					if cur.has(u) {
						parent[v] = u
						word |= 1 << (uint(v) & 63)
						acc.vertices++
						acc.edges += g.offsets[v+1] - g.offsets[v]
						break
					}
				}
			}
			next[wi] = word
		}
		return acc
	}, addSizes, b.opt, par.Simple(leafVertices/64))
}
