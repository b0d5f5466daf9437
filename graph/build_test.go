package graph_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gonumgraph "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/gofork/gofork/graph"
)

// edgeSet returns g's edges as a set.
func edgeSet(g *graph.Graph) map[[2]int32]bool {
	set := map[[2]int32]bool{}
	for u := 0; u < g.NumVertices(); u++ {
		for _, v := range g.Neighbors(int32(u)) {
			set[[2]int32{int32(u), v}] = true
		}
	}
	return set
}

// checkClean fails unless every row is sorted, without duplicates and
// loops, and Symmetric tells the truth.
func checkClean(t *testing.T, g *graph.Graph) {
	t.Helper()
	var total int64
	for u := 0; u < g.NumVertices(); u++ {
		row := g.Neighbors(int32(u))
		total += int64(len(row))
		if g.Degree(int32(u)) != len(row) {
			t.Fatalf("Degree(%d) = %d, row has %d", u, g.Degree(int32(u)), len(row))
		}
		for i, v := range row {
			if v == int32(u) {
				t.Fatalf("row %d has a self-loop", u)
			}
			if i > 0 && row[i-1] >= v {
				t.Fatalf("row %d is not strictly increasing: %v", u, row)
			}
		}
	}
	if total != g.NumEdges() {
		t.Fatalf("rows hold %d edges, NumEdges = %d", total, g.NumEdges())
	}
	set := edgeSet(g)
	sym := true
	for e := range set {
		if !set[[2]int32{e[1], e[0]}] {
			sym = false
			break
		}
	}
	if sym != g.Symmetric() {
		t.Fatalf("Symmetric() = %v, edges say %v", g.Symmetric(), sym)
	}
}

func TestFromEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 2, 10, 1000, 20_000} {
		for _, symmetrize := range []bool{false, true} {
			edges := randomEdges(rng, n, 3*n)
			g := mustFromEdges(t, n, edges, symmetrize)
			checkClean(t, g)
			want := map[[2]int32]bool{}
			for _, e := range edges {
				if e[0] != e[1] {
					want[e] = true
					if symmetrize {
						want[[2]int32{e[1], e[0]}] = true
					}
				}
			}
			got := edgeSet(g)
			if len(got) != len(want) {
				t.Fatalf("n=%d symmetrize=%v: %d edges, want %d", n, symmetrize, len(got), len(want))
			}
			for e := range want {
				if !got[e] {
					t.Fatalf("n=%d: edge %v missing", n, e)
				}
			}
			if symmetrize && !g.Symmetric() {
				t.Fatalf("n=%d: symmetrized graph not Symmetric", n)
			}
		}
	}
}

func TestFromEdgesSymmetricDetected(t *testing.T) {
	g := mustFromEdges(t, 3, [][2]int32{{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 2}}, false)
	if !g.Symmetric() {
		t.Fatal("a list holding every reverse edge gave a graph that is not Symmetric")
	}
	g = mustFromEdges(t, 3, [][2]int32{{0, 1}, {1, 0}, {1, 2}}, false)
	if g.Symmetric() {
		t.Fatal("1→2 has no reverse, yet Symmetric")
	}
	// Balanced counts but a missing reverse: 0→1, 1→2, 2→0.
	g = mustFromEdges(t, 3, [][2]int32{{0, 1}, {1, 2}, {2, 0}}, false)
	if g.Symmetric() {
		t.Fatal("a directed cycle is not symmetric")
	}
}

func TestFromEdgesEmpty(t *testing.T) {
	g := mustFromEdges(t, 0, nil, true)
	if g.NumVertices() != 0 || g.NumEdges() != 0 {
		t.Fatalf("empty graph: %d vertices, %d edges", g.NumVertices(), g.NumEdges())
	}
	g = mustFromEdges(t, 5, nil, false)
	if g.NumVertices() != 5 || g.NumEdges() != 0 || !g.Symmetric() {
		t.Fatalf("5 isolated vertices: %d vertices, %d edges, symmetric %v", g.NumVertices(), g.NumEdges(), g.Symmetric())
	}
}

func TestFromEdgesErrors(t *testing.T) {
	for _, c := range []struct {
		n     int
		edges [][2]int32
		want  string
	}{
		{-1, nil, "-1 vertices"},
		{3, [][2]int32{{0, 1}, {1, 3}}, "edge 1 (1, 3)"},
		{3, [][2]int32{{0, 1}, {-1, 2}, {5, 5}}, "edge 1 (-1, 2)"},
	} {
		_, err := graph.FromEdges(c.n, c.edges, false)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "graph: FromEdges: ") {
			t.Errorf("FromEdges(%d, %v): error %v, want one naming %q", c.n, c.edges, err, c.want)
		}
	}
}

func TestNeighborsPanics(t *testing.T) {
	g := mustFromEdges(t, 2, [][2]int32{{0, 1}}, true)
	for _, v := range []int32{-1, 2} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "graph: Neighbors: vertex") {
					t.Errorf("Neighbors(%d) panicked with %v", v, r)
				}
			}()
			g.Neighbors(v)
		}()
	}
}

func TestRMat(t *testing.T) {
	a, b := graph.RMat(10, 8, 3), graph.RMat(10, 8, 3)
	if a.NumVertices() != 1024 || !a.Symmetric() {
		t.Fatalf("RMat(10, 8, 3): %d vertices, symmetric %v", a.NumVertices(), a.Symmetric())
	}
	checkClean(t, a)
	for u := int32(0); u < 1024; u++ {
		if !slices.Equal(a.Neighbors(u), b.Neighbors(u)) {
			t.Fatalf("RMat is not deterministic: row %d differs", u)
		}
	}
	// 8192 drawn edges, both directions, less duplicates and loops.
	if m := a.NumEdges(); m < 8000 || m > 2*8192 {
		t.Fatalf("RMat(10, 8, 3) has %d edges", m)
	}
	// Skew: vertex 0 is in the densest quadrant at every level.
	if a.Degree(0) < 3*int(a.NumEdges())/1024 {
		t.Fatalf("vertex 0 has degree %d: no R-MAT skew", a.Degree(0))
	}
	if c := graph.RMat(10, 8, 4); slices.Equal(c.Neighbors(0), a.Neighbors(0)) && c.NumEdges() == a.NumEdges() {
		t.Fatal("seeds 3 and 4 gave the same graph")
	}
	if g := graph.RMat(0, 8, 1); g.NumVertices() != 1 || g.NumEdges() != 0 {
		t.Fatalf("RMat(0, ...): %d vertices, %d edges", g.NumVertices(), g.NumEdges())
	}
}

func TestFromGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	ug := simple.NewUndirectedGraph()
	dg := simple.NewDirectedGraph()
	ids := make([]int64, 300)
	for i := range ids {
		ids[i] = int64(i*7 + 1000) // sparse, shifted ids
		ug.AddNode(simple.Node(ids[i]))
		dg.AddNode(simple.Node(ids[i]))
	}
	for k := 0; k < 900; k++ {
		u, v := ids[rng.IntN(300)], ids[rng.IntN(300)]
		if u != v {
			ug.SetEdge(simple.Edge{F: simple.Node(u), T: simple.Node(v)})
			dg.SetEdge(simple.Edge{F: simple.Node(u), T: simple.Node(v)})
		}
	}
	for _, c := range []struct {
		name string
		sym  bool
		g    gonumgraph.Graph
	}{{"undirected", true, ug}, {"directed", false, dg}} {
		var g *graph.Graph
		var mapping []int64
		if c.sym {
			g, mapping = graph.FromGonum(ug)
		} else {
			g, mapping = graph.FromGonum(dg)
		}
		checkClean(t, g)
		if !slices.Equal(mapping, ids) {
			t.Fatalf("%s: mapping is not the sorted ids", c.name)
		}
		if c.sym && !g.Symmetric() {
			t.Fatalf("%s: not symmetric", c.name)
		}
		count := 0
		for u := range mapping {
			for v := range mapping {
				has := c.g.Edge(mapping[u], mapping[v]) != nil
				_, got := slices.BinarySearch(g.Neighbors(int32(u)), int32(v))
				if has != got {
					t.Fatalf("%s: edge %d→%d: gonum %v, graph %v", c.name, u, v, has, got)
				}
				if got {
					count++
				}
			}
		}
		if int64(count) != g.NumEdges() {
			t.Fatalf("%s: %d edges found, NumEdges %d", c.name, count, g.NumEdges())
		}
	}
}
