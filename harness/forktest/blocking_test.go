package forktest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"golang.org/x/sync/errgroup"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

// Tests of the progress guarantee (core/DESIGN.md, "Workers in real
// programs"): programs whose tasks block on work that only the pool can run
// finish, on every pool size and on the Default pool. Without spare workers
// each of them hangs (the issue that asked for them shows the first).

// blockingPools returns fresh pools of 1, 2, 4 and 8 workers and the
// Default pool, named for failure reports.
func blockingPools(t *testing.T) map[string]*core.Pool {
	pools := map[string]*core.Pool{"default": core.Default()}
	for _, n := range []int{1, 2, 4, 8} {
		p := core.New(core.WithWorkers(n))
		t.Cleanup(p.Close)
		pools[fmt.Sprintf("p=%d", n)] = p
	}
	return pools
}

// fib is fib(n) with a Join at every call.
func fib(w *core.Worker, n int) int {
	if n < 2 {
		return n
	}
	a, b := core.Join(w, fib, n-1, fib, n-2)
	return a + b
}

func randomInts(rng *rand.Rand, n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = rng.Int()
	}
	return xs
}

// TestIterationsWaitOnGoroutines is the program: every iteration
// of a par.For starts goroutines that sort with sortpar on the same pool
// (roots submitted from outside) and waits for them on a WaitGroup, or on an
// errgroup. With two workers both parked in Wait, nobody would take the
// roots.
func TestIterationsWaitOnGoroutines(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	n := 100_000
	if testing.Short() || raceEnabled {
		n = 20_000
	}
	for name, pool := range blockingPools(t) {
		for _, how := range []string{"waitgroup", "errgroup"} {
			t.Run(name+"/"+how, func(t *testing.T) {
				var sorted atomic.Int64
				par.For(0, 8, func(i int) {
					rngs := []*rand.Rand{rand.New(rand.NewPCG(uint64(i), 0)), rand.New(rand.NewPCG(uint64(i), 1))}
					check := func(xs []int) {
						if !slices.IsSorted(xs) {
							t.Errorf("iteration %d: a sort returned unsorted data", i)
						}
						sorted.Add(1)
					}
					if how == "waitgroup" {
						var wg sync.WaitGroup
						for j := range 2 {
							wg.Add(1)
							go func() {
								defer wg.Done()
								xs := randomInts(rngs[j], n)
								sortpar.Sort(xs, par.WithPool(pool))
								check(xs)
							}()
						}
						wg.Wait()
						return
					}
					var g errgroup.Group
					for j := range 2 {
						g.Go(func() error {
							xs := randomInts(rngs[j], n)
							sortpar.Sort(xs, par.WithPool(pool))
							check(xs)
							return nil
						})
					}
					if err := g.Wait(); err != nil {
						t.Error(err)
					}
				}, par.WithPool(pool))
				if got := sorted.Load(); got != 16 {
					t.Fatalf("%d sorts finished, want 16", got)
				}
			})
		}
	}
}

// TestIterationsWaitOnEachOther runs a par.For whose iterations hand a
// value down a chain of unbuffered channels: iteration i receives what
// iteration i+1 sends, so every iteration must be running at once. Run from
// a task on a worker, each iteration needs a worker of its own: the loop
// finishes only if spares take the iterations the blocked workers hold.
// Run from outside, the caller's goroutine runs iterations too.
func TestIterationsWaitOnEachOther(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	for _, p := range []int{1, 2} {
		for _, n := range []int{2, 3, 16, 33} {
			for _, from := range []string{"task", "outside"} {
				t.Run(fmt.Sprintf("p=%d/n=%d/%s", p, n, from), func(t *testing.T) {
					iterationsWaitOnEachOther(t, p, n, from == "task")
				})
			}
		}
	}
}

func iterationsWaitOnEachOther(t *testing.T, p, n int, inTask bool) {
	pool := core.New(core.WithWorkers(p))
	defer pool.Close()
	ch := make([]chan int, n)
	for i := range ch {
		ch[i] = make(chan int)
	}
	got := make([]int, n)
	loop := func() {
		par.For(0, n, func(i int) {
			v := i
			if i < n-1 {
				v += <-ch[i+1]
			}
			got[i] = v
			if i > 0 {
				ch[i] <- v
			}
		}, par.WithPool(pool))
	}
	if inTask {
		pool.RunOn(0, func(*core.Worker) { loop() })
	} else {
		loop()
	}
	for i := range n {
		if want := (i + n - 1) * (n - i) / 2; got[i] != want {
			t.Fatalf("iteration %d got %d, want %d (the sum of %d..%d)", i, got[i], want, i, n-1)
		}
	}
	if s := pool.Stats(); inTask && s.SparesStarted == 0 && n > p {
		t.Errorf("%d iterations on %d workers finished without a spare", n, p)
	}
}

// TestRootWaitsForLockHolderRun: a root blocks on a mutex held by a
// goroutine that calls core.RunValue on the same pool before it unlocks. With
// every worker running such a root, the goroutines' roots find no worker
// but a spare.
func TestRootWaitsForLockHolderRun(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	for _, p := range []int{1, 2} {
		t.Run(fmt.Sprintf("p=%d", p), func(t *testing.T) {
			pool := core.New(core.WithWorkers(p))
			defer pool.Close()
			var mu sync.Mutex
			mu.Lock()
			var started sync.WaitGroup
			started.Add(p)
			var roots sync.WaitGroup
			results := make([]int, p)
			for k := range p {
				roots.Add(1)
				go func() {
					defer roots.Done()
					results[k] = core.RunValue(pool, func(w *core.Worker) int {
						started.Done()
						mu.Lock() // every worker ends up here
						defer mu.Unlock()
						return k + 1
					})
				}()
			}
			started.Wait()
			// The lock holder needs the pool before it lets go.
			v := core.RunValue(pool, func(w *core.Worker) int { return fib(w, 20) })
			mu.Unlock()
			roots.Wait()
			if v != fibSerial(20) {
				t.Fatalf("the lock holder's Run returned %d, want %d", v, fibSerial(20))
			}
			for k, r := range results {
				if r != k+1 {
					t.Fatalf("blocked root %d returned %d", k, r)
				}
			}
		})
	}
}

// TestManyRunsWhileAllBlocked runs 1000 roots while every worker is blocked
// (waiting in a task, no hint) until those roots are done, or 10 s at most:
// half from outside, which their callers' goroutines run, half from tasks
// of another pool, which wait in the pool's injector for a worker. All
// finish, so spares ran the second half; no more than WithMaxSpares spares
// ever run at once, and every spare has retired once the work is done. (A
// fixed 50 ms block was too short under -race on a loaded machine: the 1000
// callers kept every processor busy for all of it, and the pool rightly
// starts a spare only when a processor is idle.)
func TestManyRunsWhileAllBlocked(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	const p, bound, callers = 2, 6, 1000
	pool := core.New(core.WithWorkers(p), core.WithMaxSpares(bound))
	defer pool.Close()
	other := core.New(core.WithWorkers(1))
	defer other.Close()

	// Count the tasks running at once: never more than workers + spares.
	var running, most atomic.Int64
	enter := func() {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
	}
	var blockers sync.WaitGroup
	var asleep sync.WaitGroup
	rootsDone := make(chan struct{})
	asleep.Add(p)
	for id := range p {
		blockers.Add(1)
		go func() {
			defer blockers.Done()
			pool.RunOn(id, func(*core.Worker) {
				enter()
				defer running.Add(-1)
				asleep.Done()
				select {
				case <-rootsDone:
				case <-time.After(10 * time.Second): // no spare ran them: fails below
				}
			})
		}()
	}
	asleep.Wait() // every worker is blocked now

	var sawSpares atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			if s := pool.Stats().Spares; int64(s) > sawSpares.Load() {
				sawSpares.Store(int64(s))
			}
		}
	}()
	var wg sync.WaitGroup
	var bad atomic.Int64
	for g := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 5 + g%12
			var v int
			if g%2 == 0 {
				v = core.RunValue(pool, func(w *core.Worker) int { return fib(w, n) })
			} else {
				v = core.RunValue(other, func(*core.Worker) int {
					return core.RunValue(pool, func(w *core.Worker) int {
						enter()
						defer running.Add(-1)
						return fib(w, n)
					})
				})
			}
			if v != fibSerial(n) {
				bad.Add(1)
			}
		}()
	}
	wg.Wait()
	close(rootsDone)
	blockers.Wait()
	close(stop)
	sampler.Wait()
	if bad.Load() != 0 {
		t.Fatalf("%d of %d roots returned a wrong value", bad.Load(), callers)
	}
	if sawSpares.Load() > bound || most.Load() > p+bound {
		t.Fatalf("saw %d spares and %d roots running at once, bound %d spares + %d workers", sawSpares.Load(), most.Load(), bound, p)
	}
	s := pool.Stats()
	if s.SparesStarted == 0 {
		t.Fatal("the roots finished while every worker was blocked, but no spare was started")
	}
	// Every spare retires once it finds nothing to do. A spare leaves the
	// active count (Spares) at its task boundary and reaches the retired
	// list (Parked) a moment later, so both are awaited together.
	unparked := func(s core.Stats) *core.WorkerStats {
		for i := range s.PerWorker {
			if w := &s.PerWorker[i]; w.Spare && !w.Parked {
				return w
			}
		}
		return nil
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s = pool.Stats()
		if s.Spares == 0 && unparked(s) == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if s.Spares != 0 {
		t.Fatalf("%d spares still active 10 s after the work was done", s.Spares)
	}
	if w := unparked(s); w != nil {
		t.Fatalf("a spare is not parked 10 s after the work was done: %+v", *w)
	}
	t.Logf("spares started %d, at most %d at once (bound %d); %d roots running at most", s.SparesStarted, sawSpares.Load(), bound, most.Load())
}

// TestProgramsBlocking runs random programs whose leaves block (sleep, sleep
// under core.Blocking, or hand their value off to a goroutine that calls
// core.RunValue on the same pool) against the serial interpreter, on pools of 1,
// 2 and 4 workers and on Default.
func TestProgramsBlocking(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	pools := newPools(t, []int{1, 2, 4})
	pools = append(pools, core.Default())
	seeds, leaves := 40, 1500
	if testing.Short() || raceEnabled {
		seeds, leaves = 16, 800
	}
	if *seedFlag >= 0 {
		seeds = 1
	}
	for k := range uint64(seeds) {
		seed := 3_000_000 + k
		if *seedFlag >= 0 {
			seed = uint64(*seedFlag)
		}
		cfg := programConfig(seed, leaves)
		cfg.Blocking = 25
		checkProgram(t, Generate(seed, cfg), pools,
			fmt.Sprintf("go test ./harness/forktest -run 'TestProgramsBlocking$' -seed=%d -v", seed))
	}
}
