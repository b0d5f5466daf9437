package kernels

import (
	"fmt"
	"sync"

	"github.com/gofork/gofork/core"
)

// fib: the recursive Fibonacci of the libfork paper. Fib forks at every
// call with no cutoff, so it measures the cost of a fork; FibCutoff is fib
// as a user writes it, serial below n = FibCut. The paper uses n=42; n=30
// keeps the goroutine-per-fork baseline (~1 µs a fork) near 2 s.
const (
	FibN      = 30 // the size of the Full scale
	FibNQuick = 25 // of the Quick scale
	// FibNLarge is a second size the go test benchmarks run, where a
	// fork's cost is spread over a longer run.
	FibNLarge = 35
	// FibCut: calls below it run FibSerial. Its leaves, fib(19) and
	// fib(18), take some tens of µs: within the 10-100 µs that amortize
	// a fork or a goroutine.
	FibCut = 20
)

func init() {
	size := func(s Scale) string { return fmt.Sprintf("n=%d", pick(s, FibN, FibNQuick)) }
	add(&Kernel{
		Name:     "fib-cutoff",
		Suite:    SuiteMain,
		Order:    10,
		About:    "recursive Fibonacci, serial below the cutoff on both sides; baseline: goroutine+WaitGroup per fork above it",
		Size:     size,
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "goroutines+WaitGroup",
		Cutoff:   fmt.Sprintf("serial below n=%d", FibCut),
		Setup: func(variant string, p int, s Scale) (*Job, error) {
			return SetupFib(variant, p, s, FibCut)
		},
	})
	add(&Kernel{
		Name:     "fib",
		Suite:    SuiteMain,
		Order:    11,
		Kind:     ForkEverywhere,
		About:    "fork cost: Join at every call; baseline: goroutine+WaitGroup per call",
		Size:     size,
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "goroutines+WaitGroup",
		Cutoff:   "none: a fork at every call",
		Setup: func(variant string, p int, s Scale) (*Job, error) {
			return SetupFib(variant, p, s, 0)
		},
	})
}

// SetupFib prepares fib for variant; cutoff 0 forks at every call, else it
// is FibCut.
func SetupFib(variant string, p int, s Scale, cutoff int) (*Job, error) {
	n := pick(s, FibN, FibNQuick)
	want := FibIter(n)
	var got int
	j := &Job{Verify: func() error {
		if got != want {
			return fmt.Errorf("fib(%d) = %d, want %d", n, got, want)
		}
		return nil
	}}
	switch variant {
	case Serial:
		j.Run = func() { got = FibSerial(n) }
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		fib := Fib
		if cutoff > 0 {
			fib = FibCutoff
		}
		root := func(w *core.Worker) int { return fib(w, n) }
		j.Run = func() { got = core.RunValue(pool, root) }
		j.Close = pool.Close
		j.Pool = pool
	case Baseline:
		j.Run = func() { got = FibGoroutines(n, cutoff) }
	default:
		return nil, fmt.Errorf("fib: no variant %q", variant)
	}
	return j, nil
}

// FibSerial is the serial program.
func FibSerial(n int) int {
	if n < 2 {
		return n
	}
	return FibSerial(n-1) + FibSerial(n-2)
}

// Fib forks at every call: one Join per call.
func Fib(w *core.Worker, n int) int {
	if n < 2 {
		return n
	}
	x, y := core.Join(w, Fib, n-1, Fib, n-2)
	return x + y
}

// FibCutoff is Fib serial below FibCut.
func FibCutoff(w *core.Worker, n int) int {
	if n < FibCut {
		return FibSerial(n)
	}
	x, y := core.Join(w, FibCutoff, n-1, FibCutoff, n-2)
	return x + y
}

// FibGoroutines is what a Go user writes without a fork-join library: a
// goroutine and a WaitGroup per fork, serial below cutoff (0: none, a fork
// at every call).
func FibGoroutines(n, cutoff int) int {
	if n < 2 || n < cutoff {
		return FibSerial(n)
	}
	var x int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); x = FibGoroutines(n-1, cutoff) }()
	y := FibGoroutines(n-2, cutoff)
	wg.Wait()
	return x + y
}

// FibIter is the oracle.
func FibIter(n int) int {
	a, b := 0, 1
	for range n {
		a, b = b, a+b
	}
	return a
}
