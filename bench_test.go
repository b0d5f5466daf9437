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
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
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
	x, y := core.Join(w, warmChain, n-1, fib, 1)
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

func fib(w *core.Worker, n int) int {
	if n < 2 {
		return n
	}
	x, y := core.Join(w, fib, n-1, fib, n-2)
	return x + y
}

func fibSerial(n int) int {
	if n < 2 {
		return n
	}
	return fibSerial(n-1) + fibSerial(n-2)
}

// fibGoroutines is what a Go programmer writes without gofork: a goroutine
// and a WaitGroup per fork.
func fibGoroutines(n int) int {
	if n < 2 {
		return n
	}
	var x int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); x = fibGoroutines(n - 1) }()
	y := fibGoroutines(n - 2)
	wg.Wait()
	return x + y
}

var sink int

func BenchmarkFib(b *testing.B) {
	for _, n := range []int{30, 35} {
		want := fibSerial(n)
		b.Run(fmt.Sprintf("n=%d/serial", n), func(b *testing.B) {
			for b.Loop() {
				sink = fibSerial(n)
			}
		})
		benchPools(b, fmt.Sprintf("n=%d/", n), bothPolicies, func(b *testing.B, p *core.Pool) {
			root := func(w *core.Worker) int { return fib(w, n) } // made once: Run itself allocates nothing
			for b.Loop() {
				if core.RunValue(p, root) != want {
					b.Fatal("wrong fib")
				}
			}
		})
	}
	// The goroutine-per-fork baseline is about 300x slower than serial: run
	// it on fib(25) and compare it with the serial and gofork fib(25).
	b.Run("n=25/serial", func(b *testing.B) {
		for b.Loop() {
			sink = fibSerial(25)
		}
	})
	benchPools(b, "n=25/", []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) int { return fib(w, 25) }
		for b.Loop() {
			sink = core.RunValue(p, root)
		}
	})
	b.Run("n=25/goroutines", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = fibGoroutines(25)
		}
	})
}

// --- nqueens: libfork's version (copy the board, check the new queen against
// all placed ones, fork every valid child), n = 12: 14200 solutions ---

const nqN = 12

type nqBoard [nqN]int8

// nqValid returns the columns where a queen can go in row j of a, as a bit
// mask (libfork's ok() check, O(j) per column).
func nqValid(a *nqBoard, j int) uint32 {
	var mask uint32
	for col := int8(0); col < nqN; col++ {
		ok := true
		for i := 0; i < j; i++ {
			p := a[i]
			d := int8(j - i)
			if p == col || p == col-d || p == col+d {
				ok = false
				break
			}
		}
		if ok {
			mask |= 1 << col
		}
	}
	return mask
}

func nqSerial(a nqBoard, j int) int {
	if j == nqN {
		return 1
	}
	n := 0
	for m := nqValid(&a, j); m != 0; m &= m - 1 {
		b := a
		b[j] = int8(lowBit(m))
		n += nqSerial(b, j+1)
	}
	return n
}

func lowBit(m uint32) int {
	n := 0
	for m&1 == 0 {
		m >>= 1
		n++
	}
	return n
}

// nqArg is a board, the row to fill and the set of valid columns still to
// try; forking splits the set in halves, so every fork carries real work.
type nqArg struct {
	a    nqBoard
	j    int
	cols uint32
}

func nqueens(w *core.Worker, arg nqArg) int {
	if arg.j == nqN {
		return 1
	}
	if arg.cols == 0 {
		arg.cols = nqValid(&arg.a, arg.j)
	}
	return nqCols(w, arg)
}

func nqCols(w *core.Worker, arg nqArg) int {
	m := arg.cols
	if m == 0 {
		return 0
	}
	if m&(m-1) == 0 { // one column: place the queen and go down a row
		b := arg.a
		b[arg.j] = int8(lowBit(m))
		return nqueens(w, nqArg{a: b, j: arg.j + 1})
	}
	left, right := nqSplit(m)
	x, y := core.Join(w, nqCols, nqArg{arg.a, arg.j, left}, nqCols, nqArg{arg.a, arg.j, right})
	return x + y
}

// nqSplit splits a set of columns (bits) into two halves of its bits.
func nqSplit(m uint32) (left, right uint32) {
	right = m
	for k := popcount(m) / 2; k > 0; k-- {
		right &= right - 1
	}
	return m &^ right, right
}

// nqGrain is how many rows from the bottom nqueensGrain searches serially:
// the last rows hold most nodes but little work each.
const nqGrain = 4

func nqueensGrain(w *core.Worker, arg nqArg) int {
	if arg.j >= nqN-nqGrain {
		return nqSerial(arg.a, arg.j)
	}
	if arg.cols == 0 {
		arg.cols = nqValid(&arg.a, arg.j)
	}
	m := arg.cols
	if m == 0 {
		return 0
	}
	if m&(m-1) == 0 {
		b := arg.a
		b[arg.j] = int8(lowBit(m))
		return nqueensGrain(w, nqArg{a: b, j: arg.j + 1})
	}
	left, right := nqSplit(m)
	x, y := core.Join(w, nqueensGrain, nqArg{arg.a, arg.j, left}, nqueensGrain, nqArg{arg.a, arg.j, right})
	return x + y
}

func popcount(m uint32) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

func BenchmarkNQueens(b *testing.B) {
	const want = 14200
	b.Run(fmt.Sprintf("n=%d/serial", nqN), func(b *testing.B) {
		for b.Loop() {
			if nqSerial(nqBoard{}, 0) != want {
				b.Fatal("wrong nqueens")
			}
		}
	})
	benchPools(b, fmt.Sprintf("n=%d/", nqN), bothPolicies, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) int { return nqueens(w, nqArg{}) }
		for b.Loop() {
			if core.RunValue(p, root) != want {
				b.Fatal("wrong nqueens")
			}
		}
	})
	// The last nqGrain rows searched serially: the speedup a user gets.
	benchPools(b, fmt.Sprintf("n=%d/grain=%d/", nqN, nqGrain), []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) int { return nqueensGrain(w, nqArg{}) }
		for b.Loop() {
			if core.RunValue(p, root) != want {
				b.Fatal("wrong nqueens")
			}
		}
	})
}

// --- integrate: libfork's recursive adaptive quadrature of (x²+1)x over
// [0, n], eps = 1e-9 (Table I uses n = 10^4; see intN) ---

// intN is scaled down from libfork's 10^4 so that the serial run takes about
// a second here (n = 8000 took 5.9 s: the node count grows about as n²); the
// result is checked against the closed form n⁴/4 + n²/2.
const (
	intN   = 4000
	intEps = 1e-9
)

func intFn(x float64) float64 { return (x*x + 1.0) * x }

type intArg struct{ x1, y1, x2, y2, area float64 }

// The quadrature step is written out in each of the three versions below
// rather than shared: a helper returning both halves (twelve values) spills
// through memory and made the serial baseline six times slower.

func integrateSerial(a intArg) float64 {
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := intFn(x0)
	l := (a.y1 + y0) / 2 * half
	r := (y0 + a.y2) / 2 * half
	if math.Abs(l+r-a.area) < intEps {
		return l + r
	}
	return integrateSerial(intArg{a.x1, a.y1, x0, y0, l}) + integrateSerial(intArg{x0, y0, a.x2, a.y2, r})
}

func integrate(w *core.Worker, a intArg) float64 {
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := intFn(x0)
	l := (a.y1 + y0) / 2 * half
	r := (y0 + a.y2) / 2 * half
	if math.Abs(l+r-a.area) < intEps {
		return l + r
	}
	x, y := core.Join(w, integrate, intArg{a.x1, a.y1, x0, y0, l}, integrate, intArg{x0, y0, a.x2, a.y2, r})
	return x + y
}

// intGrain is the interval width below which integrateGrain recurses
// serially: 2^12 top-level intervals, plenty of parallel slack for 2..16
// workers, and each task then does a few thousand nodes of work.
const intGrain = intN / 4096.0

// integrateGrain forks only while the interval is wider than intGrain: the
// cutoff every practical fork-join program uses, so that the fork cost is
// paid per few thousand nodes rather than per node.
func integrateGrain(w *core.Worker, a intArg) float64 {
	if a.x2-a.x1 <= intGrain {
		return integrateSerial(a)
	}
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := intFn(x0)
	l := (a.y1 + y0) / 2 * half
	r := (y0 + a.y2) / 2 * half
	if math.Abs(l+r-a.area) < intEps {
		return l + r
	}
	x, y := core.Join(w, integrateGrain, intArg{a.x1, a.y1, x0, y0, l}, integrateGrain, intArg{x0, y0, a.x2, a.y2, r})
	return x + y
}

func intRoot() intArg {
	return intArg{0, intFn(0), intN, intFn(intN), (intFn(0) + intFn(intN)) / 2 * intN}
}

func intCheck(b *testing.B, got float64) {
	want := math.Pow(intN, 4)/4 + intN*intN/2
	if math.Abs(got-want) > 1e-6*want {
		b.Fatalf("integral = %g, want %g", got, want)
	}
}

func BenchmarkIntegrate(b *testing.B) {
	b.Run(fmt.Sprintf("n=%d/serial", intN), func(b *testing.B) {
		for b.Loop() {
			intCheck(b, integrateSerial(intRoot()))
		}
	})
	// A fork at every node: the runtime's overhead on tiny tasks.
	benchPools(b, fmt.Sprintf("n=%d/", intN), []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) float64 { return integrate(w, intRoot()) }
		for b.Loop() {
			intCheck(b, core.RunValue(p, root))
		}
	})
	// Forks above depth 12 only: the speedup a user gets.
	benchPools(b, fmt.Sprintf("n=%d/grain=4096/", intN), []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) float64 { return integrateGrain(w, intRoot()) }
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
			{"fib30", func(p *core.Pool) { sink = core.RunValue(p, func(w *core.Worker) int { return fib(w, 30) }) }},
			{"nqueens12", func(p *core.Pool) { sink = core.RunValue(p, func(w *core.Worker) int { return nqueens(w, nqArg{}) }) }},
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
						sink = fib(w, 12)
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

func linalgBenchDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := make([]float64, r*c)
	for i := range d {
		d[i] = rng.Float64()*2 - 1
	}
	return mat.NewDense(r, c, d)
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
		x, y := linalgBenchDense(rng, s.m, s.k), linalgBenchDense(rng, s.k, s.n)
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

// sortparPatterns are the input shapes: a value for index i of n.
var sortparPatterns = []struct {
	name string
	gen  func(rng *rand.Rand, i, n int) int64
}{
	{"random", func(rng *rand.Rand, _, _ int) int64 { return int64(rng.Uint64()) }},
	{"sorted", func(_ *rand.Rand, i, _ int) int64 { return int64(i) }},
	{"reversed", func(_ *rand.Rand, i, n int) int64 { return int64(n - i) }},
	{"equal", func(_ *rand.Rand, _, _ int) int64 { return 42 }},
	{"few16", func(rng *rand.Rand, _, _ int) int64 { return int64(rng.IntN(16)) }},
	{"sawtooth", func(_ *rand.Rand, i, n int) int64 { return int64(i % (n/16 + 1)) }},
	{"organpipe", func(_ *rand.Rand, i, n int) int64 { return int64(min(i, n-i)) }},
}

// sortparN returns the benchmark length: n, or n/100 under -short.
func sortparN(n int) int {
	if testing.Short() {
		return n / 100
	}
	return n
}

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

// sortparInput returns n values of pattern p mapped through conv.
func sortparInput[E any](p, n int, conv func(rng *rand.Rand, v int64) E) []E {
	rng := rand.New(rand.NewPCG(1, uint64(p)))
	x := make([]E, n)
	for i := range x {
		x[i] = conv(rng, sortparPatterns[p].gen(rng, i, n))
	}
	return x
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
		for p := range sortparPatterns {
			in := sortparInput(p, n, conv)
			for _, c := range cases {
				b.Run(fmt.Sprintf("%s/dist=%s/%s", sortparSizeName(n), sortparPatterns[p].name, c.name), func(b *testing.B) {
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
	sortparBench(b, []int{1_000_000, 10_000_000}, func(_ *rand.Rand, v int64) int64 { return v }, sortparOrderedCases[int64]())
}

// BenchmarkSortparInt64Huge sorts 10^8 random int64 (800 MB; 10^6 under
// -short), where the in-place sorts must show: alloc-% is the heap a sort
// allocates as a share of the input.
//
//	GOMAXPROCS=2 flock /tmp/gofork-bench.lock go test -run '^$' -bench 'SortparInt64Huge' -benchtime 1x -count 5 .
func BenchmarkSortparInt64Huge(b *testing.B) {
	n := sortparN(100_000_000)
	rng := rand.New(rand.NewPCG(1, 0))
	in := make([]int64, n)
	for i := range in {
		in[i] = int64(rng.Uint64())
	}
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
	sortparBench(b, []int{10_000_000}, func(rng *rand.Rand, v int64) float64 { return float64(v) / 1024 }, sortparOrderedCases[float64]())
}

// BenchmarkSortparString sorts 16-byte strings: 16 random bytes for the
// random pattern, otherwise the pattern value big-endian after a shared
// 8-byte prefix (so the order follows the pattern).
func BenchmarkSortparString(b *testing.B) {
	sortparBench(b, []int{1_000_000, 5_000_000}, func(rng *rand.Rand, v int64) string {
		var s [16]byte
		if v > 1<<32 || v < 0 { // the random pattern
			binary.LittleEndian.PutUint64(s[:8], rng.Uint64())
			binary.LittleEndian.PutUint64(s[8:], rng.Uint64())
		} else {
			copy(s[:8], "sortpar!")
			binary.BigEndian.PutUint64(s[8:], uint64(v))
		}
		return string(s[:])
	}, sortparOrderedCases[string]())
}

// sortparRecord is the 16-byte struct of the stable sort benchmarks:
// sorted by key.
type sortparRecord struct {
	key, payload int64
}

func sortparRecordCmp(a, b sortparRecord) int { return cmp.Compare(a.key, b.key) }

func sortparRecords(_ *rand.Rand, v int64) sortparRecord { return sortparRecord{v, v ^ 0x5bd1e995} }

// sortparWide is the 32-byte struct of the SortFunc benchmarks: sorted by
// an int64 key.
type sortparWide struct {
	key, a, b, c int64
}

func sortparWideCmp(a, b sortparWide) int { return cmp.Compare(a.key, b.key) }

func sortparWides(_ *rand.Rand, v int64) sortparWide {
	return sortparWide{v, v ^ 0x5bd1e995, v >> 3, v << 5}
}

// sortyFunc sorts x by cmp with sorty, through the same comparison
// function the other contenders call.
func sortyFunc[E any](x []E, cmp func(a, b E) int) {
	sorty.Sort(len(x), func(i, k, r, s int) bool {
		if cmp(x[i], x[k]) < 0 {
			if r != s {
				x[r], x[s] = x[s], x[r]
			}
			return true
		}
		return false
	})
}

// sortparFuncCases: slices.SortFunc against sortpar.SortFunc at p=1, p=2
// and sorty.
func sortparFuncCases[E any](cmp func(a, b E) int) []sortparCase[E] {
	return []sortparCase[E]{
		{"serial", func(x []E, _ *core.Pool) { slices.SortFunc(x, cmp) }},
		{"p=1", func(x []E, p *core.Pool) { sortpar.SortFunc(x, cmp, par.WithPool(p)) }},
		{"p=2", func(x []E, p *core.Pool) { sortpar.SortFunc(x, cmp, par.WithPool(p)) }},
		{"sorty", func(x []E, _ *core.Pool) { sortyFunc(x, cmp) }},
	}
}

func BenchmarkSortparStructFunc(b *testing.B) {
	sortparBench(b, []int{10_000_000}, sortparWides, sortparFuncCases(sortparWideCmp))
}

// BenchmarkSortparAdversary sorts the input McIlroy's adversary builds
// against slices.SortFunc (10^6 ints; 10^4 under -short): the values it
// settled on while the serial pdqsort ran, as a fixed permutation.
func BenchmarkSortparAdversary(b *testing.B) {
	n := sortparN(1_000_000)
	in := sortparKiller(n)
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

// sortparKiller runs McIlroy's adversary ("A Killer Adversary for
// Quicksort", 1999) against slices.SortFunc on n items and returns, for
// each position of the input, the value the adversary gave the item there.
func sortparKiller(n int) []int {
	val := make([]int, n)
	gas := n
	for i := range val {
		val[i] = gas
	}
	nsolid, candidate := 0, 0
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	slices.SortFunc(ids, func(x, y int) int {
		if val[x] == gas && val[y] == gas {
			if x == candidate {
				val[x] = nsolid
			} else {
				val[y] = nsolid
			}
			nsolid++
		}
		if val[x] == gas {
			candidate = x
		} else if val[y] == gas {
			candidate = y
		}
		return cmp.Compare(val[x], val[y])
	})
	for i := range val {
		if val[i] == gas {
			val[i] = nsolid
			nsolid++
		}
	}
	return val
}

func BenchmarkSortparStructStableFunc(b *testing.B) {
	sortparBench(b, []int{10_000_000}, sortparRecords, []sortparCase[sortparRecord]{
		{"serial", func(x []sortparRecord, _ *core.Pool) { slices.SortStableFunc(x, sortparRecordCmp) }},
		{"p=1", func(x []sortparRecord, p *core.Pool) {
			sortpar.SortStableFunc(x, sortparRecordCmp, par.WithPool(p))
		}},
		{"p=2", func(x []sortparRecord, p *core.Pool) {
			sortpar.SortStableFunc(x, sortparRecordCmp, par.WithPool(p))
		}},
	})
}
