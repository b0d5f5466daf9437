package core

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// A Scope counts tasks forked with Go, which may run in parallel on a pool,
// and lets Wait return once they are all done: a dynamic set of tasks, for
// work whose shape is not a tree known in advance (a crawl, a walk whose
// children are found as it goes). It is rayon's scope and TBB's
// task_group; package par builds its errgroup-shaped Group on it.
//
// Go from inside a task of the pool pushes the new task on the calling
// worker's job deque, where thieves take it, without a goroutine; from
// outside it submits it to the pool. Wait from inside a task keeps the
// worker busy (it runs the scope's tasks and any other work it finds)
// instead of blocking it; from outside it parks the goroutine. Tasks may
// call Go on their own scope and on others, and Wait on other scopes.
//
// The zero Scope is ready to use; a Scope must not be copied after first
// use. Go after Wait has returned starts a new round. A panic in a task is
// caught, the other tasks run on, and the next Wait panics with the first
// one as a *PanicError (once the scope's tasks are all done).
type Scope struct {
	// n counts the tasks forked and not finished (including those a Go
	// blocked on SetLimit has reserved), less those a worker has finished
	// and not yet counted (its doneCount); Wait returns when it is 0. Forks
	// add to it and workers subtract in batches: it sits on a cache line of
	// its own, away from what the tasks only read.
	n atomic.Int64
	_ [cacheLinePad - 8]byte
	// limit bounds n for Go and TryGo (SetLimit); < 0: no limit.
	limit atomic.Int64
	// limitSet tells a zero Scope (limit 0 means "none" then) from SetLimit(0).
	limitSet atomic.Bool
	// panicked is the first panic of a task since the last Wait.
	panicked atomic.Pointer[PanicError]

	mu sync.Mutex
	// waiters are the Waits and the blocked Gos sleeping until n drops
	// below their threshold; guarded by mu.
	waiters []*scopeLatch
	// hasWaiters is len(waiters) > 0, readable without mu: a finishing task
	// takes mu only when someone waits.
	hasWaiters atomic.Bool
}

// SetLimit bounds the number of the scope's tasks forked and not finished
// to n: Go then blocks (running other work, inside a task) until one
// finishes, and TryGo reports false. n < 0 removes the limit. It must not
// be called while tasks of the scope run.
func (s *Scope) SetLimit(n int) {
	if s.n.Load() != 0 {
		panic("core: SetLimit on a Scope with " + strconv.FormatInt(s.n.Load(), 10) + " tasks running")
	}
	s.limit.Store(int64(n))
	s.limitSet.Store(true)
}

// bound returns the limit on n, or -1.
func (s *Scope) bound() int64 {
	if !s.limitSet.Load() {
		return -1
	}
	return s.limit.Load()
}

// Go forks fn as a task of the scope on pool p and returns; fn receives the
// worker that runs it. Called from a task of p, it pushes the task on the
// worker's deque (thieves take the oldest first) and allocates nothing in
// steady state; from outside it submits it to p. With a limit reached, Go
// waits until a task of the scope finishes, as Wait does. It panics if p
// or fn is nil or p is closed.
func (s *Scope) Go(p *Pool, fn func(w *Worker)) {
	if fn == nil {
		panic("core: Scope.Go with a nil function")
	}
	s.GoWith(p, callFunc, fn)
}

func callFunc(w *Worker, arg any) { arg.(func(*Worker))(w) }

// GoWith is Go for fn(w, arg): with fn a top-level function or a method
// value made once, and arg a pointer, a func value or another value that
// fits an interface without allocating, a fork allocates nothing at all
// (Go's fn is usually a closure made for the call).
func (s *Scope) GoWith(p *Pool, fn func(w *Worker, arg any), arg any) {
	if p == nil {
		panic("core: Scope.Go on a nil *Pool")
	}
	if fn == nil {
		panic("core: Scope.Go with a nil function")
	}
	w := p.currentWorker()
	if w == nil {
		p.refuseClosed("Scope.Go") // before the count: most Gos on a closed pool stop here
	}
	if limit := s.bound(); limit >= 0 {
		s.reserve(p, w, limit)
	} else {
		s.n.Add(1)
	}
	s.fork(p, w, fn, arg)
}

// TryGo is Go that forks fn only if the limit allows it now, and reports
// whether it did.
func (s *Scope) TryGo(p *Pool, fn func(w *Worker)) bool {
	if fn == nil {
		panic("core: Scope.TryGo with a nil function")
	}
	return s.TryGoWith(p, callFunc, fn)
}

// TryGoWith is TryGo for fn(w, arg), as GoWith is Go's.
func (s *Scope) TryGoWith(p *Pool, fn func(w *Worker, arg any), arg any) bool {
	if p == nil {
		panic("core: Scope.TryGo on a nil *Pool")
	}
	if fn == nil {
		panic("core: Scope.TryGo with a nil function")
	}
	w := p.currentWorker()
	if w == nil {
		p.refuseClosed("Scope.TryGo") // before the count, as in GoWith
	}
	if limit := s.bound(); limit >= 0 {
		if !s.tryReserve(limit) {
			return false
		}
	} else {
		s.n.Add(1)
	}
	s.fork(p, w, fn, arg)
	return true
}

// reserve counts one more task, waiting while limit tasks run.
func (s *Scope) reserve(p *Pool, w *Worker, limit int64) {
	for !s.tryReserve(limit) {
		s.await(p, w, limit)
	}
}

// tryReserve counts one more task if fewer than limit are counted, and
// reports whether it did.
func (s *Scope) tryReserve(limit int64) bool {
	for {
		v := s.n.Load()
		if v >= limit {
			return false
		}
		if s.n.CompareAndSwap(v, v+1) {
			return true
		}
	}
}

// fork pushes or submits a task already counted in n.
func (s *Scope) fork(p *Pool, w *Worker, fn func(*Worker, any), arg any) {
	if w != nil && w.meter != nil {
		w.meter.goJob(job{fn: fn, arg: arg, scope: s}) // a measured run: it runs at the Wait
		return
	}
	if w != nil {
		w.jobs.Push(job{fn: fn, arg: arg, scope: s, labels: callerLabels()})
		if debugChecks {
			w.checkJobs()
		}
		if p.sleep.counts.Load() != 0 {
			p.notifyWork(w) // someone idles: wake a sleeper if nobody searches
		} else {
			p.gov.poke()
		}
		return
	}
	pos := s.forkOutside(p, fn, arg)
	p.notifyWork(nil) // wake a sleeper if nobody searches; poke the governor if all are busy
	if pos%outsideCheck == outsideCheck-1 && p.outside.Len() > outsideBacklog {
		// A producer far ahead of the workers (a loop of Go calls on a
		// goroutine that shares a processor with them) lets them run: the
		// backlog stays in a few segments, in cache and recycled, instead
		// of growing with the loop.
		runtime.Gosched()
	}
}

// forkOutside pushes a task of s, forked from outside the pool, on its
// outside queue, and returns its position there. The position counts the
// job in flight, as enter counts a root, until a worker counts it done in
// outsideDone: the governor watches it, and Close waits for it (pool.go).
// Close stores closed and then loads the queue's tail; the push claims its
// position and then loads closed (Q5 of lockfree.Queue): either Close
// counts the job and waits for it, or the push sees closed, leaves its
// position empty (a job with no fn, which workers skip), counts it done
// itself, gives back the count taken in s, and panics.
func (s *Scope) forkOutside(p *Pool, fn func(*Worker, any), arg any) int64 {
	pos, closed := p.outside.PushUnless(job{fn: fn, arg: arg, scope: s, outside: true, labels: callerLabels()}, &p.closed) // no lock; searching workers take batches (drainOutside)
	if closed {
		p.outsideFinished(1)
		s.finish(1)
		panic(closedPool)
	}
	if !p.gov.awake.Load() { // after the claim: pairs with the governor's store of awake, then look at busy
		p.gov.wake() // it may be resting, or not started: it watches from now on, as for a first root (enter)
	}
	return pos
}

// A goroutine outside the pool that forks jobs looks at the outside queue's
// backlog every outsideCheck jobs, and yields its processor while more than
// outsideBacklog wait.
const (
	outsideCheck   = 256
	outsideBacklog = 4096
)

// Wait waits until every task forked by Go on the scope has finished, then
// panics with the first panic of a task, if any. Called from a task of p it
// runs the scope's tasks (and other work) meanwhile; from outside it parks
// the calling goroutine. It panics if p is nil.
func (s *Scope) Wait(p *Pool) {
	if p == nil {
		panic("core: Scope.Wait on a nil *Pool")
	}
	s.await(p, p.currentWorker(), 1)
	if pe := s.panicked.Swap(nil); pe != nil {
		panic(pe)
	}
}

// Pending returns the number of tasks forked and not yet finished.
func (s *Scope) Pending() int { return int(s.n.Load()) }

// await returns once fewer than below tasks of the scope are unfinished:
// from inside a task (w != nil) it helps meanwhile, as a worker waiting on
// a stolen frame does; from outside it parks.
func (s *Scope) await(p *Pool, w *Worker, below int64) {
	if s.n.Load() < below {
		return
	}
	if w != nil && w.meter != nil && w.meter.awaitJobs(w, s, below) {
		return // a measured run ran the scope's tasks here
	}
	l := &scopeLatch{s: s, below: below, w: w}
	if w != nil {
		w.helpUntil(l, -1)
		w.flushDone() // what w finished of s counts now: n is exact once Wait returns
		return
	}
	l.ch = make(chan struct{}, 1)
	park := func() {
		if l.announce(nil) {
			<-l.ch // pairs with the send in finish
		}
	}
	if other := workerOf(curg()); other != nil {
		other.block(park) // a task of another pool: a spare stands in for its worker
		return
	}
	park()
}

// finish counts k tasks of the scope done and wakes the waiters whose
// threshold n has dropped below.
func (s *Scope) finish(k int64) {
	v := s.n.Add(-k)
	if debugChecks && v < 0 {
		panic("core: invariant: a Scope counts more tasks done than forked (n = " + strconv.FormatInt(v, 10) + ")")
	}
	if !s.hasWaiters.Load() { // pairs with the Store in announce (Dekker: see scopeLatch)
		return
	}
	var wake []*scopeLatch
	s.mu.Lock()
	// Compare with n now, not with the value this Add returned: a waiter
	// may have announced after a Go raised n again since, and waking it on
	// the stale value would let it go on while n is at its threshold.
	v = s.n.Load()
	keep := s.waiters[:0]
	for _, l := range s.waiters {
		if v < l.below {
			l.fired.Store(true)
			wake = append(wake, l)
		} else {
			keep = append(keep, l)
		}
	}
	clear(s.waiters[len(keep):])
	s.waiters = keep
	s.hasWaiters.Store(len(keep) > 0)
	s.mu.Unlock()
	outside := false
	for _, l := range wake {
		if l.w != nil {
			l.w.pool.wakeWorker(l.w)
		} else {
			l.ch <- struct{}{}
			outside = true
		}
	}
	if outside {
		// The goroutine woken sits in this processor's next-to-run slot;
		// let it run now rather than when the worker is preempted (see
		// runRoot): a stream's consumer forks its next item at once.
		runtime.Gosched()
	}
}
