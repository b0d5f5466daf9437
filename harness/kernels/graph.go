package kernels

import (
	"fmt"
	"math"
	"slices"

	gonumgraph "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
	"gonum.org/v1/gonum/graph/traverse"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/graph"
	"github.com/gofork/gofork/harness/graphref"
	"github.com/gofork/gofork/par"
)

// The graph suite: package graph's algorithms on a symmetric R-MAT graph
// (graph.RMat, Ligra's generator), against the straightforward serial CSR
// programs of harness/graphref and, for BFS and components, gonum's
// graph/traverse and graph/topo on a simple.UndirectedGraph of the same
// edges (gonum needs seconds and about 700 MB at the full size).
const (
	graphSuite      = "graph"
	graphScale      = 18 // 2^18 vertices, ~3.9 M directed edges: Ligra's "small" R-MAT
	graphScaleQuick = 14
	graphDegree     = 8 // edges drawn per vertex, before symmetrizing
)

type graphCase struct {
	name     string
	order    int
	about    string
	gonum    bool // whether gonum is the baseline
	note     string
	setupRun func(g *graph.Graph, variant string, p int) (*Job, error)
}

var graphCases = []graphCase{
	{name: "graph-bfs", order: 500, gonum: true, setupRun: setupGraphBFS,
		about: "graph.BFS (direction-optimizing) from vertex 0; serial: top-down queue BFS; baseline: gonum traverse.BreadthFirst"},
	{name: "graph-components", order: 501, gonum: true, setupRun: setupGraphComponents,
		about: "graph.ConnectedComponents (union-find, Afforest); serial: BFS labelling; baseline: gonum topo.ConnectedComponents"},
	{name: "graph-pagerank", order: 502, setupRun: setupGraphPageRank,
		note:  "no Go baseline: gonum's network.PageRank and PageRankSparse iterate to a tolerance, not a fixed count",
		about: "graph.PageRank, 20 iterations (pull, no atomics); serial: push PageRank; no baseline"},
	{name: "graph-triangles", order: 503, setupRun: setupGraphTriangles,
		note:  "no Go baseline: gonum has no triangle count",
		about: "graph.Triangles (degree-ranked, merge intersection); serial: merge intersection over id order; no baseline"},
}

func init() {
	for _, c := range graphCases {
		b := &Kernel{
			Name:  c.name,
			Suite: graphSuite,
			Order: c.order,
			About: c.about,
			Note:  c.note,
			Size: func(q Scale) string {
				return fmt.Sprintf("R-MAT scale %d, %d edges per vertex, symmetric", pick(q, graphScale, graphScaleQuick), graphDegree)
			},
			Variants: []string{Serial, Gofork},
			Setup: func(variant string, p int, quick Scale) (*Job, error) {
				g := graph.RMat(pick(quick, graphScale, graphScaleQuick), graphDegree, 1)
				return c.setupRun(g, variant, p)
			},
		}
		if c.gonum {
			b.Variants = append(b.Variants, Baseline)
			b.Baseline = "gonum"
			b.Cutoff = "gonum is serial; graph's own loops (par.ForRange chunks)"
		}
		add(b)
	}
}

// graphPool returns the gofork pool of a job and its close.
func graphPool(p int) (par.Option, func()) {
	pool := core.New(core.WithWorkers(p))
	return par.WithPool(pool), pool.Close
}

// toGonum builds g's edges as a gonum undirected graph (untimed).
func toGonum(g *graph.Graph) *simple.UndirectedGraph {
	ug := simple.NewUndirectedGraph()
	for v := 0; v < g.NumVertices(); v++ {
		ug.AddNode(simple.Node(v))
	}
	for u := int32(0); u < int32(g.NumVertices()); u++ {
		for _, v := range g.Neighbors(u) {
			if u < v {
				ug.SetEdge(simple.Edge{F: simple.Node(u), T: simple.Node(v)})
			}
		}
	}
	return ug
}

func setupGraphBFS(g *graph.Graph, variant string, p int) (*Job, error) {
	level := graphref.Levels(g, 0)
	reached := 0
	for _, l := range level {
		if l >= 0 {
			reached++
		}
	}
	var parent []int32
	checkParents := func() error {
		for v, u := range parent {
			if (u < 0) != (level[v] < 0) || (u >= 0 && v != 0 && level[u] != level[v]-1) {
				return fmt.Errorf("graph-bfs: vertex %d: parent %d, level %d", v, u, level[v])
			}
		}
		return nil
	}
	j := &Job{Verify: checkParents}
	switch variant {
	case Serial:
		j.Run = func() { parent = graphref.BFS(g, 0) }
	case Gofork:
		opt, closePool := graphPool(p)
		j.Run = func() { parent = graph.BFS(g, 0, opt) }
		j.Close = closePool
	case Baseline:
		ug := toGonum(g)
		visited := 0
		j.Run = func() {
			visited = 0
			var bf traverse.BreadthFirst
			bf.Walk(ug, simple.Node(0), func(gonumgraph.Node, int) bool { visited++; return false })
		}
		j.Verify = func() error {
			if visited != reached {
				return fmt.Errorf("graph-bfs: gonum visited %d vertices, want %d", visited, reached)
			}
			return nil
		}
	default:
		return nil, fmt.Errorf("graph-bfs: no variant %q", variant)
	}
	return j, nil
}

func setupGraphComponents(g *graph.Graph, variant string, p int) (*Job, error) {
	want := graphref.Components(g)
	components := 0
	for v, l := range want {
		if int(l) == v {
			components++
		}
	}
	var label []int32
	j := &Job{Verify: func() error {
		if !slices.Equal(label, want) {
			return fmt.Errorf("graph-components: labels differ from the serial program's")
		}
		return nil
	}}
	switch variant {
	case Serial:
		j.Run = func() { label = graphref.Components(g) }
	case Gofork:
		opt, closePool := graphPool(p)
		j.Run = func() { label = graph.ConnectedComponents(g, opt) }
		j.Close = closePool
	case Baseline:
		ug := toGonum(g)
		var cc [][]gonumgraph.Node
		j.Run = func() { cc = topo.ConnectedComponents(ug) }
		j.Verify = func() error {
			if len(cc) != components {
				return fmt.Errorf("graph-components: gonum found %d components, want %d", len(cc), components)
			}
			return nil
		}
	default:
		return nil, fmt.Errorf("graph-components: no variant %q", variant)
	}
	return j, nil
}

func setupGraphPageRank(g *graph.Graph, variant string, p int) (*Job, error) {
	const iters = 20
	want, _ := graphref.PageRank(g, 0.85, 0, iters)
	var rank []float64
	j := &Job{Verify: func() error {
		for v := range want {
			if math.Abs(rank[v]-want[v]) > 1e-9 {
				return fmt.Errorf("graph-pagerank: rank[%d] = %g, serial %g", v, rank[v], want[v])
			}
		}
		return nil
	}}
	switch variant {
	case Serial:
		j.Run = func() { rank, _ = graphref.PageRank(g, 0.85, 0, iters) }
	case Gofork:
		opt, closePool := graphPool(p)
		j.Run = func() { rank, _ = graph.PageRank(g, 0.85, 0, iters, opt) }
		j.Close = closePool
	default:
		return nil, fmt.Errorf("graph-pagerank: no variant %q", variant)
	}
	return j, nil
}

func setupGraphTriangles(g *graph.Graph, variant string, p int) (*Job, error) {
	want := graphref.Triangles(g)
	var got int64
	j := &Job{Verify: func() error {
		if got != want {
			return fmt.Errorf("graph-triangles: %d triangles, serial %d", got, want)
		}
		return nil
	}}
	switch variant {
	case Serial:
		j.Run = func() { got = graphref.Triangles(g) }
	case Gofork:
		opt, closePool := graphPool(p)
		j.Run = func() { got = graph.Triangles(g, opt) }
		j.Close = closePool
	default:
		return nil, fmt.Errorf("graph-triangles: no variant %q", variant)
	}
	return j, nil
}
