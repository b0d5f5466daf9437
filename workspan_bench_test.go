package gofork_test

import (
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/kernels"
)

// BenchmarkWorkSpan compares a measured run (core.MeasureWorkSpan) with a
// plain one on the same pool: the meter's cost, on fib forking at every
// call (strands of nanoseconds, timed in groups) and on fib as written.
// The bound is a measured run at most 3x a plain one.
func BenchmarkWorkSpan(b *testing.B) {
	for _, bc := range []struct {
		name string
		n    int
		fib  func(*core.Worker, int) int
	}{{"fib/n=25", kernels.FibNQuick, kernels.Fib}, {"fib-cutoff/n=30", kernels.FibN, kernels.FibCutoff}} {
		want := kernels.FibIter(bc.n)
		benchPools(b, bc.name+"/plain/", []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
			root := func(w *core.Worker) int { return bc.fib(w, bc.n) }
			for b.Loop() {
				if core.RunValue(p, root) != want {
					b.Fatal("wrong fib")
				}
			}
		})
		benchPools(b, bc.name+"/measured/", []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
			root := func(w *core.Worker) int { return bc.fib(w, bc.n) }
			var par float64
			for b.Loop() {
				r, ws := core.MeasureWorkSpan(p, root)
				if r != want {
					b.Fatal("wrong fib")
				}
				par = ws.Parallelism()
			}
			b.ReportMetric(par, "parallelism")
		})
	}
}
