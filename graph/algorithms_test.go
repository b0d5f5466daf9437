package graph_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/graph"
	"github.com/gofork/gofork/harness/graphref"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
)

// checkBFSTree fails unless parent is a valid BFS tree of g from src: the
// reached vertices are those a serial BFS reaches, and each reached vertex
// other than src has as parent a vertex with an edge to it, one level
// nearer to src.
func checkBFSTree(t *testing.T, g *graph.Graph, src int32, parent []int32) {
	t.Helper()
	level := graphref.Levels(g, src)
	if len(parent) != len(level) {
		t.Fatalf("parent has %d entries, want %d", len(parent), len(level))
	}
	if parent[src] != src {
		t.Fatalf("parent[src=%d] = %d, want src", src, parent[src])
	}
	for v, p := range parent {
		if v == int(src) {
			continue
		}
		if (p < 0) != (level[v] < 0) {
			t.Fatalf("vertex %d: parent %d, but its level is %d", v, p, level[v])
		}
		if p < 0 {
			continue
		}
		if level[p] != level[v]-1 {
			t.Fatalf("vertex %d at level %d has parent %d at level %d", v, level[v], p, level[p])
		}
		if _, ok := slices.BinarySearch(g.Neighbors(p), int32(v)); !ok {
			t.Fatalf("vertex %d has parent %d, which has no edge to it", v, p)
		}
	}
}

func TestBFS(t *testing.T) {
	gs := testGraphs(t, true)
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, c := range gs {
			n := c.g.NumVertices()
			for _, src := range []int32{0, int32(n / 2), int32(n - 1)} {
				checkBFSTree(t, c.g, src, graph.BFS(c.g, src, par.WithPool(p)))
			}
		}
	})
}

// A deep BFS: a path of a million vertices has a million levels, each of
// one vertex.
func TestBFSLongPath(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	g := mustFromEdges(t, n, pathEdges(n), true)
	parent := graph.BFS(g, 0)
	for v := 1; v < n; v++ {
		if parent[v] != int32(v-1) {
			t.Fatalf("parent[%d] = %d on a path from 0", v, parent[v])
		}
	}
	parent = graph.BFS(g, int32(n/2))
	if parent[0] != 1 || parent[n-1] != int32(n-2) {
		t.Fatalf("from the middle: parent[0] = %d, parent[n-1] = %d", parent[0], parent[n-1])
	}
}

func TestBFSPanics(t *testing.T) {
	g := mustFromEdges(t, 0, nil, true)
	defer func() {
		if r, _ := recover().(string); !strings.HasPrefix(r, "graph: BFS: vertex 0 out of range") {
			t.Fatalf("BFS on an empty graph panicked with %q", r)
		}
	}()
	graph.BFS(g, 0)
}

func TestConnectedComponents(t *testing.T) {
	gs := testGraphs(t, true)
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, c := range gs {
			got := graph.ConnectedComponents(c.g, par.WithPool(p))
			if want := graphref.Components(c.g); !slices.Equal(got, want) {
				i := 0
				for got[i] == want[i] {
					i++
				}
				t.Fatalf("%s: label[%d] = %d, want %d", c.name, i, got[i], want[i])
			}
		}
	})
	if got := graph.ConnectedComponents(mustFromEdges(t, 0, nil, true)); len(got) != 0 {
		t.Fatalf("empty graph: %v", got)
	}
}

func TestPageRank(t *testing.T) {
	gs := testGraphs(t, true)
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, c := range gs {
			got, iters := graph.PageRank(c.g, 0.85, 1e-10, 30, par.WithPool(p))
			want, wantIters := graphref.PageRank(c.g, 0.85, 1e-10, 30)
			// The sums are taken in another order: an iteration's L1 change
			// can fall below tol one iteration apart.
			if d := iters - wantIters; d < -1 || d > 1 {
				t.Fatalf("%s: %d iterations, the serial program %d", c.name, iters, wantIters)
			}
			sum := 0.0
			for v := range got {
				sum += got[v]
				if math.Abs(got[v]-want[v]) > 1e-9 {
					t.Fatalf("%s: rank[%d] = %g, the serial program %g", c.name, v, got[v], want[v])
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("%s: ranks sum to %v", c.name, sum)
			}
		}
	})
	if r, it := graph.PageRank(mustFromEdges(t, 0, nil, true), 0.85, 0, 10); len(r) != 0 || it != 0 {
		t.Fatalf("empty graph: %v, %d iterations", r, it)
	}
	// A star's hub holds the most rank; leaves all hold the same.
	star := mustFromEdges(t, 5, [][2]int32{{0, 1}, {0, 2}, {0, 3}, {0, 4}}, true)
	r, _ := graph.PageRank(star, 0.85, 0, 100)
	if r[0] <= r[1] || r[1] != r[4] {
		t.Fatalf("star ranks %v", r)
	}
}

func TestPageRankPanics(t *testing.T) {
	g := mustFromEdges(t, 2, nil, true)
	for _, c := range []struct {
		damping, tol float64
		maxIter      int
		want         string
	}{
		{1.5, 0, 1, "damping"}, {math.NaN(), 0, 1, "damping"}, {0.85, -1, 1, "tol"}, {0.85, 0, -1, "maxIter"},
	} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.HasPrefix(r, "graph: PageRank: "+c.want) {
					t.Errorf("PageRank(%v, %v, %d) panicked with %q", c.damping, c.tol, c.maxIter, r)
				}
			}()
			graph.PageRank(g, c.damping, c.tol, c.maxIter)
		}()
	}
}

func TestTriangles(t *testing.T) {
	gs := testGraphs(t, false)
	// The complete graph on 40 vertices has C(40, 3) triangles.
	var k40 [][2]int32
	for u := int32(0); u < 40; u++ {
		for v := u + 1; v < 40; v++ {
			k40 = append(k40, [2]int32{u, v})
		}
	}
	gs = append(gs, namedGraph{"k40", mustFromEdges(t, 40, k40, true)})
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, c := range gs {
			got := graph.Triangles(c.g, par.WithPool(p))
			if want := graphref.Triangles(c.g); got != want {
				t.Fatalf("%s: %d triangles, the serial program counts %d", c.name, got, want)
			}
		}
	})
	if got := graph.Triangles(gs[len(gs)-1].g); got != 40*39*38/6 {
		t.Fatalf("K40: %d triangles", got)
	}
	defer func() {
		if r, _ := recover().(string); r != "graph: Triangles: g is not symmetric" {
			t.Fatalf("Triangles on a directed graph panicked with %q", r)
		}
	}()
	graph.Triangles(mustFromEdges(t, 2, [][2]int32{{0, 1}}, false))
}

// Options other than par.WithPool are refused, naming the function.
func TestOptionsRefused(t *testing.T) {
	g := mustFromEdges(t, 2, [][2]int32{{0, 1}}, true)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "graph.BFS") {
			t.Fatalf("BFS with par.Grain panicked with %v", r)
		}
	}()
	graph.BFS(g, 0, par.Grain(4))
}
