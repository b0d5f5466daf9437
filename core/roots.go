package core

import "strconv"

// Roots: running a function on the pool from any goroutine. Run and
// Pool.Run take a root for any worker; RunOn for one worker. Called from a
// task of the pool they run the root inline (runInline), from a task of
// another pool they submit it and wait as Blocking does, and from outside
// they run it on the caller's goroutine as a guest of the pool (guest.go).
// RunOn from outside submits its root to the worker's inbox and parks.

// RunValue runs root on p and returns its result. It may be called from any
// goroutine, by many goroutines at once.
//
// From an ordinary goroutine, RunValue runs root on the calling goroutine, which
// joins the pool as a guest worker until root returns: the pool's workers
// steal the parts root forks, and the caller waits for none of them to
// start it. So a root's latency is bounded whatever the pool is doing: beside
// a big job that holds every worker, the caller's goroutine runs its root
// and Go's scheduler shares the processors between it and the workers as
// between any goroutines, on any GOMAXPROCS and on a pool of one worker.
// Callers from outside take
// turns, first come, first served: while as many roots from outside run as
// the pool has workers (or CPUs, if fewer), a caller waits for the oldest
// turn to end or to run out, after a few times the recent roots' mean.
// From inside a task of p (a
// nested parallel loop, a library that uses gofork called from gofork
// code), RunValue runs root at once on the current worker: no deadlock even when
// every worker does it. From inside a task of another pool, RunValue submits root
// to p and waits as Blocking does: a spare of the other pool stands in for
// the waiting worker, and the root waits for a worker of p at most until a
// busy one reaches a poll point (Poll, Share, a par block, a stolen join)
// after it has waited a short bound, where it runs the root on its own
// stack before going back to its work.
//
// A root that calls runtime.Goexit (t.Fatal in a root) ends the goroutine
// that runs it: the caller's, for a call from outside, as without the pool.
// A Goexit in a part of the root that a worker stole, or in a root a busy
// worker took at a poll point, ends that task with ErrGoexit, and so the
// task it interrupted, since both share one goroutine.
//
// If root, or any task it forks, panics, the rest of the computation is
// completed or dropped (frames not yet started are dropped, stolen ones are
// waited for) and RunValue panics in the caller's goroutine with a *PanicError that
// carries the original value and the stack of the task that panicked. The
// pool stays usable. RunValue on a closed pool panics.
func RunValue[R any](p *Pool, root func(w *Worker) R) R {
	if p == nil {
		panic("core: RunValue on a nil *Pool")
	}
	if root == nil {
		panic("core: RunValue with a nil root function")
	}
	p.refuseClosed("RunValue")
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
	var r R
	p.runGuest(func(w *Worker) { r = root(w) })
	return r
}

// Run runs root on p and returns when it is done: it is RunValue for a
// root that returns nothing, with the same contract. From an ordinary
// goroutine it runs root on that goroutine, a guest worker of p meanwhile;
// from inside a task of p it runs root at once on the current worker; from
// inside a task of another pool it submits root and waits as Blocking does. A panic in root, or in any task it forks, reaches the caller as a
// *PanicError once the rest of the computation is completed or dropped. It
// panics if p or root is nil, or p is closed.
func (p *Pool) Run(root func(w *Worker)) {
	if p == nil {
		panic("core: Pool.Run on a nil *Pool")
	}
	if root == nil {
		panic("core: Pool.Run with a nil root function")
	}
	p.refuseClosed("Pool.Run")
	if w := workerOf(curg()); w != nil {
		if w.pool == p {
			runInline(w, root)
			return
		}
		w.block(func() { submitAndWait[struct{}](p, nil, root) })
		return
	}
	p.runGuest(root)
}

// submitAndWait submits a root to p from a task of another pool and parks
// the caller until it is done: fn, or proc for a root without a result.
func submitAndWait[R any](p *Pool, fn func(w *Worker) R, proc func(w *Worker)) R {
	p.refreshLimit()
	j := getRootJob[R](p)
	j.fn, j.proc = fn, proc
	j.hdr.labels = callerLabels()
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
	labels := w.enterLabels(callerLabels()) // those of the calling code, which pprof.Do may have changed: a mark for its frames
	w.runTask(root, func(e *PanicError) { pe = e })
	w.leaveLabels(labels)
	if pe != nil {
		panic(pe)
	}
}

// RunOn runs root on the worker with the given ID and waits for it, for
// code that must stay on one worker (with WithPinning, one CPU). id must be
// the ID of one of p's regular workers: 0 <= id < Workers() in a pool that
// never grew. The root is handed to that worker through
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
	p.refuseClosed("RunOn")
	all := p.roster.Load().all
	if id < 0 || id >= len(all) || all[id].index < 0 {
		panic("core: RunOn(" + strconv.Itoa(id) + "): no regular worker has that ID (the pool has IDs [0, " +
			strconv.Itoa(len(all)) + "), spares and guests excluded)")
	}
	cur := workerOf(curg())
	if cur != nil && cur.pool == p && cur.id == id {
		runInline(cur, root)
		return
	}
	j := getRootJob[struct{}](p)
	j.proc = root
	j.hdr.labels = callerLabels()
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

// submit queues a root for any worker and wakes one if nobody searches.
func (p *Pool) submit(r *rootHeader) {
	p.enter()
	r.submitted = p.now()
	p.rootsWaiting.Add(1) // before the push: a poll point that sees the root counts it
	p.inj.push(r)
	p.notifyWork(nil)
}
