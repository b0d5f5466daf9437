package graph_test

import (
	"math/rand/v2"
	"testing"

	gonumgraph "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
	"gonum.org/v1/gonum/graph/traverse"

	"github.com/gofork/gofork/graph"
)

// randomGonum returns an undirected gonum graph of n nodes with sparse,
// shifted ids and about m random edges, in several components.
func randomGonum(rng *rand.Rand, n, m int) *simple.UndirectedGraph {
	ug := simple.NewUndirectedGraph()
	for i := 0; i < n; i++ {
		ug.AddNode(simple.Node(int64(3*i + 11)))
	}
	for k := 0; k < m; k++ {
		u, v := rng.IntN(n), rng.IntN(n)
		if u != v {
			ug.SetEdge(simple.Edge{F: simple.Node(int64(3*u + 11)), T: simple.Node(int64(3*v + 11))})
		}
	}
	return ug
}

// BFS levels and components agree with gonum's traverse and topo.
func TestAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, size := range [][2]int{{1, 0}, {50, 20}, {2000, 1500}, {3000, 9000}} {
		ug := randomGonum(rng, size[0], size[1])
		g, ids := graph.FromGonum(ug)
		index := map[int64]int32{}
		for i, id := range ids {
			index[id] = int32(i)
		}
		// Levels: gonum's Walk reports each node's depth.
		src := int32(len(ids) / 2)
		parent := graph.BFS(g, src)
		checkBFSTree(t, g, src, parent)
		depth := map[int32]int{}
		var bf traverse.BreadthFirst
		bf.Walk(ug, simple.Node(ids[src]), func(n gonumgraph.Node, d int) bool {
			depth[index[n.ID()]] = d
			return false
		})
		for v := range parent {
			d, reached := depth[int32(v)]
			if reached != (parent[v] >= 0) {
				t.Fatalf("n=%d: vertex %d: gonum reached %v, BFS parent %d", size[0], v, reached, parent[v])
			}
			if reached && int32(v) != src && depth[parent[v]] != d-1 {
				t.Fatalf("n=%d: vertex %d at gonum depth %d has parent %d at depth %d", size[0], v, d, parent[v], depth[parent[v]])
			}
		}
		// Components: the same partition, labelled by the smallest member.
		label := graph.ConnectedComponents(g)
		ccs := topo.ConnectedComponents(ug)
		seen := 0
		for _, cc := range ccs {
			smallest := int32(len(ids))
			for _, n := range cc {
				smallest = min(smallest, index[n.ID()])
			}
			for _, n := range cc {
				if l := label[index[n.ID()]]; l != smallest {
					t.Fatalf("n=%d: vertex %d labelled %d, its gonum component's smallest is %d", size[0], index[n.ID()], l, smallest)
				}
				seen++
			}
		}
		if seen != len(ids) {
			t.Fatalf("n=%d: gonum's components hold %d of %d vertices", size[0], seen, len(ids))
		}
	}
}
