package graph

import (
	"fmt"
	"slices"

	gonumgraph "gonum.org/v1/gonum/graph"
)

// FromGonum converts a gonum graph: vertex i of the result is the node of
// the i-th smallest ID, and the returned slice maps vertex i back to that
// ID. An undirected gonum graph (one that implements graph.Undirected)
// gives a symmetric Graph; a directed one gives its edges u→v as they are.
// Self-loops and parallel edges are dropped.
//
// gonum's graphs are read serially (their iterators are not meant to be
// shared); the Graph is then built by FromEdges, in parallel. It panics if g
// has more than math.MaxInt32 nodes.
func FromGonum(g gonumgraph.Graph) (*Graph, []int64) {
	nodes := gonumgraph.NodesOf(g.Nodes())
	ids := make([]int64, len(nodes))
	for i, v := range nodes {
		ids[i] = v.ID()
	}
	slices.Sort(ids)
	if len(ids) > maxVertices {
		panic(fmt.Sprintf("graph: FromGonum: %d nodes: at most %d fit", len(ids), maxVertices))
	}
	index := make(map[int64]int32, len(ids))
	for i, id := range ids {
		index[id] = int32(i)
	}
	var edges [][2]int32
	for i, id := range ids {
		to := g.From(id)
		for to.Next() {
			edges = append(edges, [2]int32{int32(i), index[to.Node().ID()]})
		}
	}
	_, undirected := g.(gonumgraph.Undirected)
	out, err := FromEdges(len(ids), edges, undirected)
	if err != nil {
		panic("graph: FromGonum: " + err.Error()) // unreachable: every index is in range
	}
	return out, ids
}
