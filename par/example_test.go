package par_test

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/gofork/gofork/par"
)

func ExampleFor() {
	x := []float64{1, 2, 3, 4}
	y := []float64{10, 20, 30, 40}
	par.For(0, len(y), func(i int) { y[i] += 2 * x[i] })
	fmt.Println(y)
	// Output: [12 24 36 48]
}

func ExampleForRange() {
	squares := make([]int, 10)
	par.ForRange(0, len(squares), func(lo, hi int) {
		for i := lo; i < hi; i++ { // a plain serial loop per chunk
			squares[i] = i * i
		}
	}, par.Simple(4))
	fmt.Println(squares)
	// Output: [0 1 4 9 16 25 36 49 64 81]
}

func ExampleForCtx() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := par.ForCtx(ctx, 0, 100, func(i int) {})
	fmt.Println(err)
	// Output: context canceled
}

func ExampleForEach() {
	words := []string{"fork", "join", "steal"}
	par.ForEach(words, func(i int, w *string) { *w = fmt.Sprintf("%d:%s", i, *w) })
	fmt.Println(words)
	// Output: [0:fork 1:join 2:steal]
}

func ExampleMap() {
	lengths := par.Map([]string{"a", "bb", "ccc"}, func(s string) int { return len(s) })
	fmt.Println(lengths)
	// Output: [1 2 3]
}

func ExampleInvoke() {
	var a, b int
	par.Invoke(func() { a = 6 * 7 }, func() { b = 1 << 10 })
	fmt.Println(a, b)
	// Output: 42 1024
}

func ExampleAffinity() {
	data := make([]float64, 1<<16)
	var state par.AffinityState // reused by every sweep
	var sweeps atomic.Int64
	for range 3 {
		par.ForRange(0, len(data), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				data[i]++
			}
		}, par.Affinity(&state))
		sweeps.Add(1)
	}
	fmt.Println(sweeps.Load(), data[0], data[len(data)-1])
	// Output: 3 3 3
}
