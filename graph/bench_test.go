package graph_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
	"gonum.org/v1/gonum/graph/traverse"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/graph"
	"github.com/gofork/gofork/harness/graphref"
	"github.com/gofork/gofork/par"
)

// The benchmarks run on an R-MAT graph of scale 16 (2^16 vertices, about a
// million directed edges) unless GOFORK_GRAPH names another input: an R-MAT
// scale (GOFORK_GRAPH=21 is about Ligra's rMatGraph -s -m 16000000 2000000),
// or an AdjacencyGraph file, such as the ones Ligra's rMatGraph writes:
//
//	GOFORK_GRAPH=/tmp/rmat-big.adj go test -run '^$' -bench . ./graph
//
// gonum runs only on graphs of at most 2^18 vertices: it needs minutes and
// gigabytes beyond.
const benchGraphEnv = "GOFORK_GRAPH"

// gonumMaxVertices is the largest graph gonum is benchmarked on.
const gonumMaxVertices = 1 << 18

var benchInput struct {
	once sync.Once
	g    *graph.Graph
	file string // the adjacency file read, or ""
	err  error
	// gonum is g as a gonum graph, built on first use.
	gonumOnce sync.Once
	gonum     *simple.UndirectedGraph
}

func benchGraph(b *testing.B) *graph.Graph {
	benchInput.once.Do(func() {
		spec := os.Getenv(benchGraphEnv)
		if spec == "" {
			spec = "16"
		}
		if scale, err := strconv.Atoi(spec); err == nil {
			benchInput.g = graph.RMat(scale, 8, 1)
			return
		}
		f, err := os.Open(spec)
		if err != nil {
			benchInput.err = err
			return
		}
		defer f.Close()
		benchInput.file = spec
		benchInput.g, benchInput.err = graph.ReadAdjacency(f)
	})
	if benchInput.err != nil {
		b.Fatal(benchInput.err)
	}
	return benchInput.g
}

func gonumGraph(b *testing.B) *simple.UndirectedGraph {
	g := benchGraph(b)
	if g.NumVertices() > gonumMaxVertices {
		b.Skipf("gonum skipped: %d vertices, over %d", g.NumVertices(), gonumMaxVertices)
	}
	benchInput.gonumOnce.Do(func() {
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
		benchInput.gonum = ug
	})
	return benchInput.gonum
}

// cpuMetrics starts counting the process's CPU time; the returned func,
// called after the benchmark loop, reports per operation the time its
// threads ran on a CPU (cpu-s/op) and the time they were runnable but
// waited for one (runq-s/op). On a machine shared with other work, a
// runq-s/op near the wall time says that the run did not get the CPUs its
// workers asked for, and its ns/op measures the machine's load. Where the
// counters are not available (outside Linux) nothing is reported.
func cpuMetrics(b *testing.B) func() {
	cpu0, wait0, ok := threadTimes()
	return func() {
		cpu1, wait1, ok1 := threadTimes()
		if !ok || !ok1 || b.N == 0 {
			return
		}
		n := float64(b.N)
		b.ReportMetric((cpu1-cpu0).Seconds()/n, "cpu-s/op")
		b.ReportMetric((wait1-wait0).Seconds()/n, "runq-s/op")
	}
}

// forWorkers runs body as sub-benchmarks p=1 and p=2 on pools of that size.
func forWorkers(b *testing.B, body func(b *testing.B, opt par.Option)) {
	for _, p := range []int{1, 2} {
		b.Run(fmt.Sprintf("p=%d", p), func(b *testing.B) {
			pool := core.New(core.WithWorkers(p))
			defer pool.Close()
			body(b, par.WithPool(pool))
		})
	}
}

func BenchmarkBFS(b *testing.B) {
	g := benchGraph(b)
	b.Run("serial", func(b *testing.B) {
		defer cpuMetrics(b)()
		for b.Loop() {
			graphref.BFS(g, 0)
		}
	})
	forWorkers(b, func(b *testing.B, opt par.Option) {
		defer cpuMetrics(b)()
		for b.Loop() {
			graph.BFS(g, 0, opt)
		}
	})
	b.Run("gonum", func(b *testing.B) {
		ug := gonumGraph(b)
		b.ResetTimer()
		defer cpuMetrics(b)()
		for b.Loop() {
			var bf traverse.BreadthFirst
			bf.Walk(ug, simple.Node(0), nil)
		}
	})
}

func BenchmarkConnectedComponents(b *testing.B) {
	g := benchGraph(b)
	b.Run("serial", func(b *testing.B) {
		defer cpuMetrics(b)()
		for b.Loop() {
			graphref.Components(g)
		}
	})
	forWorkers(b, func(b *testing.B, opt par.Option) {
		defer cpuMetrics(b)()
		for b.Loop() {
			graph.ConnectedComponents(g, opt)
		}
	})
	b.Run("gonum", func(b *testing.B) {
		ug := gonumGraph(b)
		b.ResetTimer()
		defer cpuMetrics(b)()
		for b.Loop() {
			topo.ConnectedComponents(ug)
		}
	})
}

// BenchmarkPageRank20 runs 20 iterations (tol 0), as Ligra's -maxiters 20.
func BenchmarkPageRank20(b *testing.B) {
	g := benchGraph(b)
	b.Run("serial", func(b *testing.B) {
		defer cpuMetrics(b)()
		for b.Loop() {
			graphref.PageRank(g, 0.85, 0, 20)
		}
	})
	forWorkers(b, func(b *testing.B, opt par.Option) {
		defer cpuMetrics(b)()
		for b.Loop() {
			graph.PageRank(g, 0.85, 0, 20, opt)
		}
	})
}

func BenchmarkTriangles(b *testing.B) {
	g := benchGraph(b)
	b.Run("serial", func(b *testing.B) {
		defer cpuMetrics(b)()
		for b.Loop() {
			graphref.Triangles(g)
		}
	})
	forWorkers(b, func(b *testing.B, opt par.Option) {
		defer cpuMetrics(b)()
		for b.Loop() {
			graph.Triangles(g, opt)
		}
	})
}

// BenchmarkReadAdjacency reads the GOFORK_GRAPH file, or the benchmark
// graph written to a temporary file, with ReadAdjacency (on the default
// pool) and with a serial bufio.Scanner + strconv.Atoi loop.
func BenchmarkReadAdjacency(b *testing.B) {
	g := benchGraph(b)
	path := benchInput.file
	if path == "" {
		path = filepath.Join(b.TempDir(), "graph.adj")
		if err := os.WriteFile(path, writeAdjacency(g), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("serial-scanner", func(b *testing.B) {
		b.SetBytes(st.Size())
		defer cpuMetrics(b)()
		for b.Loop() {
			if _, err := readAdjacencyScanner(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ReadAdjacency", func(b *testing.B) {
		b.SetBytes(st.Size())
		defer cpuMetrics(b)()
		for b.Loop() {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			_, err = graph.ReadAdjacency(f)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// readAdjacencyScanner is the serial parse a Go programmer writes: a
// bufio.Scanner over words and strconv.Atoi, into offsets and targets.
func readAdjacencyScanner(path string) (*scannedGraph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(bufio.NewReaderSize(f, 1<<20))
	sc.Split(bufio.ScanWords)
	next := func() (int, error) {
		if !sc.Scan() {
			return 0, fmt.Errorf("short file")
		}
		return strconv.Atoi(sc.Text())
	}
	if !sc.Scan() || sc.Text() != "AdjacencyGraph" {
		return nil, fmt.Errorf("not an adjacency graph")
	}
	n, err := next()
	if err != nil {
		return nil, err
	}
	m, err := next()
	if err != nil {
		return nil, err
	}
	offsets := make([]int64, n+1)
	edges := make([]int32, m)
	for i := 0; i < n; i++ {
		x, err := next()
		if err != nil {
			return nil, err
		}
		offsets[i] = int64(x)
	}
	offsets[n] = int64(m)
	for i := 0; i < m; i++ {
		x, err := next()
		if err != nil {
			return nil, err
		}
		edges[i] = int32(x)
	}
	return &scannedGraph{offsets, edges}, nil
}

// scannedGraph is what the serial parse yields: the file's arrays as they
// are, with no cleaning and no symmetry check.
type scannedGraph struct {
	offsets []int64
	edges   []int32
}
