package gofork_test

// The benchmark suite. Each benchmark runs the serial program, gofork with 1
// and 2 workers (both fork policies where the issue asks for it), and the Go
// baseline a user would write instead, in the same run, so ratios can be read
// off one invocation:
//
//	go test -run '^$' -bench . -count 5 . | tee new.txt
//	benchstat new.txt
//
// Sub-benchmark names read as parameters: n=30/workfirst/p=2.

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/linalg"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
	"github.com/gofork/gofork/uts"
	"github.com/jfcg/sorty/v2"
	"go.uber.org/goleak"

	"github.com/gofork/gofork/harness/kernels"
	"github.com/gofork/gofork/harness/pooltest"
	"gonum.org/v1/gonum/mat"
)

// TestMain checks that the benchmarks leave no goroutine behind but the
// Default pool's workers, which live for the whole process by design.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, append(pooltest.IgnoreDefault(),
		goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*Worker).search"))...)
}

// benchPools runs fn once per worker count and policy, on a pool made for it.
func benchPools(b *testing.B, prefix string, policies []core.Policy, fn func(b *testing.B, p *core.Pool)) {
	for _, pol := range policies {
		for _, p := range []int{1, 2} {
			name := fmt.Sprintf("%s%s/p=%d", prefix, policyName(pol), p)
			b.Run(name, func(b *testing.B) {
				pool := core.New(core.WithWorkers(p), core.WithPolicy(pol))
				defer pool.Close()
				// Warm up: the first fork at each depth allocates that
				// depth's frame once; b.Loop then measures the steady state.
				core.RunValue(pool, func(w *core.Worker) int { return warmChain(w, 64) })
				b.ReportAllocs()
				fn(b, pool)
			})
		}
	}
}

// warmChain forks a chain n deep with the frame type fib uses, so that every
// depth up to n has its frame before timing starts.
func warmChain(w *core.Worker, n int) int {
	if n == 0 {
		return 0
	}
	x, y := core.Join(w, warmChain, n-1, kernels.Fib, 1)
	return x + y
}

func policyName(p core.Policy) string {
	if p == core.HelpFirst {
		return "helpfirst"
	}
	return "workfirst"
}

var bothPolicies = []core.Policy{core.WorkFirst, core.HelpFirst}

// --- fib: one Join per call, no cutoff (the fork-cost benchmark) ---

var sink int

func BenchmarkFib(b *testing.B) {
	for _, n := range []int{kernels.FibN, kernels.FibNLarge} {
		want := kernels.FibIter(n)
		b.Run(fmt.Sprintf("n=%d/serial", n), func(b *testing.B) {
			for b.Loop() {
				sink = kernels.FibSerial(n)
			}
		})
		benchPools(b, fmt.Sprintf("n=%d/", n), bothPolicies, func(b *testing.B, p *core.Pool) {
			root := func(w *core.Worker) int { return kernels.Fib(w, n) } // made once: Run itself allocates nothing
			for b.Loop() {
				if core.RunValue(p, root) != want {
					b.Fatal("wrong fib")
				}
			}
		})
	}
	// The goroutine-per-fork baseline is about 300x slower than serial: run
	// it on fib(25) and compare it with the serial and gofork fib(25).
	const small = kernels.FibNQuick
	b.Run(fmt.Sprintf("n=%d/serial", small), func(b *testing.B) {
		for b.Loop() {
			sink = kernels.FibSerial(small)
		}
	})
	benchPools(b, fmt.Sprintf("n=%d/", small), []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) int { return kernels.Fib(w, small) }
		for b.Loop() {
			sink = core.RunValue(p, root)
		}
	})
	b.Run(fmt.Sprintf("n=%d/goroutines", small), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = kernels.FibGoroutines(small, 0)
		}
	})
}

// --- nqueens: libfork's version, n = 12: 14200 solutions ---

func BenchmarkNQueens(b *testing.B) {
	const want, nqN, nqGrain = kernels.NQWant, kernels.NQN, kernels.NQGrain
	b.Run(fmt.Sprintf("n=%d/serial", nqN), func(b *testing.B) {
		for b.Loop() {
			if kernels.NQueensSerial(kernels.NQBoard{}, 0) != want {
				b.Fatal("wrong nqueens")
			}
		}
	})
	benchPools(b, fmt.Sprintf("n=%d/", nqN), bothPolicies, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) int { return kernels.NQueens(w, kernels.NQArg{}) }
		for b.Loop() {
			if core.RunValue(p, root) != want {
				b.Fatal("wrong nqueens")
			}
		}
	})
	// The last nqGrain rows searched serially: the speedup a user gets.
	benchPools(b, fmt.Sprintf("n=%d/grain=%d/", nqN, nqGrain), []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) int { return kernels.NQueensGrain(w, kernels.NQArg{}) }
		for b.Loop() {
			if core.RunValue(p, root) != want {
				b.Fatal("wrong nqueens")
			}
		}
	})
}

// --- integrate: libfork's recursive adaptive quadrature of (x²+1)x over
// [0, n], eps = 1e-9 ---

func intCheck(b *testing.B, got float64) {
	if err := kernels.IntegrateCheck(kernels.IntN, got); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkIntegrate(b *testing.B) {
	const intN = kernels.IntN
	whole, grain := kernels.IntegrateRoot(intN), kernels.IntegrateGrainRoot(intN)
	b.Run(fmt.Sprintf("n=%d/serial", intN), func(b *testing.B) {
		for b.Loop() {
			intCheck(b, kernels.IntegrateSerial(whole))
		}
	})
	// A fork at every node: the runtime's overhead on tiny tasks.
	benchPools(b, fmt.Sprintf("n=%d/", intN), []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) float64 { return kernels.Integrate(w, whole) }
		for b.Loop() {
			intCheck(b, core.RunValue(p, root))
		}
	})
	// Forks above depth 12 only: the speedup a user gets.
	benchPools(b, fmt.Sprintf("n=%d/grain=%d/", intN, kernels.IntLeaves), []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) float64 { return kernels.IntegrateGrain(w, grain) }
		for b.Loop() {
			intCheck(b, core.RunValue(p, root))
		}
	})
}

// --- schedulers: Lazy (sleep when idle) vs Busy (never sleep) ---

// awake returns the pool's summed worker time not spent asleep: the CPU time
// the workers held, spinning included.
func awake(p *core.Pool) time.Duration { return p.Stats().Total().Busy }

// BenchmarkScheduler compares the Lazy and Busy schedulers at p=2 on fib(30),
// nqueens(12) and UTS T1 (all workers busy: Lazy must cost nothing) and on a
// trickle of small roots,
// one every 100 µs (mostly idle: Lazy must not burn the CPU). It reports the
// workers' awake time per op (cpu-s/op) and, for the trickle, the latency
// from submitting a root to its start.
func BenchmarkScheduler(b *testing.B) {
	for _, sched := range []core.Scheduler{core.Lazy, core.Busy} {
		name := strings.ToLower(sched.String())
		for _, bench := range []struct {
			name string
			run  func(p *core.Pool)
		}{
			{"fib30", func(p *core.Pool) {
				sink = core.RunValue(p, func(w *core.Worker) int { return kernels.Fib(w, kernels.FibN) })
			}},
			{"nqueens12", func(p *core.Pool) {
				sink = core.RunValue(p, func(w *core.Worker) int { return kernels.NQueens(w, kernels.NQArg{}) })
			}},
			{"utsT1", func(p *core.Pool) { sink = int(uts.Search(uts.T1, par.WithPool(p)).Nodes) }},
		} {
			b.Run(bench.name+"/"+name+"/p=2", func(b *testing.B) {
				p := core.New(core.WithWorkers(2), core.WithScheduler(sched))
				defer p.Close()
				before := awake(p)
				for b.Loop() {
					bench.run(p)
				}
				b.ReportMetric((awake(p)-before).Seconds()/float64(b.N), "cpu-s/op")
			})
		}
		b.Run("trickle/"+name+"/p=2", func(b *testing.B) {
			const tasks = 200
			p := core.New(core.WithWorkers(2), core.WithScheduler(sched))
			defer p.Close()
			lat := make([]time.Duration, 0, tasks*b.N)
			before := awake(p)
			for b.Loop() {
				next := time.Now()
				for range tasks {
					next = next.Add(100 * time.Microsecond)
					time.Sleep(time.Until(next))
					submit := time.Now()
					lat = append(lat, core.RunValue(p, func(w *core.Worker) time.Duration {
						d := time.Since(submit)
						sink = kernels.Fib(w, 12)
						return d
					}))
				}
			}
			b.ReportMetric((awake(p)-before).Seconds()/float64(b.N), "cpu-s/op")
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-start-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "p99-start-µs")
		})
	}
}

// ===== par =====

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
	kernels.GoChunks(n, p, func(_, lo, hi int) { body(lo, hi) })
}

// parSize names a size like n=1e7.
func parSize(n int) string {
	return "n=" + strings.Replace(fmt.Sprintf("%.0e", float64(n)), "e+0", "e", 1)
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
	n := kernels.ForN
	if testing.Short() {
		n = kernels.ForNQuick
	}
	pools := parPools()
	defer parClosePools(pools)
	x, y := kernels.ForInput(n)
	size := parSize(n)
	b.Run("daxpy/"+size+"/serial", func(b *testing.B) {
		for b.Loop() {
			kernels.Daxpy(kernels.ForA, x, y, 0, n)
		}
		parReportLoop(b, n, 24)
	})
	daxpy := func(lo, hi int) { kernels.Daxpy(kernels.ForA, x, y, lo, hi) }
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
	n := kernels.ReduceN
	if testing.Short() {
		n = kernels.ReduceNQuick
	}
	pools := parPools()
	defer parClosePools(pools)
	x, _ := kernels.ReduceInput(n)
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

// ===== linalg =====

// linalgBenchShapes are the shapes of issue 5: squares, a tall-skinny outer
// product and a short-wide inner product.
var linalgBenchShapes = []struct {
	name    string
	m, k, n int
}{
	{"n=256", 256, 256, 256},
	{"n=512", 512, 512, 512},
	{"n=1024", 1024, 1024, 1024},
	{"n=2048", 2048, 2048, 2048},
	{"4096x64x4096", 4096, 64, 4096},
	{"64x4096x64", 64, 4096, 64},
}

func linalgReportGFLOPS(b *testing.B, m, k, n int) {
	b.ReportMetric(2*float64(m)*float64(k)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkLinalgMul compares linalg.Mul on pools of 1 and 2 workers with
// gonum's (*mat.Dense).Mul, which is itself parallel (gonum), and with gonum
// held to one core by GOMAXPROCS=1 (serial). Figures are GFLOP/s; OpenBLAS
// reaches about 66 on one core and 131 on two of this machine kind.
//
// Medians of 5 on the 2-core Zen 4 (-benchtime 1s -count 5), from the
// quietest run on a machine shared with other benchmarks (the last row is
// from a later run, after 64x4096x64 learned to spread):
//
//	shape          serial  gonum   p=1   p=2   p=2/gonum  p=2/p=1
//	n=256             7.8   10.9  48.4  73.4      6.7x     1.52
//	n=512             7.8   11.9  49.7  85.7      7.2x     1.72
//	n=1024            7.6   13.5  47.5  92.1      6.8x     1.94
//	n=2048            6.9   14.2  48.8  96.2      6.8x     1.97
//	4096x64x4096      7.1   11.4  48.3  92.4      8.1x     1.91
//	64x4096x64        8.2    8.6  34.6  51.5      6.0x     1.49
func BenchmarkLinalgMul(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range linalgBenchShapes {
		x, y := kernels.RandomDense(rng, s.m, s.k), kernels.RandomDense(rng, s.k, s.n)
		dst := mat.NewDense(s.m, s.n, nil)
		b.Run(s.name+"/serial", func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			for b.Loop() {
				dst.Mul(x, y)
			}
			linalgReportGFLOPS(b, s.m, s.k, s.n)
		})
		b.Run(s.name+"/gonum", func(b *testing.B) {
			for b.Loop() {
				dst.Mul(x, y)
			}
			linalgReportGFLOPS(b, s.m, s.k, s.n)
		})
		for _, p := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/p=%d", s.name, p), func(b *testing.B) {
				pool := core.New(core.WithWorkers(p))
				defer pool.Close()
				for b.Loop() {
					linalg.Mul(dst, x, y, par.WithPool(pool))
				}
				linalgReportGFLOPS(b, s.m, s.k, s.n)
			})
		}
	}
}

// ===== uts =====

// utsBenchTrees are the UTS trees of BenchmarkUTS; the large ones only
// without -short.
var utsBenchTrees = []struct {
	name  string
	tree  uts.Tree
	large bool
}{
	{"T1", uts.T1, false},
	{"T3", uts.T3, false},
	{"T1L", uts.T1L, true},
	{"T3L", uts.T3L, true},
}

// BenchmarkUTS searches the libfork UTS trees serially and on pools of 1
// and 2 workers, reporting nodes/s. The reference C program (uts-seq) does
// about 5-9 M nodes/s on T1 and 10 M on T3 on one core of this machine kind.
func BenchmarkUTS(b *testing.B) {
	for _, c := range utsBenchTrees {
		if c.large && testing.Short() {
			continue
		}
		b.Run(c.name+"/serial", func(b *testing.B) {
			utsBenchRun(b, func() uts.Result { return uts.SearchSerial(c.tree) })
		})
		for _, p := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/p=%d", c.name, p), func(b *testing.B) {
				pool := core.New(core.WithWorkers(p))
				defer pool.Close()
				utsBenchRun(b, func() uts.Result { return uts.Search(c.tree, par.WithPool(pool)) })
			})
		}
	}
}

// utsBenchRun times search. One untimed search first lets the pool's workers
// allocate the frames of the fork depths they will reach (a frame per depth
// per worker, kept for later forks, allocated 32 at a time): on T3L at P=2 a
// worker may hold 9,000 spawns pending the first time, and a later search
// still reaches a few new depths now and then.
func utsBenchRun(b *testing.B, search func() uts.Result) {
	search()
	b.ReportAllocs()
	var nodes int64
	for b.Loop() {
		nodes += search().Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// ===== sortpar =====

// Sorting benchmarks. Each benchmark sorts one element type for every input
// pattern and size, with the serial baseline from package slices
// ("serial"), sortpar on pools of 1 and 2 workers, and the in-place Go peer
// github.com/jfcg/sorty/v2 ("sorty", its default of up to 3 goroutines,
// GOMAXPROCS as set), in the same run. A fresh copy of the input is made
// before every iteration with the timer stopped. Sizes: 10^6 and 10^7
// numbers, 10^7 32-byte structs, 10^6 and 5·10^6 strings; -short divides
// by 100. B/op is what a sort allocates, alloc-% the same as a share of
// the input's bytes.
//
//	GOMAXPROCS=2 flock /tmp/gofork-bench.lock go test -run '^$' -bench 'Sortpar' -benchtime 3x -count 5 .

// sortparN returns the benchmark length: n, or the Quick scale's under
// -short.
func sortparN(n int) int { return kernels.SortSize(kernels.ScaleOf(testing.Short()), n) }

// sortparSizeName writes n as 1e7, 5e6 and the like.
func sortparSizeName(n int) string {
	e, m := 0, n
	for m >= 10 && m%10 == 0 {
		m /= 10
		e++
	}
	if m < 10 {
		return fmt.Sprintf("n=%de%d", m, e)
	}
	return fmt.Sprintf("n=%d", n)
}

// sortparRun benchmarks sort on fresh copies of in, timing only the sort,
// and reports the time per element and what the sort allocated, also as a
// share of the input's bytes.
func sortparRun[E any](b *testing.B, in []E, sort func([]E)) {
	x := make([]E, len(in))
	b.ReportAllocs()
	var before, after runtime.MemStats
	var alloc uint64
	// Finish the collection of the inputs made before this one: a GC cycle
	// running during the sort takes a P for its mark worker, which a sort
	// on two workers of two Ps feels at once.
	runtime.GC()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(x, in)
		runtime.ReadMemStats(&before)
		b.StartTimer()
		sort(x)
		b.StopTimer()
		runtime.ReadMemStats(&after)
		alloc += after.TotalAlloc - before.TotalAlloc
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(in)), "ns/elem")
	var e E
	b.ReportMetric(100*float64(alloc)/float64(b.N)/float64(len(in))/float64(unsafe.Sizeof(e)), "alloc-%")
}

// sortparCase is one contender: a name and a sort given the pool (nil for
// the serial baseline and sorty).
type sortparCase[E any] struct {
	name string
	sort func(x []E, pool *core.Pool)
}

// sortparBench runs every size × pattern × contender; the "serial" and
// "sorty" contenders get no pool, "p=1" and "p=2" get a fresh pool of that
// many workers, closed after the sub-benchmark (so no other pool's workers
// are around).
func sortparBench[E any](b *testing.B, sizes []int, conv func(rng *rand.Rand, v int64) E, cases []sortparCase[E]) {
	workers := map[string]int{"p=1": 1, "p=2": 2}
	for _, n := range sizes {
		n = sortparN(n)
		for p := range kernels.SortPatterns {
			in := kernels.SortInput(p, n, conv)
			for _, c := range cases {
				b.Run(fmt.Sprintf("%s/dist=%s/%s", sortparSizeName(n), kernels.SortPatterns[p].Name, c.name), func(b *testing.B) {
					var pool *core.Pool
					if w := workers[c.name]; w > 0 {
						pool = core.New(core.WithWorkers(w))
						defer pool.Close()
					}
					sortparRun(b, in, func(x []E) { c.sort(x, pool) })
				})
			}
		}
	}
}

// sortparOrderedCases: slices.Sort against sortpar.Sort at p=1, p=2 and
// sorty.SortSlice.
func sortparOrderedCases[E int64 | float64 | string]() []sortparCase[E] {
	return []sortparCase[E]{
		{"serial", func(x []E, _ *core.Pool) { slices.Sort(x) }},
		{"p=1", func(x []E, p *core.Pool) { sortpar.Sort(x, par.WithPool(p)) }},
		{"p=2", func(x []E, p *core.Pool) { sortpar.Sort(x, par.WithPool(p)) }},
		{"sorty", func(x []E, _ *core.Pool) { sorty.SortSlice(x) }},
	}
}

func BenchmarkSortparInt64(b *testing.B) {
	sortparBench(b, []int{kernels.SortN / 10, kernels.SortN}, kernels.Int64s, sortparOrderedCases[int64]())
}

// BenchmarkSortparInt64Huge sorts 10^8 random int64 (800 MB; 10^6 under
// -short), where the in-place sorts must show: alloc-% is the heap a sort
// allocates as a share of the input.
//
//	GOMAXPROCS=2 flock /tmp/gofork-bench.lock go test -run '^$' -bench 'SortparInt64Huge' -benchtime 1x -count 5 .
func BenchmarkSortparInt64Huge(b *testing.B) {
	n := sortparN(100_000_000)
	in := kernels.SortInput(kernels.SortRandom, n, kernels.Int64s)
	workers := map[string]int{"p=1": 1, "p=2": 2}
	for _, c := range sortparOrderedCases[int64]() {
		b.Run(fmt.Sprintf("%s/dist=random/%s", sortparSizeName(n), c.name), func(b *testing.B) {
			var pool *core.Pool
			if w := workers[c.name]; w > 0 {
				pool = core.New(core.WithWorkers(w))
				defer pool.Close()
			}
			sortparRun(b, in, func(x []int64) { c.sort(x, pool) })
		})
	}
}

func BenchmarkSortparFloat64(b *testing.B) {
	sortparBench(b, []int{kernels.SortN}, kernels.Float64s, sortparOrderedCases[float64]())
}

// BenchmarkSortparString sorts 16-byte strings (kernels.Strings).
func BenchmarkSortparString(b *testing.B) {
	sortparBench(b, []int{kernels.SortStringN, 5 * kernels.SortStringN}, kernels.Strings, sortparOrderedCases[string]())
}

// sortparFuncCases: slices.SortFunc against sortpar.SortFunc at p=1, p=2
// and sorty.
func sortparFuncCases[E any](cmp func(a, b E) int) []sortparCase[E] {
	return []sortparCase[E]{
		{"serial", func(x []E, _ *core.Pool) { slices.SortFunc(x, cmp) }},
		{"p=1", func(x []E, p *core.Pool) { sortpar.SortFunc(x, cmp, par.WithPool(p)) }},
		{"p=2", func(x []E, p *core.Pool) { sortpar.SortFunc(x, cmp, par.WithPool(p)) }},
		{"sorty", func(x []E, _ *core.Pool) { kernels.SortyFunc(x, cmp) }},
	}
}

func BenchmarkSortparStructFunc(b *testing.B) {
	sortparBench(b, []int{kernels.SortN}, kernels.Wides, sortparFuncCases(kernels.WideCmp))
}

// BenchmarkSortparAdversary sorts the input McIlroy's adversary builds
// against slices.SortFunc (10^6 ints; 10^4 under -short): the values it
// settled on while the serial pdqsort ran, as a fixed permutation.
func BenchmarkSortparAdversary(b *testing.B) {
	n := sortparN(1_000_000)
	in := kernels.SortKiller(n)
	intCmp := func(a, b int) int { return cmp.Compare(a, b) }
	for _, c := range sortparFuncCases(intCmp) {
		b.Run(fmt.Sprintf("%s/dist=adversary/%s", sortparSizeName(n), c.name), func(b *testing.B) {
			var pool *core.Pool
			if w := map[string]int{"p=1": 1, "p=2": 2}[c.name]; w > 0 {
				pool = core.New(core.WithWorkers(w))
				defer pool.Close()
			}
			sortparRun(b, in, func(x []int) { c.sort(x, pool) })
		})
	}
}

func BenchmarkSortparStructStableFunc(b *testing.B) {
	sortparBench(b, []int{kernels.SortN}, kernels.Records, []sortparCase[kernels.Record]{
		{"serial", func(x []kernels.Record, _ *core.Pool) { slices.SortStableFunc(x, kernels.RecordCmp) }},
		{"p=1", func(x []kernels.Record, p *core.Pool) {
			sortpar.SortStableFunc(x, kernels.RecordCmp, par.WithPool(p))
		}},
		{"p=2", func(x []kernels.Record, p *core.Pool) {
			sortpar.SortStableFunc(x, kernels.RecordCmp, par.WithPool(p))
		}},
	})
}
