package main

import (
	"fmt"
	"sync"

	"github.com/gofork/gofork/core"
)

// fib: the recursive Fibonacci of the libfork paper, in two rows. "fib"
// forks at every call with no cutoff, so it measures the cost of a fork;
// "fib-cutoff" is fib as a user writes it, serial below n = fibCutoff. The
// paper uses n=42; n=30 keeps the goroutine-per-fork baseline (~1 µs a
// fork) near 2 s.
const (
	fibN      = 30
	fibNQuick = 25
	// fibCutoff: calls below it run fibSerial. Its leaves, fib(19) and
	// fib(18), take ~35 and ~20 µs on the 2-core EPYC VM: within the
	// 10-100 µs that amortize a fork or a goroutine.
	fibCutoff = 20
)

func init() {
	size := func(q bool) string { return fmt.Sprintf("n=%d", pick(q, fibN, fibNQuick)) }
	register(&benchmark{
		name:     "fib-cutoff",
		suite:    suiteMain,
		order:    10,
		about:    "recursive Fibonacci, serial below the cutoff on both sides; baseline: goroutine+WaitGroup per fork above it",
		size:     size,
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "goroutines+WaitGroup",
		cutoff:   fmt.Sprintf("serial below n=%d", fibCutoff),
		setup: func(variant string, p int, quick bool) (*job, error) {
			return setupFib(variant, p, quick, fibCutoff)
		},
	})
	register(&benchmark{
		name:     "fib",
		suite:    suiteMain,
		order:    11,
		kind:     kindForkEverywhere,
		about:    "fork cost: Join at every call; baseline: goroutine+WaitGroup per call",
		size:     size,
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "goroutines+WaitGroup",
		cutoff:   "none: a fork at every call",
		setup: func(variant string, p int, quick bool) (*job, error) {
			return setupFib(variant, p, quick, 0)
		},
	})
}

// setupFib prepares fib(n) for variant; cutoff 0 forks at every call.
func setupFib(variant string, p int, quick bool, cutoff int) (*job, error) {
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
		fib := fibGofork
		if cutoff > 0 {
			fib = fibGoforkCutoff
		}
		j.run = func() { got = core.RunValue(pool, func(w *core.Worker) int { return fib(w, n) }) }
		j.close = pool.Close
		j.pool = pool
	case variantBaseline:
		j.run = func() { got = fibGoroutines(n, cutoff) }
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

// fibGoforkCutoff is fibGofork serial below fibCutoff.
func fibGoforkCutoff(w *core.Worker, n int) int {
	if n < fibCutoff {
		return fibSerial(n)
	}
	a, b := core.Join(w, fibGoforkCutoff, n-1, fibGoforkCutoff, n-2)
	return a + b
}

// fibGoroutines is what a Go user writes without a fork-join library: a
// goroutine per fork, serial below cutoff (0: none, a fork at every call).
func fibGoroutines(n, cutoff int) int {
	if n < 2 || n < cutoff {
		return fibSerial(n)
	}
	var wg sync.WaitGroup
	var a int
	wg.Add(1)
	go func() {
		defer wg.Done()
		a = fibGoroutines(n-1, cutoff)
	}()
	b := fibGoroutines(n-2, cutoff)
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
