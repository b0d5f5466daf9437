package main

import (
	"fmt"
	"sync"

	"github.com/gofork/gofork/core"
)

// fib: the recursive Fibonacci of the libfork paper, with a fork (Join) at
// every call and no cutoff, so it measures the cost of a fork. The paper uses
// n=42; n=30 keeps the goroutine-per-fork baseline (~1 µs a fork) near 2 s.
const (
	fibN      = 30
	fibNQuick = 25
)

func init() {
	register(&benchmark{
		name:     "fib",
		suite:    suiteMain,
		order:    10,
		about:    "fork cost: Join at every call, no cutoff; baseline: goroutine+WaitGroup per call",
		size:     func(q bool) string { return fmt.Sprintf("n=%d", pick(q, fibN, fibNQuick)) },
		variants: []string{variantSerial, variantGofork, variantBaseline},
		setup:    setupFib,
	})
}

func setupFib(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, fibN, fibNQuick)
	want := fibIter(n)
	var got int
	j := &job{verify: func() error {
		if got != want {
			return fmt.Errorf("fib(%d) = %d, want %d", n, got, want)
		}
		return nil
	}}
	switch variant {
	case variantSerial:
		j.run = func() { got = fibSerial(n) }
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() { got = core.Run(pool, func(w *core.Worker) int { return fibGofork(w, n) }) }
		j.close = pool.Close
	case variantBaseline:
		j.run = func() { got = fibGoroutines(n) }
	default:
		return nil, fmt.Errorf("fib: no variant %q", variant)
	}
	return j, nil
}

func fibSerial(n int) int {
	if n < 2 {
		return n
	}
	return fibSerial(n-1) + fibSerial(n-2)
}

func fibGofork(w *core.Worker, n int) int {
	if n < 2 {
		return n
	}
	a, b := core.Join(w, fibGofork, n-1, fibGofork, n-2)
	return a + b
}

// fibGoroutines is what a Go user writes without a fork-join library.
func fibGoroutines(n int) int {
	if n < 2 {
		return n
	}
	var wg sync.WaitGroup
	var a int
	wg.Add(1)
	go func() {
		defer wg.Done()
		a = fibGoroutines(n - 1)
	}()
	b := fibGoroutines(n - 2)
	wg.Wait()
	return a + b
}

// fibIter is the oracle.
func fibIter(n int) int {
	a, b := 0, 1
	for range n {
		a, b = b, a+b
	}
	return a
}

// pick returns full or, under -quick, quick.
func pick[T any](quick bool, full, q T) T {
	if quick {
		return q
	}
	return full
}
