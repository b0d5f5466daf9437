//go:build gofork_debug

package core

import "fmt"

// debugChecks: this build (-tags gofork_debug) checks the invariants of the
// idle protocol, the task boundary and the deques where they must hold,
// and panics with "core: invariant: ..." when one does not. CI runs the
// core tests this way.
const debugChecks = true

// checkCounts checks the counts word after a change: neither count below
// zero (a decrement of a count that was 0 wraps it to 2^32-1), the node's
// searching count not below zero, and, when sleeping changed (under
// sleep.mu), the sleepers counted once each: sleeping == len(idle).
func (p *Pool) checkCounts(c uint64, node int32, sleepingChanged bool) {
	searching, sleeping := int32(uint32(c)), int32(uint32(c>>32))
	if searching < 0 || sleeping < 0 || node < 0 {
		panic(fmt.Sprintf("core: invariant: searching %d, sleeping %d, node searching %d: a count went below 0", searching, sleeping, node))
	}
	if sleepingChanged && int(sleeping) != len(p.sleep.idle) {
		panic(fmt.Sprintf("core: invariant: %d workers counted sleeping, %d in the idle list", sleeping, len(p.sleep.idle)))
	}
}

// checkEnterIdle checks that a worker about to wait is awake, in no list
// and not counted as searching: a worker is idle for one reason at a time
// and counted once. A guest waits only on a latch, outside the idle list
// (guest.go). Caller holds sleep.mu.
func (p *Pool) checkEnterIdle(w *Worker, why waitReason) {
	if w.guest && why != forLatch {
		panic(fmt.Sprintf("core: invariant: guest %d waits for reason %d, not on a latch", w.id, why))
	}
	if w.idle != awake {
		panic(fmt.Sprintf("core: invariant: worker %d enters a wait in idle state %d", w.id, w.idle))
	}
	if w.searching {
		panic(fmt.Sprintf("core: invariant: worker %d enters a wait counted as searching", w.id))
	}
	for _, v := range p.sleep.idle {
		if v == w {
			panic(fmt.Sprintf("core: invariant: worker %d is in the idle list twice", w.id))
		}
	}
	for _, v := range p.sleep.retired {
		if v == w {
			panic(fmt.Sprintf("core: invariant: worker %d is in the retired list while awake", w.id))
		}
	}
}

// checkShared checks the split deque's I1 and I4 after an owner operation
// on the shared part: tail <= split <= head with the owner's split equal to
// the one thieves see, unless every frame was stolen; and the owner's and
// the thieves' all-stolen flags agree.
func (d *deque) checkShared() {
	tail, split := unpackTS(d.ts.Load())
	if d.allStolen != d.sharedAllStolen.Load() {
		panic(fmt.Sprintf("core: invariant I4: allStolen %v but the thieves' copy is %v", d.allStolen, d.sharedAllStolen.Load()))
	}
	if !d.allStolen && (split != d.split || tail > split || split > d.head) {
		panic(fmt.Sprintf("core: invariant I1: tail %d, split %d (owner's %d), head %d", tail, split, d.split, d.head))
	}
}

// checkJobs checks the job deque's invariants as its owner sees them (see
// lockfree.Deque.Check).
func (w *Worker) checkJobs() {
	if msg := w.jobs.Check(); msg != "" {
		panic(fmt.Sprintf("core: invariant: worker %d's job deque: %s", w.id, msg))
	}
}

// checkFreeGuest checks a guest record just taken: in no lane, holding no
// place, its deque empty, awake and not searching.
func (p *Pool) checkFreeGuest(g *Worker) {
	if !g.guest || g.lane.Load() != nil || g.guestRec.lent != nil || g.dq.head != 0 || g.searching || g.idle != awake {
		panic(fmt.Sprintf("core: invariant: guest record %d taken while in use (lane %p, lent %p, head %d, searching %v, idle state %d)",
			g.id, g.lane.Load(), g.guestRec.lent, g.dq.head, g.searching, g.idle))
	}
}

// checkUnregistered checks that the goroutine g has no live entry in the
// worker table t: a goroutine is one pool's worker or guest at a time.
// Caller holds gtabMu.
func checkUnregistered(t *gTable, g uintptr, w *Worker) {
	for i := gHash(g) & t.mask; ; i = (i + 1) & t.mask {
		switch t.entries[i].g.Load() {
		case g:
			panic(fmt.Sprintf("core: invariant: goroutine %#x registers as worker %d while it is worker %d", g, w.id, t.entries[i].w.id))
		case 0:
			return
		}
	}
}

// checkPlaces checks the guests' count of the places they hold: it equals
// the number of workers whose place a guest holds or claimed. Caller holds
// sleep.mu.
func (p *Pool) checkPlaces() {
	n := 0
	for _, w := range p.roster.Load().all {
		if w.claim.Load() != nil {
			n++
			if w.guest || w.spare {
				panic(fmt.Sprintf("core: invariant: guest %d claimed the place of worker %d, not a regular worker", w.claim.Load().id, w.id))
			}
		}
		if w.idle == lent && w.claim.Load() == nil {
			panic(fmt.Sprintf("core: invariant: worker %d is lent to no guest", w.id))
		}
	}
	if c := p.guests.places.Load(); int(c) != n {
		panic(fmt.Sprintf("core: invariant: guests hold %d places, %d workers are claimed", c, n))
	}
}

// checkMaySearch checks that a worker about to be counted as searching is
// in no guest's lane and no guest itself: those help only their lane and
// must not make producers rely on them (guest.go).
func (w *Worker) checkMaySearch() {
	if w.guest || w.lane.Load() != nil {
		panic(fmt.Sprintf("core: invariant: worker %d (guest %v) searches in a guest's lane", w.id, w.guest))
	}
}
