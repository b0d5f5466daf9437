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
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/uts"
)

// benchPools runs fn once per worker count and policy, on a pool made for it.
func benchPools(b *testing.B, prefix string, policies []core.Policy, fn func(b *testing.B, p *core.Pool)) {
	for _, pol := range policies {
		for _, p := range []int{1, 2} {
			name := fmt.Sprintf("%s%s/p=%d", prefix, policyName(pol), p)
			b.Run(name, func(b *testing.B) {
				pool := core.New(core.WithWorkers(p), core.WithPolicy(pol))
				defer pool.Close()
				// Warm up: the first run allocates each fork depth's frame
				// once; b.Loop then measures the steady state.
				core.Run(pool, func(w *core.Worker) int { return fib(w, 20) })
				b.ReportAllocs()
				fn(b, pool)
			})
		}
	}
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
				if core.Run(p, root) != want {
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
			sink = core.Run(p, root)
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
	// Split the set bits in two halves.
	half := popcount(m) / 2
	lo := m
	for k := 0; k < half; k++ {
		lo &= lo - 1
	}
	left := m &^ lo
	x, y := core.Join(w, nqCols, nqArg{arg.a, arg.j, left}, nqCols, nqArg{arg.a, arg.j, lo})
	return x + y
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
	half := popcount(m) / 2
	lo := m
	for k := 0; k < half; k++ {
		lo &= lo - 1
	}
	x, y := core.Join(w, nqueensGrain, nqArg{arg.a, arg.j, m &^ lo}, nqueensGrain, nqArg{arg.a, arg.j, lo})
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
			if core.Run(p, root) != want {
				b.Fatal("wrong nqueens")
			}
		}
	})
	// The last nqGrain rows searched serially: the speedup a user gets.
	benchPools(b, fmt.Sprintf("n=%d/grain=%d/", nqN, nqGrain), []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) int { return nqueensGrain(w, nqArg{}) }
		for b.Loop() {
			if core.Run(p, root) != want {
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
			intCheck(b, core.Run(p, root))
		}
	})
	// Forks above depth 12 only: the speedup a user gets.
	benchPools(b, fmt.Sprintf("n=%d/grain=4096/", intN), []core.Policy{core.WorkFirst}, func(b *testing.B, p *core.Pool) {
		root := func(w *core.Worker) float64 { return integrateGrain(w, intRoot()) }
		for b.Loop() {
			intCheck(b, core.Run(p, root))
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
			{"fib30", func(p *core.Pool) { sink = core.Run(p, func(w *core.Worker) int { return fib(w, 30) }) }},
			{"nqueens12", func(p *core.Pool) { sink = core.Run(p, func(w *core.Worker) int { return nqueens(w, nqArg{}) }) }},
			{"utsT1", func(p *core.Pool) { sink = int(uts.Search(uts.T1, uts.WithPool(p)).Nodes) }},
		} {
			b.Run(bench.name+"/"+name+"/p=2", func(b *testing.B) {
				p := core.New(core.WithWorkers(2), core.WithScheduler(sched))
				defer p.Close()
				before := awake(p)
				for b.Loop() {
					bench.run(p)
				}
				b.ReportMetric((awake(p) - before).Seconds()/float64(b.N), "cpu-s/op")
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
					lat = append(lat, core.Run(p, func(w *core.Worker) time.Duration {
						d := time.Since(submit)
						sink = fib(w, 12)
						return d
					}))
				}
			}
			b.ReportMetric((awake(p) - before).Seconds()/float64(b.N), "cpu-s/op")
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-start-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "p99-start-µs")
		})
	}
}
