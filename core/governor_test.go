package core

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestLostWakeupCounted makes the lost wake-up the sleep protocol rules
// out: with every worker asleep, a task is put on the outside queue without
// the notifyWork its producer owes. The governor must find it, wake a
// sleeper, and count the rescue in Stats.LostWakeups, which the other tests
// assert to be 0.
func TestLostWakeupCounted(t *testing.T) {
	p := New(WithWorkers(2))
	defer p.Close()
	if !waitAllAsleep(p, 10*time.Second) {
		t.Fatal("the workers did not go to sleep")
	}
	var s Scope
	var ran atomic.Bool
	s.n.Add(1)
	// Pushed and counted in flight as Scope.Go from outside does (the
	// governor watches), and no notifyWork: the wake-up is lost.
	s.forkOutside(p, callFunc, func(*Worker) { ran.Store(true) })
	s.Wait(p)
	if !ran.Load() {
		t.Fatal("the task did not run")
	}
	if n := p.Stats().LostWakeups; n == 0 {
		t.Fatal("the governor rescued the task without counting a lost wake-up")
	}
}

// TestLeavingSearcherWakesSleeper: a worker that a waker counted as
// searching and that leaves without searching (a waiter woken by its
// latch) while work published meanwhile waits, and another worker sleeps,
// wakes that worker itself: the producer saw a searcher and woke nobody.
// Without that, the work would wait for the governor's rescue, which the
// check at Close counts as a lost wake-up.
func TestLeavingSearcherWakesSleeper(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	if !waitAllAsleep(p, 10*time.Second) {
		t.Fatal("the workers did not go to sleep")
	}
	var s Scope
	ran := make(chan struct{})
	p.RunOn(0, func(w *Worker) {
		// Taking the root woke worker 1 to keep looking; let it sleep again.
		other := p.roster.Load().all[1]
		if !waitFor(10*time.Second, func() bool { return other.idleState() == asleep }) {
			t.Error("worker 1 did not go back to sleep")
		}
		// As a latch's completer hands w its wake-up: w counted searching.
		p.count(w, 1, 0)
		w.searching = true
		// A producer publishes work and sees a searcher: it wakes nobody.
		s.n.Add(1)
		s.forkOutside(p, callFunc, func(*Worker) { close(ran) })
		p.notifyWork(nil)
		// w goes back to its task without searching, and blocks there.
		w.stopSearching()
		select {
		case <-ran:
		case <-time.After(10 * time.Second): // hang detector only
			t.Error("the task published meanwhile never ran")
		}
	})
	s.Wait(p)
}
