package core

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitFor polls cond until it holds or the deadline passes; it reports
// whether it held. It synchronises on state, not on time: the deadline only
// turns a hang into a failure.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); !cond(); {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Microsecond)
	}
	return true
}

func TestBlockingOutsideTask(t *testing.T) {
	calls := 0
	Blocking(func() {
		calls++
		Blocking(func() { calls++ }) // nested
	})
	if calls != 2 {
		t.Fatalf("fn ran %d times, want 2", calls)
	}
	v := catch(func() { Blocking(func() { panic("boom") }) })
	if v != "boom" {
		t.Fatalf("a panic in fn outside a task reached the caller as %v, want boom", v)
	}
	expectPanic(t, "nil function", func() { Blocking(nil) })
}

// TestBlockingHandsOverTheWorker: the only worker of a pool blocks inside
// Blocking until a root submitted to a worker has run. Only a spare can
// run it.
func TestBlockingHandsOverTheWorker(t *testing.T) {
	pool := New(WithWorkers(1))
	defer pool.Close()
	got := onWorker(pool, func(w *Worker) int {
		var v int
		Blocking(func() {
			s := pool.Stats()
			if s.Blocked != 1 || s.Spares != 1 {
				t.Errorf("inside Blocking: %d blocked, %d spares; want 1 and 1", s.Blocked, s.Spares)
			}
			done := make(chan int)
			go func() { done <- onWorker(pool, func(w *Worker) int { return fib(w, 15) }) }()
			v = <-done
		})
		return v
	})
	if got != fibSerial(15) {
		t.Fatalf("the root run by the spare returned %d, want %d", got, fibSerial(15))
	}
	s := pool.Stats()
	if s.Blocked != 0 || s.SparesStarted != 1 {
		t.Fatalf("after Blocking: %d blocked, %d spares started; want 0 and 1", s.Blocked, s.SparesStarted)
	}
	if !waitFor(time.Minute, func() bool { return pool.Stats().Spares == 0 }) { // liveness, not a latency: generous under load
		t.Fatal("the spare did not retire once its worker was back")
	}
}

// TestBlockingNested counts a worker once however deep its Blocking calls
// nest.
func TestBlockingNested(t *testing.T) {
	pool := New(WithWorkers(2))
	defer pool.Close()
	onWorker(pool, func(w *Worker) int {
		Blocking(func() {
			Blocking(func() {
				if s := pool.Stats(); s.Blocked != 1 || s.SparesStarted != 1 {
					t.Errorf("nested Blocking: %d blocked, %d spares started; want 1 and 1", s.Blocked, s.SparesStarted)
				}
			})
		})
		return 0
	})
}

// TestBlockingPanic: a panic in fn inside a task reaches Run's caller as the
// task's panic, and the worker is no longer counted as blocked.
func TestBlockingPanic(t *testing.T) {
	pool := New(WithWorkers(2))
	defer pool.Close()
	sentinel := errors.New("fetch failed")
	v := catch(func() {
		RunValue(pool, func(w *Worker) int {
			a, b := Join(w, fib, 10, func(w *Worker, n int) int {
				Blocking(func() { Blocking(func() { panic(sentinel) }) })
				return n
			}, 3)
			return a + b
		})
	})
	pe, ok := v.(*PanicError)
	if !ok || !errors.Is(pe, sentinel) {
		t.Fatalf("Run panicked with %v, want a *PanicError wrapping %v", v, sentinel)
	}
	if s := pool.Stats(); s.Blocked != 0 {
		t.Fatalf("%d workers still counted as blocked after the panic", s.Blocked)
	}
	if got := RunValue(pool, func(w *Worker) int { return fib(w, 12) }); got != fibSerial(12) {
		t.Fatalf("the pool after the panic computed %d", got)
	}
}

// TestBlockingOverlapsBeyondWorkers: 32 functions that each block until all
// 32 are blocked at once finish on a pool of 2 workers. Invoke shares the
// functions not yet started before each one runs, and every Blocking call
// hands its worker's role to a spare, which takes the next one.
func TestBlockingOverlapsBeyondWorkers(t *testing.T) {
	const n = 32
	pool := New(WithWorkers(2))
	defer pool.Close()
	var inside sync.WaitGroup
	inside.Add(n)
	all := make(chan struct{})
	go func() { inside.Wait(); close(all) }()
	var timedOut atomic.Bool
	fns := make([]func(*Worker), n)
	for i := range fns {
		fns[i] = func(*Worker) {
			Blocking(func() {
				inside.Done()
				select {
				case <-all:
				case <-time.After(20 * time.Second):
					timedOut.Store(true) // turns a hang into a failure
				}
			})
		}
	}
	onWorker(pool, func(w *Worker) int { Invoke(w, fns...); return 0 })
	if timedOut.Load() {
		t.Fatalf("the %d blocked functions were never all running at once", n)
	}
	if s := pool.Stats(); s.SparesStarted < n-2 {
		t.Fatalf("%d spares started for %d blocked functions on 2 workers", s.SparesStarted, n)
	}
}

// TestMaxSpares: with WithMaxSpares(3), no more than 2 workers + 3 spares
// run blocked functions at once, the refusals are counted, and everything
// still finishes.
func TestMaxSpares(t *testing.T) {
	const n, p, bound = 24, 2, 3
	pool := New(WithWorkers(p), WithMaxSpares(bound))
	defer pool.Close()
	var inside, most atomic.Int64
	var ran atomic.Int64
	fns := make([]func(*Worker), n)
	for i := range fns {
		fns[i] = func(*Worker) {
			Blocking(func() {
				k := inside.Add(1)
				for m := most.Load(); k > m && !most.CompareAndSwap(m, k); m = most.Load() {
				}
				time.Sleep(2 * time.Millisecond)
				inside.Add(-1)
			})
			ran.Add(1)
		}
	}
	onWorker(pool, func(w *Worker) int { Invoke(w, fns...); return 0 })
	s := pool.Stats()
	if ran.Load() != n {
		t.Fatalf("%d of %d functions ran", ran.Load(), n)
	}
	if most.Load() > p+bound {
		t.Fatalf("%d functions blocked at once, more than %d workers + %d spares", most.Load(), p, bound)
	}
	if s.SpareLimitHits == 0 {
		t.Fatalf("no spare was refused with %d blocking functions and WithMaxSpares(%d)", n, bound)
	}
	spares := 0
	for _, w := range s.PerWorker {
		if w.Spare {
			spares++
		}
	}
	if spares > bound {
		t.Fatalf("%d spare workers created, more than the bound %d", spares, bound)
	}
	expectPanic(t, "WithMaxSpares(-1)", func() { New(WithMaxSpares(-1)) })
}

// TestNoSpares: with WithMaxSpares(0) Blocking still runs fn, on the
// worker, and starts nothing.
func TestNoSpares(t *testing.T) {
	pool := New(WithWorkers(1), WithMaxSpares(0))
	defer pool.Close()
	ran := false
	onWorker(pool, func(w *Worker) int { Blocking(func() { ran = true }); return 0 })
	if s := pool.Stats(); !ran || s.SparesStarted != 0 || s.SpareLimitHits != 1 {
		t.Fatalf("ran %v, %d spares started, %d refused; want true, 0, 1", ran, s.SparesStarted, s.SpareLimitHits)
	}
}

// TestRunOnOtherPoolBlocks: a task of one pool that calls Run on another
// pool waits as Blocking does, so its pool's other work goes on meanwhile.
func TestRunOnOtherPoolBlocks(t *testing.T) {
	a := New(WithWorkers(1))
	defer a.Close()
	b := New(WithWorkers(1))
	defer b.Close()
	release := make(chan struct{})
	got := onWorker(a, func(w *Worker) int {
		// b's only task waits until a root submitted to a has run: a's
		// only worker waits in RunValue(b, ...), so a spare of a must run it.
		return RunValue(b, func(*Worker) int {
			go func() { onWorker(a, func(w *Worker) int { return fib(w, 10) }); close(release) }()
			<-release
			return 7
		})
	})
	if got != 7 {
		t.Fatalf("Run across pools returned %d, want 7", got)
	}
	if s := a.Stats(); s.SparesStarted == 0 {
		t.Fatal("pool a started no spare while its only worker waited on pool b")
	}
}

// TestStatsSparesAfterClose checks that Stats.Spares, the spares running
// now, is 0 once Close has returned, also for spares that were active
// (asleep, still wanted or not yet retired) when the pool quit.
func TestStatsSparesAfterClose(t *testing.T) {
	for range 5 {
		p := New(WithWorkers(2))
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				onWorker(p, func(w *Worker) int {
					Blocking(func() { time.Sleep(time.Millisecond) })
					return 0
				})
			}()
		}
		wg.Wait()
		started := p.Stats().SparesStarted
		p.Close()
		if s := p.Stats(); s.Spares != 0 {
			t.Fatalf("closed pool reports Stats.Spares = %d (%d started)", s.Spares, started)
		}
	}
}

// TestWorkerIDsBelowMaxWorkerID checks MaxWorkerID's contract while spares
// are being created: every task sees an ID below MaxWorkerID read in the
// task, so a table sized by MaxWorkerID in a task can be indexed by the ID.
// A new spare must not run a task before a roster counts it. Each round
// starts fresh spares on a fresh pool: tasks that block, under a Scope of
// short tasks that the spares steal.
func TestWorkerIDsBelowMaxWorkerID(t *testing.T) {
	var bad atomic.Int32
	for range scale(20) {
		p := New(WithWorkers(2))
		var s Scope
		onWorker(p, func(w *Worker) int {
			for i := range 400 {
				s.Go(p, func(w *Worker) {
					if w.ID() >= w.Pool().MaxWorkerID() {
						bad.Add(1)
					}
					if i%50 == 0 {
						Blocking(func() { time.Sleep(200 * time.Microsecond) })
					}
				})
			}
			s.Wait(p)
			return 0
		})
		closeChecked(t, p)
	}
	if n := bad.Load(); n != 0 {
		t.Fatalf("%d tasks ran on a worker whose ID was not below MaxWorkerID", n)
	}
}
