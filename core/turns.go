package core

import (
	"sync"
	"sync/atomic"
	"time"
)

// Turns (DESIGN.md, "Callers served in turn"). Roots run from outside the
// pool (guests) take turns: at most turnLimit of them (the pool's limit,
// or the CPUs if fewer) hold a turn at once, and a caller that finds every turn held queues, first come,
// first served, and parks until a holder hands it its turn. So a caller
// whose root ends and who calls Run again at once goes behind those
// already waiting, instead of running again on the processor it holds
// while they wait for the scheduler to preempt it.
//
// A turn runs out: a holder whose root has run for the turn's slice (a big
// job, a root that blocks, a root that waits for another caller's root)
// stops counting, and the next caller in the queue gets its turn at once.
// So a small root waits for a big one at most a slice, and a root that
// needs another caller's root to finish cannot deadlock with it. The
// queue's timer (time.AfterFunc: no goroutine while it waits) ends the
// turns that ran out while callers wait.
//
// The slice follows the roots: it is turnsPerSlice times the mean time of
// the recent turns that ended before running out, between minTurnSlice
// and maxTurnSlice. Callers of roots of about one size are served in turn
// whatever that size and however loaded the machine (a root that takes
// 2 ms alone takes 6 ms on a machine three times oversubscribed, and would
// run out a fixed slice of 4 ms), while a big root among small ones runs
// out after a few of the small ones' times.

// The bounds of a turn's slice. minTurnSlice is a few times what a timer
// and a wake-up cost; maxTurnSlice is twice the scheduler's 10 ms
// preemption slice, so that a small root waits for a big one about as
// long as a goroutine waits for a processor held by a plain goroutine.
const (
	minTurnSlice  = time.Millisecond
	maxTurnSlice  = 20 * time.Millisecond
	turnsPerSlice = 4
)

// minQueuedTurn is the mean turn below which callers do not queue. A
// caller that queues pays a park and a wake-up, and the one it queues
// behind a goroutine switch, a microsecond or two; callers of roots much
// shorter than the scheduler's slice that re-run at once would all queue,
// one switch per root (a convoy). Below this mean, roots are served as
// goroutines are.
const minQueuedTurn = 50 * time.Microsecond

// Turn states of a guest record (guestTurn.state). A short root's turn,
// taken without a queue and not counted (guestTurn.free), stays turnNone:
// expireTurns has nothing to end.
const (
	turnNone    uint32 = iota // holds no counted turn
	turnHeld                  // holds a turn, counted in turnQueue's held
	turnExpired               // its turn ran out (expireTurns): no longer counted
)

// turnQueue is a pool's turns: the count of turns held, the queue of
// callers waiting for one, and the timer that ends turns run out.
//
// Invariants: held counts the guests whose state is turnHeld (a guest's
// state goes to turnHeld just after the count goes up, and the count goes
// down only after a CAS from turnHeld succeeded, so it may briefly count
// one that is not yet marked, never one that is gone); waiting counts the
// guests in the queue; a caller joins the queue only under mu, and only
// while no turn is free or others wait, so the queue never holds a caller
// while a turn is free and nobody else waits for it (no caller parks with
// nobody to wake it).
type turnQueue struct {
	// state is held (low 32 bits) | waiting (high 32 bits). A caller takes
	// a free turn, and a holder with nobody waiting gives its turn back,
	// with one CAS on it; everything else happens under mu.
	state      atomic.Uint64
	mu         sync.Mutex
	head, tail *Worker     // the waiting guests, oldest first; guarded by mu
	timer      *time.Timer // created on first need; guarded by mu
	armed      bool        // the timer is set and has not fired; guarded by mu
	// mean is the moving mean of the turns that ended before running out,
	// in ns, sampled one turn in turnSampleEvery of each caller's: each
	// sample weighs 1/8. Updated without a lock (a lost
	// update only ages the mean a little).
	mean atomic.Int64
	// slice, if set, is how long a turn lasts instead, and queueShort
	// makes callers queue whatever the mean (tests set them before the
	// pool's first Run).
	slice      time.Duration
	queueShort bool
}

// guestTurn is a guest record's part in the turns.
type guestTurn struct {
	state atomic.Uint32 // turnNone, turnHeld or turnExpired
	since atomic.Int64  // when it got a counted turn (Pool.now); read by expireTurns and armTurnTimer while turnHeld
	next  *Worker       // the next guest in the queue; guarded by turnQueue.mu
	ready chan struct{} // buffered: the turn handed to it while it waits
	// began is when it got its turn, counted or free (Pool.now); free says
	// the turn is a short root's, taken without a queue. Written by the
	// owner, or by admitTurns before its send on ready; read by the owner.
	began int64
	free  bool
	ends  uint32 // turns ended on this record, for sampling the mean; owner only
}

const waitingOne = 1 << 32

func turnCounts(s uint64) (held, waiting int32) { return int32(uint32(s)), int32(s >> 32) }

// takeTurn returns when guest g holds a turn: at once if one is free and
// nobody waits, else once the callers before it have theirs and one is
// free, or handed to it. now is the caller's clock reading (Pool.now) from
// just before. Called by g's goroutine before its root runs; g's
// turn.began says when it got the turn.
func (p *Pool) takeTurn(g *Worker, now int64) {
	q := &p.guests.turns
	if !q.queueShort && q.mean.Load() < int64(minQueuedTurn) {
		// Short roots: no queue, and no count (see minQueuedTurn); only
		// its time goes into the mean. Owner-private fields only: no
		// atomic store and no clock read on this path.
		g.guestRec.turn.began = now
		g.guestRec.turn.free = true
		return
	}
	limit := p.turnLimit()
	if s := q.state.Load(); s>>32 == 0 && int32(uint32(s)) < limit && q.state.CompareAndSwap(s, s+1) {
		p.startTurn(g, now)
		return
	}
	q.mu.Lock()
	for {
		s := q.state.Load()
		held, waiting := turnCounts(s)
		if waiting == 0 && held < p.turnLimit() {
			if q.state.CompareAndSwap(s, s+1) { // a turn came free since the fast path
				q.mu.Unlock()
				p.startTurn(g, p.now())
				return
			}
			continue
		}
		if q.state.CompareAndSwap(s, s+waitingOne) { // under mu: a holder that sees it finds g queued
			break
		}
	}
	if q.tail == nil {
		q.head = g
	} else {
		q.tail.guestRec.turn.next = g
	}
	q.tail = g
	p.admitTurns() // the limit may have grown: serve the queue first
	q.armTurnTimer(p)
	q.mu.Unlock()
	<-g.guestRec.turn.ready // pairs with the send in admitTurns: g holds the turn, and it is marked
}

// turnLimit is how many turns there are: the pool's limit, or the CPUs
// the process may run on if they are fewer (GOMAXPROCS above them, see
// DESIGN.md, "More Ps than CPUs"): more roots at once than CPUs only
// time-slice them.
func (p *Pool) turnLimit() int32 { return min(p.limit.Load(), int32(numCPU)) }

// startTurn marks g as holding a turn counted in held, from now
// (Pool.now).
func (p *Pool) startTurn(g *Worker, now int64) {
	t := &g.guestRec.turn
	t.began = now
	t.since.Store(now)
	t.state.Store(turnHeld)
}

// endTurn gives back g's turn when its root is done: to the oldest waiting
// caller if one waits, else to the free count. A turn that ran out
// (expireTurns) was already given back. now is the caller's clock reading
// (Pool.now) at the root's end.
func (p *Pool) endTurn(g *Worker, now int64) {
	t := &g.guestRec.turn
	q := &p.guests.turns
	if t.free { // a short root's turn: nothing counted, nothing to hand on
		t.free = false
		p.sampleTurn(t, now)
		return
	}
	if !t.state.CompareAndSwap(turnHeld, turnNone) { // pairs with expireTurns's CAS: one of them gives the turn back
		t.state.Store(turnNone) // expired: nothing to give back
		return
	}
	p.sampleTurn(t, now)
	if s := q.state.Load(); s>>32 == 0 && q.state.CompareAndSwap(s, s-1) {
		return
	}
	q.mu.Lock()
	q.state.Add(^uint64(0)) // held - 1, then hand it on
	p.admitTurns()
	q.mu.Unlock()
}

// turnSampleEvery is how many turns of one caller go by between two that
// feed the mean: each turn that does costs a store to the mean's cache
// line, which every caller shares, while the mean moves only by an eighth
// a sample.
const turnSampleEvery = 4

// sampleTurn feeds the turn t just ended into the mean, one in
// turnSampleEvery of each caller's turns (the first one included); now is
// when it ended (Pool.now). Called by t's owner.
func (p *Pool) sampleTurn(t *guestTurn, now int64) {
	t.ends++
	if t.ends%turnSampleEvery != 1 {
		return
	}
	q := &p.guests.turns
	m := q.mean.Load()
	q.mean.Store(m + (now-t.began-m)/8)
}

// admitTurns gives free turns to the oldest waiting callers. Caller holds
// the queue's mu.
func (p *Pool) admitTurns() {
	q := &p.guests.turns
	limit := p.turnLimit()
	for q.head != nil {
		s := q.state.Load()
		if held, _ := turnCounts(s); held >= limit {
			return
		}
		// Waiting callers join only under mu, so only held can change
		// under us (a fast-path take or give-back): retry on a lost CAS.
		if !q.state.CompareAndSwap(s, s+1-waitingOne) {
			continue
		}
		g := q.head
		q.head = g.guestRec.turn.next
		if q.head == nil {
			q.tail = nil
		}
		g.guestRec.turn.next = nil
		p.startTurn(g, p.now())
		g.guestRec.turn.ready <- struct{}{} // buffered, and g waits for exactly one
	}
}

// armTurnTimer sets the queue's timer to go off when the oldest turn held
// runs out, if callers wait and it is not set. Caller holds mu.
func (q *turnQueue) armTurnTimer(p *Pool) {
	if q.armed || q.head == nil {
		return
	}
	slice := q.turnSlice()
	due := slice
	now := p.now()
	if all := p.guests.all.Load(); all != nil {
		for _, g := range *all {
			if t := &g.guestRec.turn; t.state.Load() == turnHeld {
				due = min(due, max(0, time.Duration(t.since.Load()+int64(slice)-now)))
			}
		}
	}
	q.armed = true
	if q.timer == nil {
		q.timer = time.AfterFunc(due, p.expireTurns)
		return
	}
	q.timer.Reset(due)
}

// turnSlice returns how long a turn lasts now.
func (q *turnQueue) turnSlice() time.Duration {
	if q.slice > 0 {
		return q.slice
	}
	return min(max(turnsPerSlice*time.Duration(q.mean.Load()), minTurnSlice), maxTurnSlice)
}

// expireTurns, the queue's timer, ends the turns held for their slice or
// longer, gives them to the waiting callers, and sets the timer again if
// callers still wait.
func (p *Pool) expireTurns() {
	q := &p.guests.turns
	q.mu.Lock()
	defer q.mu.Unlock()
	q.armed = false
	if q.head == nil {
		return
	}
	now, slice := p.now(), int64(q.turnSlice())
	if all := p.guests.all.Load(); all != nil {
		for _, g := range *all {
			t := &g.guestRec.turn
			if t.state.Load() == turnHeld && now-t.since.Load() >= slice &&
				t.state.CompareAndSwap(turnHeld, turnExpired) { // pairs with endTurn's CAS
				q.state.Add(^uint64(0)) // held - 1
			}
		}
	}
	p.admitTurns()
	q.armTurnTimer(p)
}
