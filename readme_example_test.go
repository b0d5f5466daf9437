package gofork_test

// The examples of README.md, each block word for word inside one of the
// functions below (TestREADMEFragmentsAreExamples checks it), so that the
// README's code compiles and prints what it says.

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/graph"
	"github.com/gofork/gofork/linalg"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

func Example_readmeLoop() {
	a := 2.0
	xs := []float64{1, 2, 3, 4}
	ys := []float64{10, 20, 30, 40}
	// serial: for i := range ys { ys[i] += a * xs[i] }
	par.ForRange(0, len(ys), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ys[i] += a * xs[i]
		}
	})
	fmt.Println(ys)
	// Output: [12 24 36 48]
}

type Person struct {
	Name string
	Age  int
}

func Example_readmeSort() {
	keys := []int64{5, 2, 8, 1}
	people := []Person{{"Ann", 41}, {"Bo", 29}, {"Cy", 35}}
	sortpar.Sort(keys) // slices.Sort(keys)
	sortpar.SortFunc(people, func(a, b Person) int { return cmp.Compare(a.Age, b.Age) })
	fmt.Println(keys, people)
	// Output: [1 2 5 8] [{Bo 29} {Cy 35} {Ann 41}]
}

func Example_readmeReduce() {
	xs := []float64{1.5, 2.5, 3}
	words := strings.Fields("fork join steal parallelism scheduler")
	total := reduce.Sum(xs)
	long := reduce.CountFunc(words, func(w string) bool { return len(w) > 8 })
	fmt.Println(total, long)
	// Output: 7 2
}

// fetch stands for a call that does I/O.
func fetch(ctx context.Context, url string) error {
	if !strings.HasPrefix(url, "https://") {
		return fmt.Errorf("fetch %s: not https", url)
	}
	return ctx.Err()
}

func Example_readmeGroup() {
	ctx := context.Background()
	urls := []string{"https://go.dev", "http://example.com"}
	g, ctx := par.WithContext(ctx) // errgroup.WithContext(ctx)
	for _, url := range urls {
		g.Go(func() error { return fetch(ctx, url) })
	}
	err := g.Wait()
	fmt.Println(err)
	// Output: fetch http://example.com: not https
}

func Example_readmeMapSeq() {
	lines := slices.Values([]string{"a=1", "b=22", "c=333"})
	parse := func(line string) int { _, v, _ := strings.Cut(line, "="); return len(v) }
	for n := range par.MapSeq(lines, parse) { // parse runs in parallel; results come in order
		fmt.Print(n, " ")
	}
	fmt.Println()
	// Output: 1 2 3
}

func Example_readmeMul() {
	a := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	b := mat.NewDense(2, 2, []float64{5, 6, 7, 8})
	var c mat.Dense
	linalg.Mul(&c, a, b) // c.Mul(a, b), in parallel
	fmt.Println(mat.Formatted(&c, mat.Squeeze()))
	// Output:
	// ⎡19  22⎤
	// ⎣43  50⎦
}

func Example_readmeGraph() {
	g, _ := graph.FromEdges(5, [][2]int32{{0, 1}, {1, 2}, {2, 0}, {3, 4}}, true)
	fmt.Println(graph.BFS(g, 0))              // parents: [0 0 0 -1 -1]
	fmt.Println(graph.ConnectedComponents(g)) // smallest id per component: [0 0 0 3 3]
	fmt.Println(graph.Triangles(g))           // 1
	ranks, _ := graph.PageRank(g, 0.85, 1e-9, 100)
	fmt.Printf("%.3f\n", ranks[0]+ranks[1]+ranks[2]) // 0.600
	// Output:
	// [0 0 0 -1 -1]
	// [0 0 0 3 3]
	// 1
	// 0.600
}

func Example_readmePool() {
	xs := []int{3, 1, 2}
	ys := make([]int, 1000)
	p := core.New(core.WithWorkers(4))
	defer p.Close()
	sortpar.Sort(xs, par.WithPool(p))
	par.For(0, len(ys), func(i int) { ys[i] = i * i }, par.WithPool(p), par.Grain(64))
	fmt.Println(xs, ys[999])
	// Output: [1 2 3] 998001
}

func Example_readmeBlocking() {
	pages := make([]string, 8)
	par.For(0, len(pages), func(i int) {
		core.Blocking(func() { pages[i] = download(i) }) // a spare worker runs the loop meanwhile
	})
	fmt.Println(pages[7])
	// Output: page 7
}

// download stands for a call that blocks.
func download(i int) string { return fmt.Sprint("page ", i) }

// Example_readmeWorkSpan is compiled, not run: its figures vary from run
// to run.
func Example_readmeWorkSpan() {
	keys := make([]int64, 1<<20)
	for i := range keys {
		keys[i] = int64(i*7919) % 1_000_003
	}
	_, ws := core.MeasureWorkSpan(core.Default(), func(w *core.Worker) struct{} {
		sortpar.Sort(keys)
		return struct{}{}
	})
	lo, hi := ws.Speedup(64)
	fmt.Printf("work %v, span %v, parallelism %.0f: %.0f-%.0fx on 64 cores\n",
		ws.Work, ws.Span, ws.Parallelism(), lo, hi)
}
