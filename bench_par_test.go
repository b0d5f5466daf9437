package gofork_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// parWorkerCounts are the pool sizes every par/reduce benchmark runs with.
var parWorkerCounts = []int{1, 2}

// parPartitioner is a named par partitioner for benchmark names.
type parPartitioner struct {
	name string
	opt  func() par.Option // fresh per benchmark (Affinity keeps state)
}

// parPartitioners are the partitioners BenchmarkFor compares; Simple at
// three grains brackets the best hand-tuned choice.
var parPartitioners = []parPartitioner{
	{"auto", par.Auto},
	{"static", par.Static},
	{"affinity", func() par.Option { return par.Affinity(new(par.AffinityState)) }},
	{"simple=1e3", func() par.Option { return par.Simple(1e3) }},
	{"simple=1e4", func() par.Option { return par.Simple(1e4) }},
	{"simple=1e5", func() par.Option { return par.Simple(1e5) }},
}

// parPools makes one pool per worker count; the caller closes them.
func parPools() map[int]*core.Pool {
	m := map[int]*core.Pool{}
	for _, p := range parWorkerCounts {
		m[p] = core.New(core.WithWorkers(p))
	}
	return m
}

func parClosePools(m map[int]*core.Pool) {
	for _, p := range m {
		p.Close()
	}
}

// parGoroutines runs body over [0, n) in one goroutine per chunk, p chunks:
// the hand-written baseline.
func parGoroutines(n, p int, body func(lo, hi int)) {
	var wg sync.WaitGroup
	for k := range p {
		lo, hi := k*n/p, (k+1)*n/p
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(lo, hi)
		}()
	}
	wg.Wait()
}

// parSize names a size like n=1e7.
func parSize(n int) string {
	return "n=" + strings.Replace(fmt.Sprintf("%.0e", float64(n)), "e+0", "e", 1)
}

// parDaxpy is y[lo:hi] += a*x[lo:hi].
func parDaxpy(a float64, x, y []float64, lo, hi int) {
	x, y = x[lo:hi], y[lo:hi]
	for i := range y {
		y[i] += a * x[i]
	}
}

// parEmpty is the empty loop body; called through a func value so it is not
// inlined away, as a user's body would not be.
var parEmpty = func(int) {}

// parReportLoop reports ns per iteration and, for bytes > 0 per iteration,
// memory bandwidth.
func parReportLoop(b *testing.B, n, bytes int) {
	perIter := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(n)
	b.ReportMetric(perIter, "ns/iter")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)/perIter, "GB/s")
	}
}

// BenchmarkFor measures y = a*x + y over 10M float64 (memory-bound; 24 bytes
// move per iteration) and an empty body over 10M iterations (pure loop
// overhead) for every partitioner, against a serial loop and one goroutine
// per worker.
func BenchmarkFor(b *testing.B) {
	n := 10_000_000
	if testing.Short() {
		n = 1_000_000
	}
	pools := parPools()
	defer parClosePools(pools)
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(i), 1
	}
	size := parSize(n)
	b.Run("daxpy/"+size+"/serial", func(b *testing.B) {
		for b.Loop() {
			parDaxpy(1.5, x, y, 0, n)
		}
		parReportLoop(b, n, 24)
	})
	daxpy := func(lo, hi int) { parDaxpy(1.5, x, y, lo, hi) }
	for _, p := range parWorkerCounts {
		b.Run(fmt.Sprintf("daxpy/%s/p=%d/goroutines", size, p), func(b *testing.B) {
			for b.Loop() {
				parGoroutines(n, p, daxpy)
			}
			parReportLoop(b, n, 24)
		})
		for _, pt := range parPartitioners {
			b.Run(fmt.Sprintf("daxpy/%s/p=%d/%s", size, p, pt.name), func(b *testing.B) {
				opts := []par.Option{pt.opt(), par.WithPool(pools[p])}
				for b.Loop() {
					par.ForRange(0, n, daxpy, opts...)
				}
				parReportLoop(b, n, 24)
			})
		}
	}
	body := parEmpty
	b.Run("empty/"+size+"/serial", func(b *testing.B) {
		for b.Loop() {
			for i := range n {
				body(i)
			}
		}
		parReportLoop(b, n, 0)
	})
	for _, p := range parWorkerCounts {
		b.Run(fmt.Sprintf("empty/%s/p=%d/goroutines", size, p), func(b *testing.B) {
			for b.Loop() {
				parGoroutines(n, p, func(lo, hi int) {
					for i := lo; i < hi; i++ {
						body(i)
					}
				})
			}
			parReportLoop(b, n, 0)
		})
		for _, pt := range parPartitioners {
			b.Run(fmt.Sprintf("empty/%s/p=%d/%s", size, p, pt.name), func(b *testing.B) {
				opts := []par.Option{pt.opt(), par.WithPool(pools[p])}
				for b.Loop() {
					par.For(0, n, body, opts...)
				}
				parReportLoop(b, n, 0)
			})
		}
	}
}

// parSumBody is the plain serial sum kernel, the same in every case of
// BenchmarkReduce so that only the scheduling differs.
func parSumBody(x []float64) func(lo, hi int, acc float64) float64 {
	return func(lo, hi int, acc float64) float64 {
		for _, v := range x[lo:hi] {
			acc += v
		}
		return acc
	}
}

func parAdd(a, b float64) float64 { return a + b }

// BenchmarkReduce sums 100M float64 (10M under -short): Reduce and
// Deterministic with a plain loop as the leaf against that loop run serially,
// and reduce.Sum (four-lane leaves) against its serial kernel.
func BenchmarkReduce(b *testing.B) {
	n := 100_000_000
	if testing.Short() {
		n = 10_000_000
	}
	pools := parPools()
	defer parClosePools(pools)
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i%1000) * 0.25
	}
	sum := parSumBody(x)
	size := parSize(n)
	var sink float64
	b.Run(size+"/serial", func(b *testing.B) {
		for b.Loop() {
			sink += sum(0, n, 0)
		}
		parReportLoop(b, n, 8)
	})
	b.Run(size+"/serial-4lane", func(b *testing.B) {
		one := core.New(core.WithWorkers(1))
		defer one.Close()
		for b.Loop() {
			sink += reduce.Sum(x, par.Simple(n), par.WithPool(one)) // one leaf: the serial kernel
		}
		parReportLoop(b, n, 8)
	})
	for _, p := range parWorkerCounts {
		opt := par.WithPool(pools[p])
		b.Run(fmt.Sprintf("%s/p=%d/reduce", size, p), func(b *testing.B) {
			for b.Loop() {
				sink += reduce.Reduce(0, n, 0.0, sum, parAdd, opt)
			}
			parReportLoop(b, n, 8)
		})
		b.Run(fmt.Sprintf("%s/p=%d/deterministic", size, p), func(b *testing.B) {
			for b.Loop() {
				sink += reduce.Deterministic(0, n, 0.0, sum, parAdd, opt)
			}
			parReportLoop(b, n, 8)
		})
		b.Run(fmt.Sprintf("%s/p=%d/sum-4lane", size, p), func(b *testing.B) {
			for b.Loop() {
				sink += reduce.Sum(x, opt)
			}
			parReportLoop(b, n, 8)
		})
	}
	runtime.KeepAlive(sink)
}

// BenchmarkAffinity runs 50 sweeps over a 6 MB float64 array (more than one
// core's 4 MiB L2, less than two) per op: Affinity replays the chunk-to-worker
// mapping so each worker's half can stay in its L2; Auto and Static are the
// comparison. For Affinity it reports the fraction of chunks that ran on the
// worker that ran them in the sweep before.
func BenchmarkAffinity(b *testing.B) {
	const sweeps = 50
	n := 6 << 20 / 8
	pools := parPools()
	defer parClosePools(pools)
	a := make([]float64, n)
	sweep := func(lo, hi int) {
		s := a[lo:hi]
		for i := range s {
			s[i] = s[i]*0.999 + 1
		}
	}
	b.Run("n=6MB/serial", func(b *testing.B) {
		for b.Loop() {
			for range sweeps {
				sweep(0, n)
			}
		}
		parReportLoop(b, n*sweeps, 16)
	})
	for _, p := range parWorkerCounts {
		for _, name := range []string{"affinity", "auto", "static"} {
			b.Run(fmt.Sprintf("n=6MB/p=%d/%s", p, name), func(b *testing.B) {
				var st par.AffinityState
				opt := map[string]par.Option{"affinity": par.Affinity(&st), "auto": par.Auto(), "static": par.Static()}[name]
				hits, chunks := 0, 0
				for b.Loop() {
					for range sweeps {
						par.ForRange(0, n, sweep, opt, par.WithPool(pools[p]))
						h, c := st.Hits()
						hits, chunks = hits+h, chunks+c
					}
				}
				parReportLoop(b, n*sweeps, 16)
				if name == "affinity" && chunks > 0 {
					b.ReportMetric(float64(hits)/float64(chunks), "hit-rate")
				}
			})
		}
	}
}

// parSkewedWork costs O(i): iteration i runs i/16 dependent steps.
func parSkewedWork(i int) uint64 {
	h := uint64(i)
	for k := 0; k < i/16; k++ {
		h = h*6364136223846793005 + 1442695040888963407
	}
	return h
}

// BenchmarkSkewed runs a loop whose iteration i costs O(i), so equal chunks
// carry unequal work: Auto should split where the idle worker steals, Static
// cannot.
func BenchmarkSkewed(b *testing.B) {
	n := 40_000
	if testing.Short() {
		n = 10_000
	}
	pools := parPools()
	defer parClosePools(pools)
	out := make([]uint64, n)
	body := func(i int) { out[i] = parSkewedWork(i) }
	size := parSize(n)
	b.Run(size+"/serial", func(b *testing.B) {
		for b.Loop() {
			for i := range n {
				body(i)
			}
		}
	})
	for _, p := range parWorkerCounts {
		for _, pt := range []parPartitioner{
			{"auto", par.Auto},
			{"static", par.Static},
			{"simple=1", func() par.Option { return par.Simple(1) }},
			{"simple=100", func() par.Option { return par.Simple(100) }},
		} {
			b.Run(fmt.Sprintf("%s/p=%d/%s", size, p, pt.name), func(b *testing.B) {
				opts := []par.Option{pt.opt(), par.WithPool(pools[p])}
				for b.Loop() {
					par.For(0, n, body, opts...)
				}
			})
		}
	}
}
