package core

import "time"

// Poll points: where a busy worker looks up from its own work. Poll and
// Share (and the slow paths of Join and Sync, shareSlow) share private
// frames a thief asked for and serve roots that have waited too long.
//
// Fair service for roots (DESIGN.md, "Fair service for roots"). A Run from
// outside runs on its caller's goroutine (guest.go) and waits for nobody.
// A root submitted from a task of another pool waits in the injector, and
// one from RunOn in its worker's inbox, until a worker looks for work. A
// busy worker looks at its poll points (Poll, Share, the slow paths of Join
// and Sync): one load of rootsWaiting while nothing waits; otherwise it
// reads the clock and takes a root of its inbox at once, or the oldest root
// of the injector once it has waited rootWaitBound (unless it is in a
// guest's lane), and runs it on its own stack before going back to its
// work.

// rootWaitBound is how long a root may wait in the injector before a busy
// worker takes it at a poll point: a root waits about this long plus the
// distance to the next poll point. Much shorter, and the interrupted
// computation pays for roots that an idle worker would have taken a moment
// later anyway (docs/BENCHMARKS.md, "core constants").
const rootWaitBound = 200 * time.Microsecond

// now returns the time since the pool started, in nanoseconds, on the
// monotonic clock: the root stamps and the bound are compared in it.
func (p *Pool) now() int64 { return int64(time.Since(p.start)) }

// rootStarted is called when a worker takes the root r: it is no longer
// waiting, and its wait counts towards the pool's worst.
func (p *Pool) rootStarted(r *rootHeader) {
	p.rootsWaiting.Add(-1)
	p.noteRootWait(p.now() - r.submitted)
}

// nudgeRoots, called by the governor while roots wait, asks the workers
// that should take one to reach a poll point: a worker with a root in its
// inbox, and every worker once a root of the injector is overdue. The ask
// is the flag a thief sets to ask for frames (moveSplit), which the fast
// path of Join and Spawn already reads on every fork, and whose slow path
// (shareSlow) attends to roots: code made only of plain Joins (fib) reaches
// no other poll point at P = 1, and few at P = 2, where no steals happen,
// and a check of its own on the fork path costs fib 10-15 %. The governor
// runs when the scheduler gives it a processor, so a root waits for a
// computation like that about as long as the runtime's preemption slice
// (10 ms) at worst, rather than until it ends.
func (p *Pool) nudgeRoots() {
	overdue := p.rootOverdue()
	for _, w := range p.roster.Load().all {
		if (overdue || w.inbox.n.Load() != 0) && !w.dq.moveSplit.Load() {
			w.dq.moveSplit.Store(true)
		}
	}
}

// rootOverdue reports whether the injector's oldest root has waited
// rootWaitBound or longer, without taking it.
func (p *Pool) rootOverdue() bool {
	return p.inj.n.Load() != 0 && p.now()-p.inj.since.Load() >= int64(rootWaitBound)
}

// overdueRoot takes the oldest root of the injector if it has waited
// rootWaitBound or longer, else returns nil. One load while nothing waits.
func (p *Pool) overdueRoot() *rootHeader {
	if p.inj.n.Load() == 0 {
		return nil
	}
	now := p.now()
	if now-p.inj.since.Load() < int64(rootWaitBound) {
		return nil
	}
	return p.inj.popOlder(now - int64(rootWaitBound))
}

// attend is a busy worker's look at waiting roots, at a poll point: it runs
// a root of its own inbox, or an overdue root of the injector, on the
// current stack and returns. A worker already running a root taken this way
// takes no other, so the task it interrupted waits for one root at a time.
func (w *Worker) attend() {
	if w.inRoot || w.guest {
		return
	}
	r := w.inbox.take()
	if r == nil {
		if w.lane.Load() != nil {
			return // inside a guest's root: its caller must not wait for another (guest.go)
		}
		if r = w.pool.overdueRoot(); r == nil {
			return
		}
	}
	w.inRoot = true
	defer func() { w.inRoot = false }() // also when the root calls runtime.Goexit
	w.runRoot(r, true)
}

// Poll lets other work in during a long stretch of work that forks nothing:
// if a thief has asked this worker for work, the older half of its private
// frames becomes stealable; if a root submitted to the pool has waited too
// long (see Run), the worker runs it here, on its own stack, and then
// returns. A frame pushed by Join is normally made stealable at the next
// fork; code that runs for a long time between forks (a leaf loop over a
// large chunk) should call Poll every few tens of microseconds. It costs
// two loads when nobody asked and no root waits.
func (w *Worker) Poll() {
	if w.dq.moveSplit.Load() || w.pool.rootsWaiting.Load() != 0 {
		w.pollSlow()
	}
}

func (w *Worker) pollSlow() {
	if w.meter != nil {
		return // a measured run shares nothing and lets in no root (MeasureWorkSpan)
	}
	d := &w.dq
	if d.moveSplit.Load() {
		if d.allStolen || d.head == d.split {
			d.moveSplit.Store(false) // nothing private to give
		} else {
			w.shareSlow()
		}
	}
	if w.pool.rootsWaiting.Load() != 0 {
		w.attend()
	}
}

// Share makes every frame this worker holds privately stealable now (the
// split deque keeps the newest forks private until a thief asks), and lets
// in a root that has waited too long, as Poll does. Code about to run for a
// long time without forking, and above all code that may block, calls it so
// that the rest of its computation does not wait behind it: par and
// package reduce call it before every leaf block runs the loop body. It
// costs two loads when nothing is private and no root waits, and one
// compare-and-swap otherwise.
func (w *Worker) Share() {
	if w.meter != nil {
		return // a measured run shares nothing and lets in no root (MeasureWorkSpan)
	}
	if w.dq.shareAll() {
		w.shares++
		w.pool.notifyWork(w)
	}
	if w.pool.rootsWaiting.Load() != 0 {
		w.attend()
	}
}
