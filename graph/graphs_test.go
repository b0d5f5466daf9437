package graph_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gofork/gofork/graph"
)

// namedGraph is a test input.
type namedGraph struct {
	name string
	g    *graph.Graph
}

func mustFromEdges(t testing.TB, n int, edges [][2]int32, symmetrize bool) *graph.Graph {
	t.Helper()
	g, err := graph.FromEdges(n, edges, symmetrize)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randomEdges draws m edges on n vertices, self-loops and duplicates
// included.
func randomEdges(rng *rand.Rand, n, m int) [][2]int32 {
	edges := make([][2]int32, m)
	for i := range edges {
		edges[i] = [2]int32{int32(rng.IntN(n)), int32(rng.IntN(n))}
	}
	return edges
}

// pathEdges is the path 0-1-...-(n-1).
func pathEdges(n int) [][2]int32 {
	edges := make([][2]int32, 0, n)
	for i := 1; i < n; i++ {
		edges = append(edges, [2]int32{int32(i - 1), int32(i)})
	}
	return edges
}

// testGraphs returns the adversarial and random graphs every algorithm is
// checked on, symmetric ones and (with directed) directed ones.
func testGraphs(t testing.TB, directed bool) []namedGraph {
	rng := rand.New(rand.NewPCG(1, 1))
	pathLen := 200_000
	if testing.Short() {
		pathLen = 20_000
	}
	star := make([][2]int32, 0, 50_000)
	for i := 1; i < 50_000; i++ {
		star = append(star, [2]int32{0, int32(i)})
	}
	// Many components: 2000 small random clusters plus isolated vertices.
	var clusters [][2]int32
	for c := 0; c < 2000; c++ {
		base := int32(c * 10)
		for k := 0; k < 12; k++ {
			clusters = append(clusters, [2]int32{base + int32(rng.IntN(8)), base + int32(rng.IntN(8))})
		}
	}
	// Loops and duplicates only: every edge twice, plus a loop on each vertex.
	var dups [][2]int32
	for i := 0; i < 500; i++ {
		e := [2]int32{int32(rng.IntN(300)), int32(rng.IntN(300))}
		dups = append(dups, e, e, [2]int32{e[1], e[0]}, [2]int32{e[0], e[0]})
	}
	sym := func(name string, n int, edges [][2]int32) namedGraph {
		return namedGraph{name, mustFromEdges(t, n, edges, true)}
	}
	gs := []namedGraph{
		sym("one-vertex", 1, nil),
		sym("two-isolated", 2, nil),
		sym("one-edge", 2, [][2]int32{{0, 1}}),
		sym(fmt.Sprintf("path-%d", pathLen), pathLen, pathEdges(pathLen)),
		sym("star", 50_000, star),
		sym("clusters", 20_500, clusters),
		sym("dups-and-loops", 300, dups),
		sym("random-sparse", 5000, randomEdges(rng, 5000, 4000)),
		sym("random-dense", 3000, randomEdges(rng, 3000, 60_000)),
		{"rmat-12", graph.RMat(12, 8, 7)},
	}
	if directed {
		dir := func(name string, n int, edges [][2]int32) namedGraph {
			return namedGraph{name, mustFromEdges(t, n, edges, false)}
		}
		gs = append(gs,
			dir("directed-path", 1000, pathEdges(1000)),
			dir("directed-star-in", 1000, reverse(star[:999])),
			dir("directed-random", 4000, randomEdges(rng, 4000, 12_000)),
		)
	}
	return gs
}

func reverse(edges [][2]int32) [][2]int32 {
	out := make([][2]int32, len(edges))
	for i, e := range edges {
		out[i] = [2]int32{e[1], e[0]}
	}
	return out
}
