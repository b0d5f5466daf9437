package forktest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// TestGOMAXPROCSChanges runs random programs on pools of 2 and 8 workers,
// on two pools that follow GOMAXPROCS (core.New without WithWorkers) and
// on the Default pool while another goroutine keeps changing GOMAXPROCS
// between 1 and 4: workers are added, parked and woken again while forks
// are stolen and joins wait.
func TestGOMAXPROCSChanges(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	pools := newPools(t, []int{2, 8})
	for range 2 {
		p := core.New()
		t.Cleanup(p.Close)
		pools = append(pools, p)
	}
	pools = append(pools, core.Default())
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)

	stop := make(chan struct{})
	var flips atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			runtime.GOMAXPROCS(1 + i%4)
			flips.Add(1)
			time.Sleep(200 * time.Microsecond) // pacing, not synchronisation
		}
	}()
	seeds := 60
	if raceEnabled {
		seeds = 20
	}
	for seed := range uint64(seeds) {
		checkSeed(t, 1_000_000+seed, programLeaves(), pools)
	}
	close(stop)
	wg.Wait()
	t.Logf("GOMAXPROCS changed %d times during %d programs x %d pools", flips.Load(), seeds, len(pools))
	// Once the changes stop, a pool made without WithWorkers follows the
	// last GOMAXPROCS from its next Run on (capped at the CPUs), one made
	// with WithWorkers keeps its count, and both still compute right.
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		for _, p := range pools {
			core.RunValue(p, func(*core.Worker) int { return 0 }) // a Run from outside reads GOMAXPROCS
		}
		if got, want := pools[2].Workers(), min(procs, runtime.NumCPU()); got != want {
			t.Errorf("GOMAXPROCS(%d): a pool made without WithWorkers has %d workers, want %d", procs, got, want)
		}
		if got := pools[1].Workers(); got != 8 {
			t.Errorf("GOMAXPROCS(%d): a pool made WithWorkers(8) has %d workers, want 8", procs, got)
		}
		checkSeed(t, 2_000_000+uint64(procs), programLeaves(), pools)
	}
}

// TestOversubscribed runs programs on pools with far more workers than the
// machine has CPUs.
func TestOversubscribed(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	n := 8 * runtime.NumCPU()
	pools := newPools(t, []int{n, 2 * n, 257})
	seeds := 30
	if raceEnabled {
		seeds = 10
	}
	for seed := range uint64(seeds) {
		checkSeed(t, 2_000_000+seed, programLeaves(), pools)
	}
	for _, pool := range pools {
		checkHealthy(t, pool, 50)
	}
}

// TestNestedPools has tasks of one pool call Run on another: the worker of
// the outer pool blocks until the inner pool is done, which must not
// deadlock as long as the inner pool does not call back.
func TestNestedPools(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	pools := newPools(t, []int{2, 3})
	outer, inner := pools[0], pools[1]
	want := fibSerial(10)
	var bad atomic.Int64
	par.For(0, 200, func(i int) {
		if core.RunValue(inner, func(w *core.Worker) int { return fibJoin(w, 10) }) != want {
			bad.Add(1)
		}
	}, par.WithPool(outer), par.Simple(1))
	if bad.Load() != 0 {
		t.Errorf("%d of 200 inner runs gave a wrong fib(10)", bad.Load())
	}
}

// TestCloseWhileRunning closes a pool while 16 goroutines keep calling Run on
// it: each call completes with the right value or panics with a message that
// says the pool is closed, Close returns, and nothing hangs (a watchdog dumps
// every stack if no goroutine makes progress for 10 s).
func TestCloseWhileRunning(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	rounds := 20
	if raceEnabled {
		rounds = 5
	}
	for round := range rounds {
		pool := core.New(core.WithWorkers(1 + round%4))
		const callers = 16
		want := fibSerial(14)
		var progress, completed, refused atomic.Int64
		var started sync.WaitGroup
		var wg sync.WaitGroup
		errs := make(chan string, callers)
		started.Add(callers)
		for c := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				first := true
				defer func() {
					if first {
						started.Done()
					}
				}()
				for i := 0; ; i++ {
					var got int
					v := catch(func() {
						if c%2 == 0 {
							got = core.RunValue(pool, func(w *core.Worker) int { return fibJoin(w, 14) })
						} else {
							var sum atomic.Int64
							par.For(0, 500, func(i int) { sum.Add(int64(i)) }, par.WithPool(pool), par.Grain(8))
							got = int(sum.Load()) - 499*500/2 + want
						}
					})
					progress.Add(1)
					if v != nil {
						msg := fmt.Sprint(Unwrap(v))
						if !strings.Contains(msg, "closed") {
							errs <- fmt.Sprintf("caller %d: Run panicked with %q, want a message saying the pool is closed", c, msg)
						}
						refused.Add(1)
						return
					}
					if got != want {
						errs <- fmt.Sprintf("caller %d: call %d gave %d, want %d", c, i, got, want)
						return
					}
					completed.Add(1)
					if first {
						first = false
						started.Done()
					}
				}
			}()
		}
		started.Wait() // every caller has completed a Run: Close lands among running calls
		stopDog, fired := watchdog(t, &progress, 10*time.Second)
		closed := make(chan struct{})
		go func() {
			var cw sync.WaitGroup
			for range 2 { // two concurrent Closes: both return once the pool is shut
				cw.Add(1)
				go func() { defer cw.Done(); pool.Close() }()
			}
			cw.Wait()
			wg.Wait()
			close(closed)
		}()
		select {
		case <-closed:
		case msg := <-fired:
			t.Fatalf("round %d: %s", round, msg)
		}
		stopDog()
		close(errs)
		for msg := range errs {
			t.Errorf("round %d: %s", round, msg)
		}
		if refused.Load() != callers {
			t.Errorf("round %d: %d of %d callers were refused after Close", round, refused.Load(), callers)
		}
		// Close is idempotent, and Close from inside a task panics clearly.
		pool.Close()
	}

	pool := core.New(core.WithWorkers(2))
	v := catch(func() { core.RunValue(pool, func(*core.Worker) int { pool.Close(); return 0 }) })
	if msg := fmt.Sprint(Unwrap(v)); !strings.Contains(msg, "Close") {
		t.Errorf("Close from inside a task: panic %q, want one naming Close", msg)
	}
	pool.Close()
	if v := catch(func() { core.RunValue(pool, func(*core.Worker) int { return 1 }) }); !strings.Contains(fmt.Sprint(Unwrap(v)), "closed") {
		t.Errorf("Run on a closed pool: panic %v, want one saying the pool is closed", v)
	}
}

// chain is a Join recursion depth levels deep whose stealable half is a small
// fib: the deques grow far past their initial slots while thieves take
// frames at every depth.
func chain(w *core.Worker, depth int) int {
	if depth == 0 {
		return 0
	}
	a, b := core.Join(w, chain, depth-1, fibJoin, 6)
	return a + b
}

// TestDeepJoin runs Join recursions tens of thousands of levels deep.
func TestDeepJoin(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	depth := 50000
	if raceEnabled {
		depth = 5000
	}
	want := depth * fibSerial(6)
	for _, pool := range newPools(t, []int{1, 2, 4, 7}) {
		for range 3 {
			if got := core.RunValue(pool, func(w *core.Worker) int { return chain(w, depth) }); got != want {
				t.Fatalf("P=%d: chain of %d Joins = %d, want %d", pool.Workers(), depth, got, want)
			}
		}
	}
}

// TestPoolChurn creates and closes pools in a loop from several goroutines
// at once, each pool running a few jobs, while other goroutines use the
// Default pool: worker goroutines come and go (and their g structures are
// reused), and no pool may mistake a new goroutine for one of its workers.
func TestPoolChurn(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	pools := 100
	if raceEnabled {
		pools = 30
	}
	want := fibSerial(12)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range pools {
				pool := core.New(core.WithWorkers(1 + (g+i)%5))
				for range 3 {
					if got := core.RunValue(pool, func(w *core.Worker) int { return fibJoin(w, 12) }); got != want {
						errs <- fmt.Sprintf("goroutine %d pool %d: fib(12) = %d", g, i, got)
					}
				}
				pool.Close()
				if got := core.RunValue(core.Default(), func(w *core.Worker) int { return fibJoin(w, 12) }); got != want {
					errs <- fmt.Sprintf("goroutine %d: Default fib(12) = %d", g, got)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
}
