package core

import (
	"runtime"
	"time"
)

// Looking for work: an idle worker's search loop, the steal from a victim,
// and the one predicate of what there is to find (offers, workWaiting).
// A searching worker is counted in the pool's searching count
// (startSearching) from its first look until it finds work (found) or gives
// up.

// searchRounds is how many passes over all victims an idle worker makes
// before it may go to sleep (Lazy scheduler; it then keeps searching until
// the pool's spin time has passed, see WithSpin). Each pass is a few hundred
// nanoseconds per victim; the worker yields the processor every yieldEvery
// passes so that goroutines outside the pool (Run callers, the user's own)
// are not starved.
const (
	searchRounds = 64
	yieldEvery   = 4
)

// search looks for work and runs one task if it finds some: its own jobs
// first (Scope.Go, newest first), then its inbox, a root that has waited
// too long, a steal, the injector. It returns true if it ran a task, false
// if it gave up (after searchRounds passes under the Lazy scheduler, or for
// a spare), when latch is done, when w is beyond the limit or, in its idle
// loop (no latch), a guest claimed its place (it then takes only its inbox),
// or when the pool is quitting. While waiting on a stolen
// frame, leap is the thief to steal back from first. w is counted as
// searching meanwhile (it may be already: a waker's hand-off).
func (w *Worker) search(latch latch, leap int) bool {
	p := w.pool
	w.flushDone() // out of jobs of its own: what it finished counts now
	w.startSearching()
	var spinStart time.Time // when the first searchRounds passes were done
	for round := 0; ; round++ {
		if latch != nil && latch.probe() {
			break
		}
		if j := new(job); w.jobs.PopTo(j) {
			w.found()
			w.runJob(j)
			return true
		}
		if r := w.inbox.take(); r != nil {
			w.found()
			w.runRoot(r, false)
			return true
		}
		if !w.spare && w.limited() || latch == nil && w.claim.Load() != nil {
			break // beyond the limit, or in the idle loop of a worker whose place a guest claimed (guest.go): only its inbox
		}
		if r := p.overdueRoot(); r != nil { // fair service: a root waited long, before any steal
			w.found()
			w.runRoot(r, false)
			return true
		}
		if w.drainOutside() { // Scope tasks forked from outside: a batch to this worker's jobs
			if j := new(job); w.jobs.PopTo(j) {
				w.found()
				w.runJob(j)
				return true
			}
		}
		if h, j, ok, victim := w.trySteal(leap, latch == nil); h != nil {
			w.found()
			if w.runStolen(h, victim) && latch == nil {
				runtime.Gosched() // the idle loop: let the guest it woke run now (runStolen)
			}
			return true
		} else if ok {
			w.found()
			w.runStolenJob(&j, victim)
			return true
		}
		if r := p.inj.pop(); r != nil {
			w.found()
			w.runRoot(r, false)
			return true
		}
		if p.quit.Load() {
			break
		}
		if round >= searchRounds && (w.spare || p.cfg.scheduler == Lazy && spunOut(&spinStart, p.cfg.spin)) {
			break
		}
		if round%yieldEvery == yieldEvery-1 {
			runtime.Gosched()
		}
	}
	w.stopSearching()
	return false
}

// spunOut reports whether a search that has made its searchRounds passes
// has also searched for spin since then. The first call starts the clock, so
// a search that finds work within its passes reads no time.
func spunOut(start *time.Time, spin time.Duration) bool {
	if spin <= 0 {
		return true
	}
	if start.IsZero() {
		*start = time.Now()
		return false
	}
	return time.Since(*start) >= spin
}

// found is called when a searching worker has found work: if it was the last
// one searching (in the pool, or in its NUMA node) and others sleep, wake one
// so that somebody keeps looking (work tends to come in bursts: a thief's
// first push is shared at once).
func (w *Worker) found() {
	p := w.pool
	all, node := p.count(w, -1, 0)
	w.searching = false
	last, lastInNode := all == 0, node == 0
	if p.sleep.sleeping() == 0 {
		return
	}
	switch {
	case last:
		p.wakeOne(w)
	case lastInNode && len(p.nodes) > 1:
		p.wakeInNode(w.node)
	}
}

// workWaiting reports whether shared work waits in p: a root in the
// injector, a task in the outside queue, or something that a worker other
// than except offers to thieves (any worker when except is nil). It is the
// one question the sleep protocol's last check, the governor's stall test
// and a thief's look at the extras ask, so that they cannot drift apart
// (a lost wake-up one way, a false stall the other). It looks at every
// worker (active ones and extras); roots in inboxes are not shared work:
// only their own worker may take them.
func (p *Pool) workWaiting(except *Worker) bool {
	if p.inj.n.Load() > 0 || !p.outside.Empty() {
		return true
	}
	for _, v := range p.roster.Load().all {
		if v != except && v.offers() {
			return true
		}
	}
	return false
}
