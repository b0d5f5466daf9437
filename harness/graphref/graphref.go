// Package graphref holds the straightforward serial programs that package
// graph is tested and measured against: top-down BFS, components labelled
// by BFS, push-based PageRank and merge-intersection triangle counting,
// over a graph.Graph's public rows only.
package graphref

import (
	"math"

	"github.com/gofork/gofork/graph"
)

// Levels returns each vertex's distance from src in edges, -1 where
// unreachable, by a top-down BFS with a queue.
func Levels(g *graph.Graph, src int32) []int32 {
	level := make([]int32, g.NumVertices())
	for i := range level {
		level[i] = -1
	}
	level[src] = 0
	queue := []int32{src}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range g.Neighbors(u) {
			if level[v] < 0 {
				level[v] = level[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return level
}

// BFS returns a parent array as graph.BFS does, by a serial top-down BFS.
func BFS(g *graph.Graph, src int32) []int32 {
	parent := make([]int32, g.NumVertices())
	for i := range parent {
		parent[i] = -1
	}
	parent[src] = src
	queue := make([]int32, 0, g.NumVertices())
	queue = append(queue, src)
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		for _, v := range g.Neighbors(u) {
			if parent[v] < 0 {
				parent[v] = u
				queue = append(queue, v)
			}
		}
	}
	return parent
}

// Components labels every vertex with the smallest id of its component,
// edges taken as undirected, by a BFS from each unlabelled vertex in id
// order (a graph that is not symmetric gets its reverse edges first).
func Components(g *graph.Graph) []int32 {
	n := g.NumVertices()
	nbrs := g.Neighbors
	if !g.Symmetric() {
		rev := make([][]int32, n)
		for u := 0; u < n; u++ {
			for _, v := range g.Neighbors(int32(u)) {
				rev[v] = append(rev[v], int32(u))
			}
		}
		nbrs = func(v int32) []int32 {
			return append(append([]int32(nil), g.Neighbors(v)...), rev[v]...)
		}
	}
	label := make([]int32, n)
	for i := range label {
		label[i] = -1
	}
	queue := make([]int32, 0, n)
	for s := 0; s < n; s++ {
		if label[s] >= 0 {
			continue
		}
		label[s] = int32(s)
		queue = append(queue[:0], int32(s))
		for head := 0; head < len(queue); head++ {
			for _, v := range nbrs(queue[head]) {
				if label[v] < 0 {
					label[v] = int32(s)
					queue = append(queue, v)
				}
			}
		}
	}
	return label
}

// PageRank is graph.PageRank's iteration, serial and push-based.
func PageRank(g *graph.Graph, damping, tol float64, maxIter int) ([]float64, int) {
	n := g.NumVertices()
	if n == 0 {
		return []float64{}, 0
	}
	rank := make([]float64, n)
	next := make([]float64, n)
	for i := range rank {
		rank[i] = 1 / float64(n)
	}
	iter := 0
	for iter < maxIter {
		iter++
		dangling := 0.0
		for i := range next {
			next[i] = 0
		}
		for u := 0; u < n; u++ {
			row := g.Neighbors(int32(u))
			if len(row) == 0 {
				dangling += rank[u]
				continue
			}
			c := rank[u] / float64(len(row))
			for _, v := range row {
				next[v] += c
			}
		}
		change := 0.0
		for v := range next {
			r := (1-damping)/float64(n) + damping*(next[v]+dangling/float64(n))
			change += math.Abs(r - rank[v])
			next[v] = r
		}
		rank, next = next, rank
		if change < tol {
			break
		}
	}
	return rank, iter
}

// Triangles counts the triangles of a symmetric graph: for every edge u<v,
// the common neighbours w>v, by merging the sorted rows.
func Triangles(g *graph.Graph) int64 {
	var count int64
	for u := 0; u < g.NumVertices(); u++ {
		ru := g.Neighbors(int32(u))
		for _, v := range ru {
			if v <= int32(u) {
				continue
			}
			rv := g.Neighbors(v)
			i, j := 0, 0
			for i < len(ru) && j < len(rv) {
				switch {
				case ru[i] < rv[j]:
					i++
				case ru[i] > rv[j]:
					j++
				default:
					if ru[i] > v {
						count++
					}
					i++
					j++
				}
			}
		}
	}
	return count
}
