package graph_test

import (
	"fmt"
	"strings"

	"github.com/gofork/gofork/graph"
)

// The graph of the examples: a triangle 0-1-2 with a tail 2-3, and an edge
// 4-5 on its own.
func exampleGraph() *graph.Graph {
	g, err := graph.FromEdges(6, [][2]int32{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {4, 5}}, true)
	if err != nil {
		panic(err)
	}
	return g
}

func ExampleFromEdges() {
	g, err := graph.FromEdges(4, [][2]int32{{0, 1}, {1, 2}, {1, 2}, {3, 3}}, true)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.NumVertices(), "vertices,", g.NumEdges(), "directed edges, symmetric:", g.Symmetric())
	fmt.Println("neighbours of 1:", g.Neighbors(1))
	// Output:
	// 4 vertices, 4 directed edges, symmetric: true
	// neighbours of 1: [0 2]
}

func ExampleBFS() {
	parent := graph.BFS(exampleGraph(), 3)
	fmt.Println(parent)
	// Output: [2 2 3 3 -1 -1]
}

func ExampleConnectedComponents() {
	fmt.Println(graph.ConnectedComponents(exampleGraph()))
	// Output: [0 0 0 0 4 4]
}

func ExamplePageRank() {
	rank, iters := graph.PageRank(exampleGraph(), 0.85, 1e-12, 200)
	for v, r := range rank {
		fmt.Printf("%d: %.4f\n", v, r)
	}
	fmt.Println("converged:", iters < 200)
	// Output:
	// 0: 0.1640
	// 1: 0.1640
	// 2: 0.2445
	// 3: 0.0943
	// 4: 0.1667
	// 5: 0.1667
	// converged: true
}

func ExampleTriangles() {
	fmt.Println(graph.Triangles(exampleGraph()))
	// Output: 1
}

func ExampleRMat() {
	g := graph.RMat(10, 8, 1)
	fmt.Println(g.NumVertices(), "vertices, symmetric:", g.Symmetric())
	// Output: 1024 vertices, symmetric: true
}

func ExampleReadAdjacency() {
	// Vertex 0 has neighbours 1 and 2, vertex 1 has 0, vertex 2 has 0.
	text := "AdjacencyGraph\n3\n4\n0\n2\n3\n1\n2\n0\n0\n"
	g, err := graph.ReadAdjacency(strings.NewReader(text))
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Neighbors(0), g.Symmetric())
	_, err = graph.ReadAdjacency(strings.NewReader("AdjacencyGraph\n3\n4\n0\n2\nx\n"))
	fmt.Println(err)
	// Output:
	// [1 2] true
	// graph: ReadAdjacency: line 6: "x" is not a non-negative integer
}

func ExampleReadEdgeList() {
	text := "# FromNodeId\tToNodeId\n0\t1\n1\t2\n"
	g, err := graph.ReadEdgeList(strings.NewReader(text), true)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.NumVertices(), g.Neighbors(1))
	// Output: 3 [0 2]
}
