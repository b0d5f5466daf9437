package core

import (
	"runtime"
	"slices"
	"sync/atomic"
	"time"
)

// Guests (DESIGN.md, "Fair service for roots"). A root submitted from
// outside the pool's tasks runs on its caller's goroutine, which becomes a
// guest worker of the pool for the duration: it borrows a worker record
// (a deque, a wake channel, an ID, kept in the roster so that thieves see
// its frames), registers in the goroutine table so that nested calls run
// inline, runs the root through the task boundary, and waits for its
// stolen frames as any worker does. The caller was running when it called
// Run, and Go's scheduler time-slices it like any goroutine: no root waits
// for a worker to reach a poll point or to win a processor.
//
// Two rules keep guests from costing the rest of the pool:
//
//   - A guest holds the place of a sleeping regular worker while it runs
//     (lend): the worker stays asleep, off the idle list and out of the
//     idle counts, so the pool's goroutines running its work stay within
//     its limit and the fork path of the guest sees no idle worker to
//     share with. It gives the place back when it stops running (it
//     sleeps on a latch, blocks, or its root ends).
//   - A guest's root is a lane: a worker that runs a task stolen from the
//     guest, or from a worker in its lane, is in the lane for that task,
//     and while it waits inside the task it helps only with work of the
//     lane (helpLane), so that no unrelated job lands on the stack of a
//     task that a caller waits for. Guests never search, never count as
//     searching, never sleep in the idle list, and take no root but their
//     own.

// guestTable is a pool's set of guest records. A caller takes a free one
// with one compare-and-swap and gives it back with one store, so that many
// callers at once contend on no lock; records are created (under growMu,
// with a new roster) only when all are taken, and are never freed before
// the pool.
type guestTable struct {
	all atomic.Pointer[[]*Worker] // every guest record; replaced as a whole under growMu
	// places counts the regular workers whose place a guest holds or has
	// claimed (claim != nil). Written under sleep.mu; read without it by
	// takeGuest, to skip the lock when no place can be had.
	places atomic.Int32
	// turns are the turns guests take to run their roots (turns.go).
	turns turnQueue
}

// guestRecord is the state of a guest record.
type guestRecord struct {
	taken atomic.Bool // a caller runs a root with it; set by takeGuest's CAS, cleared by releaseGuest
	lent  *Worker     // the regular worker whose place it holds or claimed; owner only
	turn  guestTurn   // its turn to run a root (turns.go)
}

// runGuest runs root on the calling goroutine, which is not a task of any
// pool, as a guest of p, and re-raises its panic as a *PanicError. A root
// that calls runtime.Goexit ends the caller's goroutine, as it would
// without the pool, and the guest record goes back all the same.
func (p *Pool) runGuest(root func(*Worker)) {
	start := p.now()
	p.refreshLimit()
	p.enter() // Close waits for the root
	cg := curg()
	g := p.takeGuest(cg, start)
	defer p.releaseGuest(g) // also when root calls runtime.Goexit
	register(g, cg)
	g.lane.Store(g)
	g.roots++
	// Its turn's start is when its root could start: no second clock read
	// (a turn taken without waiting began at start).
	p.noteRootWait(g.guestRec.turn.began - start)
	defer endTrace(traceRoot())
	runInline(g, root) // the task boundary; a panic goes on as a *PanicError; the caller's labels mark the root's frames
}

// takeGuest returns a guest record for the goroutine cg, a free one or a
// new one, holding the place of a regular worker if one can be had (lend),
// and holding a turn (takeTurn). now is the caller's clock reading
// (Pool.now). The search for a free record starts at a place given by cg,
// so that callers at once try different records.
func (p *Pool) takeGuest(cg uintptr, now int64) *Worker {
	var g *Worker
	if all := p.guests.all.Load(); all != nil {
		n := len(*all)
		for k, i := 0, int(gHash(cg)%uintptr(n)); k < n; k, i = k+1, (i+1)%n {
			if v := (*all)[i]; !v.guestRec.taken.Load() && v.guestRec.taken.CompareAndSwap(false, true) {
				g = v // the CAS pairs with releaseGuest's store: the last user's writes are visible
				break
			}
		}
	}
	if g == nil {
		g = p.newGuest()
	}
	if debugChecks {
		p.checkFreeGuest(g)
	}
	g.stats.wakeAt(now) // Stats: a free guest record is idle
	p.takeTurn(g, now)  // before it takes a place: a caller waiting for its turn holds none
	if p.sleep.sleeping() != 0 || p.guests.places.Load() < p.limit.Load() {
		s := &p.sleep
		s.mu.Lock()
		p.lend(g)
		if debugChecks {
			p.checkPlaces()
		}
		s.mu.Unlock()
	}
	return g
}

// newGuest creates a guest record, taken, and publishes a roster with it.
func (p *Pool) newGuest() *Worker {
	p.growMu.Lock()
	defer p.growMu.Unlock()
	g := p.newWorker(guestWorker)
	g.guestRec.taken.Store(true)
	g.guestRec.turn.ready = make(chan struct{}, 1)
	var all []*Worker
	if old := p.guests.all.Load(); old != nil {
		all = append(all, *old...)
	}
	all = append(all, g)
	p.guests.all.Store(&all)
	p.publish(int(p.limit.Load()))
	return g
}

// releaseGuest ends g's root: it runs the Scope tasks the root forked and
// left on g and counts them done, trims a job ring grown by a burst, leaves
// the goroutine table and the lane, gives back the place it held, drops
// what its cached frames reference, and frees the record.
func (p *Pool) releaseGuest(g *Worker) {
	var j job
	for g.jobs.PopTo(&j) {
		g.runJob(&j)
	}
	g.flushDone() // before the record is freed: its finished jobs count in their scopes, and those forked from outside in outsideDone
	g.jobs.Trim()
	g.lane.Store(nil)
	g.resetLabels() // a root that called runtime.Goexit may have left its mark
	forget(g)
	p.giveBack(g)
	g.dq.releaseFrames(0)
	g.publish()
	now := p.now() // the one clock read of the root's end
	g.stats.sleepFrom(now)
	p.endTurn(g, now)             // after giveBack: the caller it hands its turn to finds the place free
	g.guestRec.taken.Store(false) // after every write to the record: the next taker's CAS pairs with it
	p.exit()                      // last: Close may return once it has run
}

// lend gives guest g the place of a regular worker: the most recently
// asleep one, which goes off the idle list and out of the sleeping count
// into state lent and stays asleep; or, if none sleeps, an awake active
// one (or one a waker took off the idle list), whose place g claims: once it is in its idle loop it takes nothing
// but its inbox, and goes lent at its next search pass (forPlace). A
// lent worker's claim names g. Wake-ups aimed at a lent worker (a latch it
// sleeps on, its inbox, a limit change, Close) still reach it: it wakes as
// any sleeper does and the claim goes. Spares are not lent: retireIdle
// must find them. Caller holds sleep.mu.
func (p *Pool) lend(g *Worker) {
	s := &p.sleep
	for k := len(s.idle) - 1; k >= 0; k-- {
		if w := s.idle[k]; !w.spare {
			s.idle = slices.Delete(s.idle, k, k+1)
			s.epoch++
			w.idle = lent
			w.claim.Store(g)
			p.guests.places.Add(1)
			p.count(w, 0, -1)
			g.guestRec.lent = w
			return
		}
	}
	active := p.roster.Load().active
	for k := len(active) - 1; k >= 0; k-- {
		if w := active[k]; (w.idle == awake || w.idle == woken) && w.claim.Load() == nil {
			w.claim.Store(g)
			p.guests.places.Add(1)
			g.guestRec.lent = w
			return
		}
	}
}

// relend lends g a worker's place again, if it holds none and one can be
// had.
func (p *Pool) relend(g *Worker) {
	if g.guestRec.lent != nil || p.sleep.sleeping() == 0 && p.guests.places.Load() >= p.limit.Load() {
		return
	}
	s := &p.sleep
	s.mu.Lock()
	p.lend(g)
	s.mu.Unlock()
}

// giveBack returns the place g holds or claimed: a claim not yet taken up
// is withdrawn, and a lent worker goes back on the idle list, asleep,
// unless a wake-up reached it meanwhile (then its claim is gone). A
// producer that published work while it was lent did not count it, and
// may have woken nobody; so, as a sleeper's own last check does, giveBack
// counts it sleeping and then looks for shared work, and wakes it if some
// waits and nobody searches (Dekker with notifyWork: the count's update,
// then the loads of the work).
func (p *Pool) giveBack(g *Worker) {
	w := g.guestRec.lent
	if w == nil {
		return
	}
	g.guestRec.lent = nil
	s := &p.sleep
	s.mu.Lock()
	back := false
	if w.claim.Load() == g {
		w.claim.Store(nil)
		p.guests.places.Add(-1)
		if back = w.idle == lent; back {
			s.idle = append(s.idle, w)
			s.epoch++
			w.idle = asleep
			p.count(w, 0, 1)
		}
	}
	if debugChecks {
		p.checkPlaces()
	}
	s.mu.Unlock()
	if back && uint32(s.counts.Load()) == 0 && p.workWaiting(nil) {
		p.wakeWorker(w)
	}
}

// helpLane is how a worker in a lane (a guest, or a worker running a task
// stolen from one) waits for l: it runs its own jobs and inbox roots, and
// steals only from workers of its lane (its leap first), never counting as
// searching. It looks as long as a search does (searchRounds passes and
// the pool's spin time), so that the short frames of a small root complete
// while it looks, and then sleeps on l outside the idle list, as a worker
// beyond the limit does; a guest gives back the place it holds meanwhile.
// A regular worker yields between passes as a search does; a guest does
// not: it is the goroutine a caller waits on, and a yield would queue it
// behind every runnable goroutine.
func (w *Worker) helpLane(lane *Worker, l latch, leap int) {
	p := w.pool
	for !l.probe() {
		ran := false
		var spinStart time.Time
		for round := 0; !l.probe(); round++ {
			if w.laneWork(lane, leap) {
				ran = true
				break
			}
			if round >= searchRounds && spunOut(&spinStart, p.cfg.spin) {
				break
			}
			if !w.guest && round%yieldEvery == yieldEvery-1 {
				runtime.Gosched()
			}
		}
		if ran || l.probe() {
			continue
		}
		w.flushDone() // what it finished counts before it sleeps: a waiter of those scopes may be what l waits for
		if w.guest {
			p.giveBack(w)
		}
		w.wait(forLatch, l)
		if w.guest {
			p.relend(w)
		}
	}
}

// laneWork runs one piece of work that w may take while it waits in lane:
// one of its own jobs, a root of its inbox (only its worker can run those,
// and RunOn relies on it), or a frame or job stolen from a worker of the
// lane, leap first. It reports whether it ran something.
func (w *Worker) laneWork(lane *Worker, leap int) bool {
	var j job
	if w.jobs.PopTo(&j) {
		w.runJob(&j)
		return true
	}
	if r := w.inbox.take(); r != nil {
		w.runRoot(r, false)
		return true
	}
	all := w.pool.roster.Load().all
	if leap >= 0 && leap < len(all) && leap != w.id {
		if v := all[leap]; v.lane.Load() == lane && w.runStolenFrom(v) {
			return true
		}
	}
	for _, v := range all {
		if v != w && v.lane.Load() == lane && v.offers() && w.runStolenFrom(v) {
			return true
		}
	}
	return false
}

// noteRootWait records that a root waited wait ns, from its submission to
// the start of its run, for Stats.MaxRootWait.
func (p *Pool) noteRootWait(wait int64) {
	for {
		m := p.maxRootWait.Load()
		if wait <= m || p.maxRootWait.CompareAndSwap(m, wait) {
			return
		}
	}
}
