package core

import (
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/gofork/gofork/internal/lockfree"
)

// Run runs root on a worker of p and returns its result. It may be called
// from any goroutine, by many goroutines at once.
//
// From an ordinary goroutine, Run submits root to the pool and parks the
// caller until it is done. From inside a task of p (a nested parallel loop, a
// library that uses gofork called from gofork code), Run runs root at once on
// the current worker: no deadlock even when every worker does it. From
// inside a task of another pool, Run submits root to p and waits as
// Blocking does: a spare of the other pool stands in for the waiting worker.
//
// A root waits for a worker at most until a busy worker of p reaches a poll
// point (Poll, Share, a par block, a stolen join) after it has waited a
// short bound: the worker then runs it on its own stack, as a task of its
// own, before it goes back to its work (fair service; see DESIGN.md). A
// root run that way that calls runtime.Goexit ends the task it interrupted
// too (with ErrGoexit), since both share one goroutine.
//
// If root, or any task it forks, panics, the rest of the computation is
// completed or dropped (frames not yet started are dropped, stolen ones are
// waited for) and Run panics in the caller's goroutine with a *PanicError that
// carries the original value and the stack of the task that panicked. The
// pool stays usable. Run on a closed pool panics.
func Run[R any](p *Pool, root func(w *Worker) R) R {
	if p == nil {
		panic("core: Run on a nil *Pool")
	}
	if root == nil {
		panic("core: Run with a nil root function")
	}
	if w := workerOf(curg()); w != nil {
		if w.pool == p {
			var r R
			runInline(w, func(w *Worker) { r = root(w) })
			return r
		}
		var r R
		w.block(func() { r = submitAndWait(p, root, nil) })
		return r
	}
	return submitAndWait(p, root, nil)
}

// Run runs root on a worker of p and returns when it is done: Run (the
// function) for a root that returns nothing, with the same contract. From
// an ordinary goroutine it submits root and parks the caller until it is
// done; from inside a task of p it runs root at once on the current worker;
// from inside a task of another pool it submits root and waits as Blocking
// does. A panic in root, or in any task it forks, reaches the caller as a
// *PanicError once the rest of the computation is completed or dropped. It
// panics if p or root is nil, or p is closed.
func (p *Pool) Run(root func(w *Worker)) {
	if p == nil {
		panic("core: Pool.Run on a nil *Pool")
	}
	if root == nil {
		panic("core: Pool.Run with a nil root function")
	}
	if w := workerOf(curg()); w != nil {
		if w.pool == p {
			runInline(w, root)
			return
		}
		w.block(func() { submitAndWait[struct{}](p, nil, root) })
		return
	}
	submitAndWait[struct{}](p, nil, root)
}

// submitAndWait submits a root to p from outside its tasks and parks the
// caller until it is done: fn, or proc for a root without a result.
func submitAndWait[R any](p *Pool, fn func(w *Worker) R, proc func(w *Worker)) R {
	p.refreshLimit()
	j := getRootJob[R](p)
	j.fn, j.proc = fn, proc
	p.submit(&j.hdr)
	return j.wait(p)
}

// runInline runs a nested root on the current worker as a task of its own
// (runTask): it may not sync what the task around it spawned, and must sync
// what it spawns itself.
//
// If root panics (or calls runtime.Goexit), what it forked and did not join
// is finished or dropped before the panic goes on (unwind: private frames
// dropped, stolen ones waited for), as for a root submitted from outside.
// The panic leaves the Joins between it and here without joining them (see
// Join), so without this a caller that recovers it inside its task would
// find frames of the nested root left on the worker's deque, and thieves
// still calling the root's functions after Run had panicked. The value goes
// on as a *PanicError, as Run promises whoever calls it: wrapped here if
// the panic happened on this goroutine, as it came if it reached here from
// a thief, where it was wrapped already (so that the type a caller
// recovers does not depend on who stole what). A Goexit goes on as it is.
func runInline(w *Worker, root func(w *Worker)) {
	var pe *PanicError
	w.runTask(root, func(e *PanicError) { pe = e })
	if pe != nil {
		panic(pe)
	}
}

// RunOn runs root on the worker with the given ID and waits for it, for
// code that must stay on one worker (with WithPinning, one CPU). id must be
// the ID of one of p's regular workers: 0 <= id < Workers() in a pool that
// never started a spare or grew. The root is handed to that worker through
// its own lock-free submission queue; the worker takes it the next time it
// looks for work or reaches a poll point, even if it is parked because
// GOMAXPROCS shrank. Called from inside a task that already runs on worker
// id, root runs inline; from a task on another worker of p, that worker runs
// other work (its own inbox included) while it waits, as a Join waits for a
// thief, so workers that RunOn each other cannot deadlock; from a task of
// another pool, it waits as Blocking does.
func (p *Pool) RunOn(id int, root func(w *Worker)) {
	if p == nil {
		panic("core: RunOn on a nil *Pool")
	}
	if root == nil {
		panic("core: RunOn with a nil root function")
	}
	all := p.roster.Load().all
	if id < 0 || id >= len(all) || all[id].spare {
		panic("core: RunOn(" + strconv.Itoa(id) + "): no regular worker has that ID (the pool has IDs [0, " +
			strconv.Itoa(len(all)) + "), spares excluded)")
	}
	cur := workerOf(curg())
	if cur != nil && cur.pool == p && cur.id == id {
		runInline(cur, root)
		return
	}
	j := getRootJob[struct{}](p)
	j.proc = root
	submit := func() {
		p.enter()
		j.hdr.submitted = p.now()
		w := all[id]
		p.rootsWaiting.Add(1) // before the push: a poll point that sees the root counts it
		w.inbox.push(&j.hdr)
		p.wakeWorker(w)
	}
	switch {
	case cur != nil && cur.pool == p:
		// A task of p on another worker waits by helping, as a Join
		// waits for a stolen frame, and so keeps serving its own inbox:
		// parked (with a spare standing in, which takes no inbox), two
		// workers that RunOn each other would each wait for a root only
		// the other could run.
		j.hdr.waiter = cur
		submit()
		cur.helpUntil(&j.hdr, -1)
		j.wait(p)
	case cur != nil: // a task of another pool: waiting blocks it, and a spare stands in
		cur.block(func() { submit(); j.wait(p) })
	default:
		submit()
		j.wait(p)
	}
}

// rootHeader is the untyped part of a submitted root.
type rootHeader struct {
	job      frameJob
	panicked *PanicError
	done     chan struct{} // the worker sends when the root is complete
	// handBack, when set by the worker before it sends on done, asks the
	// caller to send on ack once it runs: a worker that took the root at a
	// poll point waits for that, so that it resumes right after its caller
	// instead of behind every goroutine queued (see runRoot).
	handBack bool
	ack      chan struct{}
	// waiter is the worker of the pool that waits for the root by helping
	// (RunOn from a task), or nil for a parked caller. For it the root is a
	// latch, as a stolen frame is for its owner: state goes from
	// framePending to frameSleeping when the waiter sleeps (announce), and
	// to frameDone when the root is complete, with a wake-up if it slept.
	waiter *Worker
	state  atomic.Uint32
	// Link threads a worker's inbox while the root is on its stack, and
	// the injector's queue or the inbox's taken batch after.
	lockfree.Link[rootHeader]
	submitted int64 // when it was submitted, in ns since the pool started (Pool.now)
}

// A root waited for by a worker (waiter) is a latch (helpUntil): see
// rootHeader.waiter; complete moves state to frameDone.
func (r *rootHeader) probe() bool { return r.state.Load() == frameDone } // pairs with complete's Swap

func (r *rootHeader) announce(*Worker) bool {
	return r.state.CompareAndSwap(framePending, frameSleeping)
}

func (r *rootHeader) withdraw(*Worker) { r.state.CompareAndSwap(frameSleeping, framePending) }

// rootJob is a root submitted by Run, Pool.Run or RunOn, recycled through a
// per-type sync.Pool.
type rootJob[R any] struct {
	hdr  rootHeader
	home *sync.Pool // the pool of *rootJob[R] it is returned to
	fn   func(*Worker) R
	proc func(*Worker) // a root without a result (Pool.Run, RunOn): fn is nil
	res  R
}

func (j *rootJob[R]) execute(w *Worker) {
	if j.proc != nil {
		j.proc(w)
		return
	}
	j.res = j.fn(w)
}

func (j *rootJob[R]) release() {
	var zero R
	j.fn, j.proc, j.res = nil, nil, zero
}

// wait parks the caller until the root is done, recycles the job and returns
// the result or re-raises the root's panic.
func (j *rootJob[R]) wait(p *Pool) R {
	<-j.hdr.done // pairs with the send in runRoot: the result is visible
	if j.hdr.handBack {
		j.hdr.handBack = false
		j.hdr.ack <- struct{}{} // buffered: the worker waits for it (runRoot)
	}
	res, pe := j.res, j.hdr.panicked
	j.release()
	j.hdr.panicked = nil
	j.hdr.waiter = nil
	j.hdr.state.Store(framePending)
	j.home.Put(j)
	if pe != nil {
		panic(pe)
	}
	return res
}

// getRootJob returns a recycled root job for result type R. Root jobs carry a
// channel, so recycling them keeps Run free of allocations in steady state.
// Each job remembers its type's sync.Pool, so returning it needs no lookup.
func getRootJob[R any](p *Pool) *rootJob[R] {
	t := reflect.TypeFor[R]()
	sp, ok := p.rootJobs.Load(t)
	if !ok {
		sp, _ = p.rootJobs.LoadOrStore(t, new(sync.Pool))
	}
	home := sp.(*sync.Pool)
	if j, ok := home.Get().(*rootJob[R]); ok {
		return j
	}
	j := &rootJob[R]{home: home}
	j.hdr.job = j
	j.hdr.done = make(chan struct{}, 1)
	j.hdr.ack = make(chan struct{}, 1)
	return j
}

// enter counts something submitted from outside (a root, a Scope's task)
// in flight, panicking if the pool is closed, and wakes the governor for
// the first one. Every enter is matched by an exit when the work is done.
//
// Close sets closed, then waits until inflight is 0; enter adds to inflight,
// then loads closed. With sequentially consistent atomics either enter sees
// closed (and backs out) or Close sees the work in flight (and waits for
// it): nothing is submitted to a pool whose workers are gone.
func (p *Pool) enter() {
	if p.inflight.Add(1) == 1 {
		p.gov.wake() // the first work in flight: the governor watches from now on
	}
	if p.closed.Load() {
		p.exit()
		panic("core: Run on a closed Pool")
	}
}

// exit counts one submission done; the last one after Close lets it go on.
func (p *Pool) exit() {
	if p.inflight.Add(-1) == 0 && p.closed.Load() {
		select {
		case p.drained <- struct{}{}:
		default:
		}
	}
}

// submit queues a root for any worker and wakes one if nobody searches.
func (p *Pool) submit(r *rootHeader) {
	p.enter()
	r.submitted = p.now()
	p.rootsWaiting.Add(1) // before the push: a poll point that sees the root counts it
	p.inj.push(r)
	p.notifyWork(nil)
}

// injector is the pool-wide FIFO of roots submitted by Run from outside.
type injector struct {
	mu         sync.Mutex
	head, tail *rootHeader  // guarded by mu
	n          atomic.Int32 // queue length, readable without mu
	// since is the submit time of the head root (Pool.now), readable
	// without mu; meaningful while n > 0. Busy workers compare it with the
	// clock at their poll points (fair.go).
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
