package gofork_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	concpool "github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/baseline"
	"github.com/gofork/gofork/harness/kernels"
	"github.com/gofork/gofork/harness/serverload"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

// Benchmarks of gofork inside real programs: code that blocks, roots of
// very different sizes sharing a pool, and a GOMAXPROCS that moves (core's
// DESIGN.md, "Workers in real programs"). Each compares with what a Go
// user would write instead, in the same run.

// percentileMicros returns the q-quantile of sorted durations, in µs.
func percentileMicros(sorted []time.Duration, q float64) float64 {
	return float64(serverload.Result{Latency: sorted}.Quantile(q).Nanoseconds()) / 1e3
}

// BenchmarkBlocking runs 64 iterations that each block for 10 ms (a sleep
// standing in for a network call) on 2 workers:
//
//   - hint: par.ForEach with the sleep inside core.Blocking: spares stand
//     in for the blocked workers at once (target <= 40 ms);
//   - detected: the same loop without the hint: the governor sees the
//     stall and starts spares;
//   - fixed: without the hint and with WithMaxSpares(0), what a fixed pool
//     of 2 does (64 x 10 ms / 2 = 320 ms);
//   - goroutines: a goroutine per iteration and a WaitGroup (~10 ms).
func BenchmarkBlocking(b *testing.B) {
	const n, nap = kernels.BlockN, kernels.BlockNap
	items := make([]int, n)
	for _, c := range []struct {
		name string
		opts []core.Option
		body func(*int)
	}{
		{"hint", nil, func(*int) { core.Blocking(func() { time.Sleep(nap) }) }},
		{"detected", nil, func(*int) { time.Sleep(nap) }},
		{"fixed", []core.Option{core.WithMaxSpares(0)}, func(*int) { time.Sleep(nap) }},
	} {
		b.Run(c.name+"/p=2", func(b *testing.B) {
			pool := core.New(append([]core.Option{core.WithWorkers(2)}, c.opts...)...)
			defer pool.Close()
			for b.Loop() {
				par.ForEach(items, func(_ int, x *int) { c.body(x) }, par.WithPool(pool))
			}
			b.ReportMetric(float64(pool.Stats().SparesStarted)/float64(b.N), "spares/op")
		})
	}
	b.Run("goroutines", func(b *testing.B) {
		for b.Loop() {
			var wg sync.WaitGroup
			for range n {
				wg.Add(1)
				go func() { defer wg.Done(); time.Sleep(nap) }()
			}
			wg.Wait()
		}
	})
}

// BenchmarkSpareStart measures how long a root submitted while every worker
// of a 2-worker pool is blocked (in a task, on a channel, no hint) waits
// before a spare runs it: the governor's detection delay. Each op blocks
// both workers, lets the governor settle for a while (so that its interval
// has backed off), then submits the root; it reports the median and 99th
// percentile over the ops (target p50 <= 1 ms, p99 <= 10 ms).
func BenchmarkSpareStart(b *testing.B) {
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()
	var lat []time.Duration
	for b.Loop() {
		release := make(chan struct{})
		var inside, done sync.WaitGroup
		inside.Add(2)
		for range 2 {
			done.Add(1)
			go func() {
				defer done.Done()
				core.RunValue(pool, func(*core.Worker) int { inside.Done(); <-release; return 0 })
			}()
		}
		inside.Wait()
		b.StopTimer()
		time.Sleep(20 * time.Millisecond) // the governor backs off to its longest interval
		b.StartTimer()
		submit := time.Now()
		lat = append(lat, core.RunValue(pool, func(*core.Worker) time.Duration { return time.Since(submit) }))
		close(release)
		done.Wait()
	}
	slices.Sort(lat)
	b.ReportMetric(percentileMicros(lat, 0.5), "p50-µs")
	b.ReportMetric(percentileMicros(lat, 0.99), "p99-µs")
}

// BenchmarkFairness sorts 30 M ints with sortpar on 2 workers while other
// goroutines, one every 2 ms, sort 20 k ints each on the same pool, and
// reports the small sorts' latency (p50, p99) and the big sort's time
// beside them and alone. The baseline is the same program with
// slices.Sort in plain goroutines, which the Go scheduler time-slices.
// Run with -benchtime 1x: one op is one big sort.
func BenchmarkFairness(b *testing.B) {
	bigN := kernels.BigN
	if testing.Short() {
		bigN /= 10
	}
	in := kernels.BigInput(bigN)
	big := make([]int, bigN)
	for _, c := range []struct {
		name string
		sort func(pool *core.Pool, xs []int)
	}{
		{"gofork", func(pool *core.Pool, xs []int) { sortpar.Sort(xs, par.WithPool(pool)) }},
		{"goroutines", func(_ *core.Pool, xs []int) { slices.Sort(xs) }},
	} {
		b.Run(c.name+"/p=2", func(b *testing.B) {
			if runtime.GOMAXPROCS(0) != 2 {
				b.Skip("run with GOMAXPROCS=2")
			}
			pool := core.New(core.WithWorkers(2))
			defer pool.Close()
			sort := func(xs []int) { c.sort(pool, xs) }
			var lat []time.Duration
			var alone, beside time.Duration
			for b.Loop() {
				copy(big, in)
				start := time.Now()
				sort(big)
				alone += time.Since(start)

				copy(big, in)
				l, unsorted, d := kernels.Beside(sort, big)
				if unsorted > 0 || !slices.IsSorted(big) {
					b.Fatalf("%d small sorts, or the big one, not sorted", unsorted)
				}
				lat = append(lat, l...)
				beside += d
			}
			slices.Sort(lat)
			b.ReportMetric(percentileMicros(lat, 0.5), "small-p50-µs")
			b.ReportMetric(percentileMicros(lat, 0.99), "small-p99-µs")
			b.ReportMetric(beside.Seconds()*1e3/float64(b.N), "big-ms")
			b.ReportMetric(alone.Seconds()*1e3/float64(b.N), "big-alone-ms")
			b.ReportMetric(float64(len(lat))/float64(b.N), "smalls/op")
			b.ReportMetric(float64(pool.Stats().SparesStarted)/float64(b.N), "spares/op")
		})
	}
}

// BenchmarkDefault uses only the Default pool, as library code does, and is
// meant for -cpu: `go test -run '^$' -bench BenchmarkDefault -cpu 1,2,4 .`
// shows the scaling, since Default follows GOMAXPROCS; it reports the
// number of workers Default ran.
func BenchmarkDefault(b *testing.B) {
	const n = 4_000_000
	in := make([]int64, n)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range in {
		in[i] = rng.Int64()
	}
	xs := make([]int64, n)
	b.Run("sort", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			copy(xs, in)
			b.StartTimer()
			sortpar.Sort(xs)
		}
		b.ReportMetric(float64(core.Default().Workers()), "workers")
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "gomaxprocs")
	})
	b.Run("fib", func(b *testing.B) {
		for b.Loop() {
			sink = core.RunValue(core.Default(), func(w *core.Worker) int { return kernels.Fib(w, 27) })
		}
		b.ReportMetric(float64(core.Default().Workers()), "workers")
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "gomaxprocs")
	})
}

// BenchmarkGroupEmpty measures what par.Group itself costs: 10^6 empty
// tasks (10^4 with -short) forked by Go from one producer, then Wait, on 1
// and 2 workers, from outside the pool (as errgroup is used) and from
// inside a task, against errgroup.Group and conc's pool in the same run
// (their goroutines run on GOMAXPROCS processors). It reports ns/task: the
// op's time divided by the tasks.
func BenchmarkGroupEmpty(b *testing.B) {
	n := kernels.GroupN
	if testing.Short() {
		n /= 10
	}
	nop := func() error { return nil }
	perTask := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/task")
	}
	for _, p := range []int{1, 2} {
		pool := core.New(core.WithWorkers(p))
		b.Run(fmt.Sprintf("gofork/p=%d", p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g := par.NewGroup(par.WithPool(pool))
				for range n {
					g.Go(nop)
				}
				g.Wait()
			}
			perTask(b)
		})
		b.Run(fmt.Sprintf("gofork-in-task/p=%d", p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				core.RunValue(pool, func(*core.Worker) int {
					g := par.NewGroup(par.WithPool(pool))
					for range n {
						g.Go(nop)
					}
					g.Wait()
					return 0
				})
			}
			perTask(b)
		})
		pool.Close()
	}
	b.Run("errgroup", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var g errgroup.Group
			for range n {
				g.Go(nop)
			}
			g.Wait()
		}
		perTask(b)
	})
	b.Run("conc-pool", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p := concpool.New()
			for range n {
				p.Go(func() {})
			}
			p.Wait()
		}
		perTask(b)
	})
}

// BenchmarkGroup forks tasks through par.Group on 2 workers against
// errgroup.Group and sourcegraph/conc's pool in the same run, and against
// the serial loop: 10^6 tasks of ~1 µs (the cost of forking shows), and
// 10^4 tasks of ~100 µs (Ts/T2). gofork forks from outside the pool (as
// errgroup is used) and from inside a task; par.For over the same tasks,
// one iteration a chunk, shows what the group itself costs.
func BenchmarkGroup(b *testing.B) {
	for _, size := range []struct {
		name    string
		n, work int
	}{{"n=1e6/work=1us", kernels.GroupN, kernels.GroupSteps}, {"n=1e4/work=100us", kernels.GroupN / 100, 100 * kernels.GroupSteps}} {
		n, work := size.n, size.work
		if testing.Short() {
			n /= 10
		}
		out := make([]uint64, n)
		task := func(i int) { out[i] = kernels.Spin(work, uint64(i)) }
		b.Run(size.name+"/serial", func(b *testing.B) {
			for b.Loop() {
				for i := range n {
					task(i)
				}
			}
		})
		pool := core.New(core.WithWorkers(2))
		b.Run(size.name+"/gofork/p=2", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g := par.NewGroup(par.WithPool(pool))
				for i := range n {
					g.Go(func() error { task(i); return nil })
				}
				g.Wait()
			}
		})
		b.Run(size.name+"/gofork-in-task/p=2", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				core.RunValue(pool, func(*core.Worker) int {
					g := par.NewGroup(par.WithPool(pool))
					for i := range n {
						g.Go(func() error { task(i); return nil })
					}
					g.Wait()
					return 0
				})
			}
		})
		b.Run(size.name+"/par.For-Simple1/p=2", func(b *testing.B) {
			// The same tasks as a loop with one iteration a chunk: the
			// runtime without the group (its counter, its job records).
			for b.Loop() {
				par.For(0, n, task, par.WithPool(pool), par.Simple(1))
			}
		})
		pool.Close()
		b.Run(size.name+"/errgroup", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var g errgroup.Group
				for i := range n {
					g.Go(func() error { task(i); return nil })
				}
				g.Wait()
			}
		})
		b.Run(size.name+"/conc-pool", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p := concpool.New()
				for i := range n {
					p.Go(func() { task(i) })
				}
				p.Wait()
			}
		})
	}
}

// BenchmarkMapSeq maps a sequence of items of ~0.4, 1.6 and 5 µs in order:
// par.MapSeq with the default window on 1 and 2 workers against the serial
// for-range loop, a hand-written channel pipeline (a worker per core and a
// reorder buffer) and conc's stream, in the same run. It reports ns/item
// (wall time per item) and, for the parallel rows, the CPU time per item
// beyond fn's own (overhead-ns: 2 x wall - serial, at P = 2, from the
// serial row's time when it ran first).
func BenchmarkMapSeq(b *testing.B) {
	for _, size := range kernels.MapSeqSizes {
		n, steps := size.N, size.Steps
		if testing.Short() {
			n /= 10
		}
		items := func(yield func(int) bool) {
			for i := range n {
				if !yield(i) {
					return
				}
			}
		}
		fn := func(i int) uint64 { return kernels.Spin(steps, uint64(i)) }
		var want uint64
		for i := range n {
			want = want*31 + fn(i)
		}
		check := func(b *testing.B, got uint64) {
			if got != want {
				b.Fatalf("order-sensitive checksum %#x, want %#x", got, want)
			}
		}
		var serial float64 // ns per item of the serial row
		perItem := func(b *testing.B) float64 {
			return float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(n)
		}
		report := func(b *testing.B, p int) {
			ns := perItem(b)
			b.ReportMetric(ns, "ns/item")
			if serial > 0 {
				b.ReportMetric(serial/ns, "Ts/T")
				b.ReportMetric(float64(p)*ns-serial, "overhead-ns")
			}
		}
		b.Run("item="+size.Item+"/serial", func(b *testing.B) {
			for b.Loop() {
				var got uint64
				for i := range items {
					got = got*31 + fn(i)
				}
				check(b, got)
			}
			serial = perItem(b)
			b.ReportMetric(serial, "ns/item")
		})
		for _, p := range []int{1, 2} {
			b.Run(fmt.Sprintf("item=%s/gofork/p=%d", size.Item, p), func(b *testing.B) {
				pool := core.New(core.WithWorkers(p))
				defer pool.Close()
				for b.Loop() {
					var got uint64
					for r := range par.MapSeq(items, fn, par.WithPool(pool)) {
						got = got*31 + r
					}
					check(b, got)
				}
				report(b, p)
			})
		}
		b.Run("item="+size.Item+"/pipeline/p=2", func(b *testing.B) {
			for b.Loop() {
				var got uint64
				for r := range baseline.Pipeline(items, fn, 2, 128) {
					got = got*31 + r
				}
				check(b, got)
			}
			report(b, 2)
		})
		b.Run("item="+size.Item+"/conc-stream/p=2", func(b *testing.B) {
			for b.Loop() {
				var got uint64
				baseline.ConcStream(items, fn, 2, func(r uint64) { got = got*31 + r })
				check(b, got)
			}
			report(b, 2)
		})
	}
}

// BenchmarkMapSeqLatency measures how long an item a blocking sequence has
// yielded takes to reach the consumer as a result: the sequence yields one
// item and then waits for the consumer to have it (a server reading one
// request at a time), so each item is alone in the stream. par.MapSeq on 2
// workers against the channel pipeline; p50 and p99 in µs, over 2000 items
// (200 with -short).
func BenchmarkMapSeqLatency(b *testing.B) {
	n := kernels.MapSeqLatencyN
	if testing.Short() {
		n /= 10
	}
	fn := func(i int) uint64 { return kernels.Spin(kernels.MapSeqLatencySteps, uint64(i)) }
	run := func(b *testing.B, stream func(items func(func(int) bool)) func(func(uint64) bool)) {
		var lat []time.Duration
		for b.Loop() {
			got := make(chan struct{})
			var sent time.Time
			items := func(yield func(int) bool) {
				for i := range n {
					sent = time.Now()
					if !yield(i) {
						return
					}
					<-got // blocks until the consumer has the result
				}
			}
			for range stream(items) {
				lat = append(lat, time.Since(sent))
				got <- struct{}{}
			}
		}
		slices.Sort(lat)
		b.ReportMetric(percentileMicros(lat, 0.5), "p50-µs")
		b.ReportMetric(percentileMicros(lat, 0.99), "p99-µs")
	}
	b.Run("gofork/p=2", func(b *testing.B) {
		pool := core.New(core.WithWorkers(2))
		defer pool.Close()
		run(b, func(items func(func(int) bool)) func(func(uint64) bool) {
			return par.MapSeq(items, fn, par.WithPool(pool))
		})
	})
	b.Run("pipeline/p=2", func(b *testing.B) {
		run(b, func(items func(func(int) bool)) func(func(uint64) bool) {
			return baseline.Pipeline(items, fn, 2, 128)
		})
	})
}
