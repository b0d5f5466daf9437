package gofork_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/kernels"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// BenchmarkMorePsThanCPUs runs the headline calls on the Default pool, as
// library code does, and is meant for -cpu with GOMAXPROCS above the
// machine's CPUs (a container whose CPU quota is below GOMAXPROCS; core's
// DESIGN.md, "More Ps than CPUs"):
//
//	go test -run '^$' -bench MorePsThanCPUs -cpu 2,8,16 .
//
// on 2 CPUs. for is a par.For over 2^20 indices of ~30 ns each; sort a
// sortpar.Sort of 2^20 int64 (a fresh copy each op); sum a reduce.Sum of
// 2^23 int64; group a par.Group of 10^5 tasks of ~1 µs each forked from
// outside the pool. The target is each call's time at GOMAXPROCS 4 and 8
// times the CPUs within 1.35 x its time at GOMAXPROCS = CPUs. It reports
// the workers Default ran and the CPUs it counted.
func BenchmarkMorePsThanCPUs(b *testing.B) {
	var workers int // Default's workers, read after each call (it follows GOMAXPROCS from the call on)
	report := func(b *testing.B) {
		b.ReportMetric(float64(workers), "workers")
		b.ReportMetric(float64(runtime.NumCPU()), "cpus")
	}
	b.Run("for", func(b *testing.B) {
		out := make([]uint64, 1<<20)
		for b.Loop() {
			par.For(0, len(out), func(i int) { out[i] = kernels.Spin(20, uint64(i)) })
			workers = core.Default().Workers()
		}
		report(b)
	})
	b.Run("sort", func(b *testing.B) {
		in := make([]int64, 1<<20)
		rng := rand.New(rand.NewPCG(5, 8))
		for i := range in {
			in[i] = rng.Int64()
		}
		xs := make([]int64, len(in))
		for b.Loop() {
			b.StopTimer()
			copy(xs, in)
			b.StartTimer()
			sortpar.Sort(xs)
			workers = core.Default().Workers()
		}
		report(b)
	})
	b.Run("sum", func(b *testing.B) {
		xs := make([]int64, 1<<23)
		for i := range xs {
			xs[i] = int64(i)
		}
		for b.Loop() {
			if s := reduce.Sum(xs); s != int64(len(xs))*int64(len(xs)-1)/2 {
				b.Fatalf("reduce.Sum = %d", s)
			}
			workers = core.Default().Workers()
		}
		report(b)
	})
	b.Run("group", func(b *testing.B) {
		const n = 100_000
		out := make([]uint64, n)
		for b.Loop() {
			g := par.NewGroup()
			for i := range n {
				g.Go(func() error { out[i] = kernels.Spin(700, uint64(i)); return nil })
			}
			if err := g.Wait(); err != nil {
				b.Fatal(err)
			}
			workers = core.Default().Workers()
		}
		report(b)
	})
}
