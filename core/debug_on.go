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
// and counted once. Caller holds sleep.mu.
func (p *Pool) checkEnterIdle(w *Worker) {
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
