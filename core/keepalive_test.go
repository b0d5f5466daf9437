package core

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestKeepAliveOption(t *testing.T) {
	expectPanic(t, "core: WithKeepAlive(-1ms)", func() { New(WithKeepAlive(-time.Millisecond)) })
	if DefaultKeepAlive <= 0 || DefaultKeepAlive > time.Minute {
		t.Errorf("DefaultKeepAlive = %v, want in (0, 1 min]", DefaultKeepAlive)
	}
	if d := Default().cfg.keepAlive; d != DefaultKeepAlive {
		t.Errorf("the Default pool's keep-alive is %v, want DefaultKeepAlive (%v)", d, DefaultKeepAlive)
	}
	p := New(WithWorkers(1))
	defer closeChecked(t, p)
	if d := p.cfg.keepAlive; d != DefaultKeepAlive {
		t.Errorf("New() has keep-alive %v, want DefaultKeepAlive (%v)", d, DefaultKeepAlive)
	}
}

// rendezvous runs n tasks forked from outside on p that each wait until
// all n run at once, and returns the workers that ran them: it returns
// only if the pool runs n tasks at the same time.
func rendezvous(t *testing.T, p *Pool, n int) map[int]bool {
	t.Helper()
	var arrived atomic.Int32
	var mu sync.Mutex
	ran := map[int]bool{}
	var s Scope
	deadline := time.Now().Add(30 * time.Second) // a guard against a hang, not a bound on speed
	for range n {
		s.Go(p, func(w *Worker) {
			mu.Lock()
			ran[w.ID()] = true
			mu.Unlock()
			arrived.Add(1)
			for int(arrived.Load()) < n && time.Now().Before(deadline) {
				runtime.Gosched()
			}
		})
	}
	s.Wait(p)
	if int(arrived.Load()) < n {
		t.Fatalf("only %d of %d tasks ran", arrived.Load(), n)
	}
	return ran
}

// TestKeepAliveGoroutines: the workers and spares of an idle pool end
// their goroutines after the keep-alive, and come back at full width on
// the next call, with correct results.
func TestKeepAliveGoroutines(t *testing.T) {
	const workers, blocked = 3, 6
	base := runtime.NumGoroutine()
	p := New(WithWorkers(workers), WithKeepAlive(20*time.Millisecond))
	defer closeChecked(t, p)

	// Spares: tasks that block, all at once, in Blocking.
	var arrived atomic.Int32
	release := make(chan struct{})
	var s Scope
	for range blocked {
		s.Go(p, func(*Worker) {
			Blocking(func() {
				if arrived.Add(1) == blocked {
					close(release)
				}
				<-release
			})
		})
	}
	s.Wait(p)
	if p.spares.started.Load() == 0 {
		t.Fatalf("no spare started for %d tasks blocked on %d workers", blocked, workers)
	}
	started := len(p.roster.Load().all)

	for round := range 3 {
		if !waitFor(10*time.Second, func() bool { return p.goroutines.Load() == 0 }) {
			t.Fatalf("round %d: %d worker goroutines still run 10 s after the pool went idle (keep-alive 20 ms)", round, p.goroutines.Load())
		}
		// What remains: the governor, parked.
		if !waitFor(10*time.Second, func() bool { return runtime.NumGoroutine() <= base+1 }) {
			t.Fatalf("round %d: %d goroutines, want at most %d (before New) + 1 (the governor)", round, runtime.NumGoroutine(), base)
		}
		if got := rendezvous(t, p, workers); len(got) != workers {
			t.Fatalf("round %d: %d tasks that wait for each other ran on %d workers", round, workers, len(got))
		}
		if got, want := RunValue(p, func(w *Worker) int { return fib(w, 20) }), fibSerial(20); got != want {
			t.Fatalf("round %d: fib(20) = %d, want %d", round, got, want)
		}
	}
	if n := len(p.roster.Load().all); n > started+1 { // a guest record may be added
		t.Errorf("the pool made %d worker records, %d before the keep-alive ran out: records are reused", n, started)
	}
}

// TestKeepAliveChurn: roots arrive at random gaps around a keep-alive of
// 1 ms, so that they meet workers whose goroutines are ending: every root
// completes, and no wake-up is lost.
func TestKeepAliveChurn(t *testing.T) {
	roots := 400
	if testing.Short() || raceEnabled {
		roots = 120
	}
	p := New(WithWorkers(3), WithKeepAlive(time.Millisecond), WithMaxSpares(4))
	defer closeChecked(t, p)
	const callers = 3
	var wg sync.WaitGroup
	var done atomic.Int32
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 38))
			for i := range roots / callers {
				time.Sleep(time.Duration(rng.IntN(2500)) * time.Microsecond) // the gap: load, not synchronisation
				switch i % 4 {
				case 0:
					if got := RunValue(p, func(w *Worker) int { return fib(w, 14) }); got != fibSerial(14) {
						t.Errorf("fib(14) = %d", got)
					}
				case 1: // tasks forked from outside, some blocking: spares come and go
					var s Scope
					var n atomic.Int32
					for k := range 8 {
						s.Go(p, func(*Worker) {
							if k%4 == 0 {
								Blocking(func() { time.Sleep(50 * time.Microsecond) })
							}
							n.Add(1)
						})
					}
					s.Wait(p)
					if n.Load() != 8 {
						t.Errorf("%d of 8 scope tasks ran", n.Load())
					}
				case 2: // a root for one worker, which may have no goroutine
					var ran bool
					p.RunOn(rng.IntN(p.Workers()), func(*Worker) { ran = true })
					if !ran {
						t.Error("RunOn returned without running its root")
					}
				default:
					if got := RunValue(p, func(w *Worker) int {
						x, y := Join(w, fib, 12, func(w *Worker, n int) int {
							return RunValue(p, func(w *Worker) int { return fib(w, n) })
						}, 13)
						return x + y
					}); got != fibSerial(12)+fibSerial(13) {
						t.Errorf("nested fib = %d", got)
					}
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if int(done.Load()) != callers*(roots/callers) {
		t.Fatalf("%d of %d roots completed", done.Load(), callers*(roots/callers))
	}
	if n := p.Stats().LostWakeups; n != 0 {
		t.Fatalf("%d lost wake-ups", n)
	}
	if p.revivals.Load() == 0 {
		t.Fatal("no worker goroutine ended and started again: the test did not churn")
	}
	t.Logf("%d worker goroutines started again after their keep-alive", p.revivals.Load())
}

// TestKeepAliveZeroKeepsWorkers: WithKeepAlive(0) keeps the goroutines.
func TestKeepAliveZeroKeepsWorkers(t *testing.T) {
	p := New(WithWorkers(2), WithKeepAlive(0), WithSpin(0))
	defer closeChecked(t, p)
	RunValue(p, func(w *Worker) int { return fib(w, 16) })
	if !waitAllAsleep(p, 10*time.Second) {
		t.Fatal("workers still awake 10 s after the last Run")
	}
	if n := p.goroutines.Load(); n != 2 {
		t.Fatalf("%d worker goroutines with WithKeepAlive(0), want 2", n)
	}
}
