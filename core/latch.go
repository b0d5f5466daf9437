package core

import (
	"sync/atomic"

	"github.com/gofork/gofork/internal/lockfree"
)

// Latches (DESIGN.md, "Waiting inside a task"): what a worker waits on while
// it helps (helpUntil), and the protocol between the waiter, which may go
// to sleep on it, and whoever completes it.
//
// Memory order. Every operation below is a sequentially consistent atomic
// (Go's memory model), so the protocol is stated as happens-before edges:
//
//   - A probe that reports done sees everything the completer wrote before
//     it completed the latch (a frame's result and panicked, a root's,
//     a scope's finished tasks): completion is a Swap or an Add that the
//     probe's Load reads.
//   - No wake-up is lost (Dekker): the waiter announces (a store or CAS),
//     then probes (a load); the completer completes (a store), then looks
//     for an announcement (a load). One of the two sees the other's store:
//     either the waiter finds the latch done and does not sleep, or the
//     completer finds it announced and wakes the waiter (wakeWorker).
//   - Subtle: once a latch is complete its waiter may go on and recycle it
//     (a frame, a root record); the completer reads what it needs (the
//     waiter, the owner) before it completes, and nothing of the latch
//     after.

// A latch is what a worker waits on while it helps (helpUntil): a stolen
// frame's state (frameHeader), a root's state (rootHeader, for RunOn from
// a task) or a scope's count (scopeLatch). probe reports that it is done; announce
// records that w is about to sleep on it, or reports false if it is done
// already; withdraw undoes announce once w is awake. Whoever completes the
// latch after an announce must wake w (wakeWorker).
type latch interface {
	probe() bool
	announce(w *Worker) bool
	withdraw(w *Worker)
}

// Latch states of a frame (frameHeader.state), and of a root waited for by
// a worker (rootHeader.state).
const (
	framePending  uint32 = iota // not finished (or never stolen)
	frameDone                   // the thief finished it; result and panicked are valid
	frameSleeping               // the owner is asleep waiting for it; the thief must wake it
)

// A stolen frame's latch: the owner announces by moving state from pending
// to sleeping, and the thief that completes it (Swap to done) wakes the
// owner if it finds sleeping (endStolen); the thief knows the owner, it
// stole from it.
func (h *frameHeader) probe() bool { return h.state.Load() == frameDone } // pairs with the thief's Swap

func (h *frameHeader) announce(*Worker) bool {
	return h.state.CompareAndSwap(framePending, frameSleeping)
}

func (h *frameHeader) withdraw(*Worker) { h.state.CompareAndSwap(frameSleeping, framePending) }

// A root waited for by a worker (waiter) is a latch (helpUntil): see
// rootHeader.waiter; endRoot moves state to frameDone.
func (r *rootHeader) probe() bool { return r.state.Load() == frameDone } // pairs with endRoot's Swap

func (r *rootHeader) announce(*Worker) bool {
	return r.state.CompareAndSwap(framePending, frameSleeping)
}

func (r *rootHeader) withdraw(*Worker) { r.state.CompareAndSwap(frameSleeping, framePending) }

// A scopeLatch is one waiter of a scope: a Wait (below 1) or a Go blocked on
// the limit (below the limit), inside a task (w) or outside (ch).
//
// No wake-up is lost (Dekker, as in DESIGN.md "Sleep and wake"): announce
// adds the latch to the waiters and stores hasWaiters, then loads n;
// finish adds to n, then loads hasWaiters. With sequentially consistent
// atomics, either announce sees the new n (and withdraws), or finish sees
// hasWaiters and takes mu after announce released it, finding the latch.
type scopeLatch struct {
	s     *Scope
	below int64
	w     *Worker       // the waiting worker, or nil
	ch    chan struct{} // the waiting goroutine's signal (buffered 1), if w is nil
	fired atomic.Bool   // finish took it off the list and wakes it (withdraw has nothing to do)
}

// probe counts the jobs of the scope that the waiting worker has finished
// and not yet counted in n as done (only that worker calls it).
func (l *scopeLatch) probe() bool {
	n := l.s.n.Load()
	if l.w != nil {
		n -= l.w.unflushed(l.s)
	}
	return n < l.below
}

func (l *scopeLatch) announce(w *Worker) bool {
	s := l.s
	l.w = w
	l.fired.Store(false)
	s.mu.Lock()
	s.waiters = append(s.waiters, l)
	lockfree.DekkerStoreBool(&s.hasWaiters, true) // before the load of n
	if l.probe() {                                // loads n after hasWaiters: pairs with finish's Add
		s.drop(l)
		s.mu.Unlock()
		return false
	}
	s.mu.Unlock()
	return true
}

func (l *scopeLatch) withdraw(w *Worker) {
	if l.fired.Load() {
		return // finish took it off the list
	}
	s := l.s
	s.mu.Lock()
	s.drop(l)
	s.mu.Unlock()
}

// drop removes l from the waiters. Caller holds mu.
func (s *Scope) drop(l *scopeLatch) {
	for k, x := range s.waiters {
		if x == l {
			last := len(s.waiters) - 1
			s.waiters[k] = s.waiters[last]
			s.waiters[last] = nil
			s.waiters = s.waiters[:last]
			break
		}
	}
	s.hasWaiters.Store(len(s.waiters) > 0)
}
