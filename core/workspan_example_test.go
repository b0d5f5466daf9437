package core_test

import (
	"fmt"

	"github.com/gofork/gofork/core"
)

func ExampleMeasureWorkSpan() {
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	// fib forks at every call: its parallelism is in the thousands, but a
	// steal costs far more than a call, so its burdened parallelism is low.
	n, ws := core.MeasureWorkSpan(p, func(w *core.Worker) int { return fib(w, 25) })
	fmt.Println("fib(25) =", n, "with", ws.Forks, "forks")
	// A real program prints the profile itself (its times vary from run
	// to run): ws.Work, ws.Span, ws.Parallelism(), ws.BurdenedParallelism().
	lo, hi := ws.Speedup(4)
	fmt.Println("lo <= hi <= 4:", lo <= hi && hi <= 4)
	fmt.Println("burdened span >= span:", ws.BurdenedSpan >= ws.Span)
	// Output:
	// fib(25) = 75025 with 121392 forks
	// lo <= hi <= 4: true
	// burdened span >= span: true
}
