package core

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// joinOnly is a recursion made of plain Joins, with no other poll point:
// at P = 1 no steal ever happens in it.
func joinOnly(w *Worker, n int) int {
	if n < 2 {
		return n
	}
	x, y := Join(w, joinOnly, n-1, joinOnly, n-2)
	return x + y
}

// joinsUntil submits to worker 0 of p a root that runs plain Joins (after
// wait returns, no poll point of its own) until done reports true, or for
// at most a guard of 10 s. It returns once the root has started; the
// channel gets whether done came true before the guard ran out.
func joinsUntil(p *Pool, wait func(), done func() bool) <-chan bool {
	started := make(chan struct{})
	ok := make(chan bool, 1)
	go func() {
		var r bool
		p.RunOn(0, func(w *Worker) {
			close(started)
			wait()
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
				if done() {
					r = true
					return
				}
				joinOnly(w, 20)
			}
		})
		ok <- r
	}()
	<-started
	return ok
}

// TestRootNotStuckBehindJoins checks that a root submitted while a
// computation made only of plain Joins holds every worker runs before that
// computation ends: the governor asks the busy worker to reach a poll point
// (nudgeRoots), where it takes the root. Before the governor asked, the
// small root waited for the big one to end, which here meant the whole
// guard of joinsUntil.
func TestRootNotStuckBehindJoins(t *testing.T) {
	for _, via := range []string{"Run", "RunOn"} {
		p := New(WithWorkers(1))
		var small atomic.Bool
		bigDone := joinsUntil(p, func() {}, small.Load)
		switch via {
		case "Run":
			RunValue(p, func(w *Worker) int { return joinOnly(w, 5) })
		case "RunOn":
			p.RunOn(0, func(w *Worker) { joinOnly(w, 5) })
		}
		small.Store(true)
		if !<-bigDone {
			t.Errorf("%s: a small root waited until the plain-Join computation in front of it had run 10 s", via)
		}
		p.Close()
	}
}

// TestRootsNotStuckInPendingInbox sends two RunOn roots to a worker busy
// with plain Joins before it reaches any poll point: the first one it
// attends to moves both out of the inbox's shared stack into its private
// batch, where the governor must still see the second one waiting.
func TestRootsNotStuckInPendingInbox(t *testing.T) {
	p := New(WithWorkers(1))
	var small atomic.Int32
	bigDone := joinsUntil(p, func() {
		for p.rootsWaiting.Load() < 2 {
			runtime.Gosched() // not a poll point: both roots get into the inbox first
		}
	}, func() bool { return small.Load() == 2 })
	for range 2 {
		go func() {
			p.RunOn(0, func(w *Worker) { joinOnly(w, 5) })
			small.Add(1)
		}()
	}
	if !<-bigDone {
		t.Fatalf("%d of 2 RunOn roots ran while the plain-Join computation ran 10 s", small.Load())
	}
	p.Close()
}
