package core

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunOnEachOther checks that tasks on two workers that RunOn each other
// at the same moment both finish: a worker waiting for its RunOn root must
// still take the root the other sends it. With the waiting worker parked,
// each waited for a root that only the other could run.
func TestRunOnEachOther(t *testing.T) {
	p := New(WithWorkers(2))
	defer func() {
		if !t.Failed() { // a hung pool cannot close
			p.Close()
		}
	}()
	iters := 300
	if raceEnabled {
		iters = 50
	}
	for iter := range iters {
		var barrier sync.WaitGroup
		barrier.Add(2)
		var ran [2]atomic.Int32
		var wg sync.WaitGroup
		for id := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.RunOn(id, func(w *Worker) {
					barrier.Done()
					barrier.Wait() // both run now, one on each worker
					p.RunOn(1-id, func(w *Worker) {
						if w.ID() == 1-id {
							ran[1-id].Add(1)
						}
					})
				})
			}()
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("iteration %d: RunOn(1) from a task on worker 0 and RunOn(0) from one on worker 1 deadlock", iter)
		}
		if ran[0].Load() != 1 || ran[1].Load() != 1 {
			t.Fatalf("iteration %d: the nested roots ran %d and %d times on their workers, want once each", iter, ran[0].Load(), ran[1].Load())
		}
	}
}

// TestRunOnFromScopeTasks runs many Scope tasks that each RunOn one of three
// workers, which also run Scope tasks that RunOn the others, with a panic
// in some roots: every root runs once, on its worker, and panics reach
// their RunOn caller.
func TestRunOnFromScopeTasks(t *testing.T) {
	p := New(WithWorkers(3))
	defer func() {
		if !t.Failed() { // a hung pool cannot close
			p.Close()
		}
	}()
	const n = 120
	var on [3]atomic.Int32
	var wrong, panics atomic.Int32
	var s Scope
	done := make(chan struct{})
	go func() {
		defer close(done)
		RunValue(p, func(w *Worker) int {
			for i := range n {
				s.Go(p, func(w *Worker) {
					id := i % 3
					v := catch(func() {
						p.RunOn(id, func(w *Worker) {
							if w.ID() != id {
								wrong.Add(1)
							}
							on[id].Add(1)
							time.Sleep(10 * time.Microsecond)
							if i%10 == 0 {
								panic(i)
							}
						})
					})
					if v != nil {
						if pe, ok := v.(*PanicError); !ok || pe.Value != i {
							wrong.Add(1)
						}
						panics.Add(1)
					}
				})
			}
			s.Wait(p)
			return 0
		})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Scope tasks that RunOn the pool's workers hang")
	}
	if got := on[0].Load() + on[1].Load() + on[2].Load(); got != n || wrong.Load() != 0 || panics.Load() != n/10 {
		t.Fatalf("%d roots ran (want %d), %d on a wrong worker or with a wrong panic, %d panics (want %d)",
			got, n, wrong.Load(), panics.Load(), n/10)
	}
}

// TestRunOnChainThroughLimitedWorker runs RunOn(1) -> RunOn(0) -> RunOn(1)
// while worker 1 is beyond the GOMAXPROCS limit: worker 1, waiting for its
// RunOn to worker 0, must still take the root sent back to it. A worker
// beyond the limit waits on its latch without helping, and used to ignore
// its inbox there.
func TestRunOnChainThroughLimitedWorker(t *testing.T) {
	old := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(old)
	p := New() // follows GOMAXPROCS
	RunValue(p, func(w *Worker) int { return 0 })
	runtime.GOMAXPROCS(1)
	p.refreshLimit() // worker 1 is beyond the limit now
	var ran atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.RunOn(1, func(w *Worker) {
			p.RunOn(0, func(w *Worker) {
				p.RunOn(1, func(w *Worker) { ran.Add(1) })
			})
		})
	}()
	select {
	case <-done:
		p.Close()
	case <-time.After(10 * time.Second):
		t.Fatal("RunOn(1) -> RunOn(0) -> RunOn(1) with worker 1 beyond the limit hangs")
	}
	if ran.Load() != 1 {
		t.Fatalf("the innermost root ran %d times", ran.Load())
	}
}

// TestRunOnRootGoexitAtPollPoint runs, again and again, a root that calls
// runtime.Goexit on a worker busy with plain Joins, where it is taken at a
// poll point with a hand-back: the caller's acknowledgement must not be
// left in the recycled job, where the next such caller would block on it.
func TestRunOnRootGoexitAtPollPoint(t *testing.T) {
	p := New(WithWorkers(1))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 8 {
			started := make(chan struct{})
			bigDone := make(chan any)
			go func() {
				bigDone <- catch(func() {
					p.RunOn(0, func(w *Worker) {
						close(started)
						for {
							joinOnly(w, 15) // plain Joins only; ended by the Goexit below
						}
					})
				})
			}()
			<-started
			catch(func() { p.RunOn(0, func(w *Worker) { runtime.Goexit() }) })
			<-bigDone
		}
	}()
	select {
	case <-done:
		p.Close()
	case <-time.After(20 * time.Second):
		t.Fatal("a RunOn of a root that calls Goexit at a poll point never returns")
	}
}
