package core

import (
	"sync"
	"sync/atomic"

	"github.com/gofork/gofork/internal/lockfree"
)

// Where submitted roots wait for a worker: the pool's injector (Run,
// Pool.Run), which any worker takes from, and each worker's inbox (RunOn),
// which only its worker takes from. Both count what they hold in the
// pool's rootsWaiting, which busy workers read at their poll points.

// injector is the pool-wide FIFO of roots submitted by Run from outside.
type injector struct {
	mu         sync.Mutex
	head, tail *rootHeader  // guarded by mu
	n          atomic.Int32 // queue length, readable without mu
	// since is the submit time of the head root (Pool.now), readable
	// without mu; meaningful while n > 0. Busy workers compare it with the
	// clock at their poll points (poll.go).
	since atomic.Int64
}

func (q *injector) push(r *rootHeader) {
	q.mu.Lock()
	if q.tail == nil {
		q.head = r
		q.since.Store(r.submitted)
	} else {
		q.tail.Next = r
	}
	q.tail = r
	q.n.Add(1) // after linking: a worker that sees n > 0 finds r under mu
	q.mu.Unlock()
}

// pop takes the oldest root, or nil. With olderThan >= 0 it takes it only
// if it was submitted at or before olderThan (Pool.now's clock).
func (q *injector) pop() *rootHeader { return q.popOlder(-1) }

func (q *injector) popOlder(olderThan int64) *rootHeader {
	if q.n.Load() == 0 {
		return nil
	}
	q.mu.Lock()
	r := q.head
	if r != nil && (olderThan < 0 || r.submitted <= olderThan) {
		q.head = r.Next
		if q.head == nil {
			q.tail = nil
		} else {
			q.since.Store(q.head.submitted)
		}
		r.Next = nil
		q.n.Add(-1)
	} else {
		r = nil
	}
	q.mu.Unlock()
	return r
}

// inbox is a worker's queue of roots submitted by RunOn: a lock-free
// multi-producer, single-consumer stack that the owning worker takes whole
// into its private list, oldest first.
type inbox struct {
	stack   lockfree.Stack[rootHeader, *rootHeader] // producers' stack
	pending *rootHeader                             // owner only: taken batch, oldest first
	// n counts the roots pushed and not yet taken to run, in stack or in
	// pending: what others (the governor, nudgeRoots) can read, since a
	// batch in pending is invisible in stack.
	n atomic.Int32
}

func (b *inbox) push(r *rootHeader) {
	b.n.Add(1) // before the push: n is never below the roots a reader could find
	b.stack.Push(r)
}

// ready reports whether a root waits. Owner only.
func (b *inbox) ready() bool { return b.pending != nil || !b.stack.Empty() }

// take returns the oldest submitted root, or nil. Owner only.
func (b *inbox) take() *rootHeader {
	if b.pending == nil {
		if b.pending = b.stack.TakeAll(); b.pending == nil {
			return nil
		}
	}
	r := b.pending
	b.pending = r.Next
	r.Next = nil
	b.n.Add(-1)
	return r
}
