package core

// Waiting inside a task (DESIGN.md, "Waiting inside a task"). A task that must
// wait for something another worker completes (its stolen frame, a root it
// submitted to another worker with RunOn, a Scope's tasks) does not block
// its worker: it helps, running other work until the thing is done, and
// sleeps only when there is nothing to run. What it waits on is a latch.

// waitStolen waits until the stolen frame h at slot i of w's deque
// completes, running other work meanwhile (helpUntil), then takes the slot
// back. It returns what the frame panicked with.
func (w *Worker) waitStolen(h *frameHeader, i uint32) *PanicError {
	// head is still i+1: slot i stays reserved while work run here uses the
	// slots above it.
	w.helpUntil(h, int(h.thief.Load())-1)
	w.dq.stolenReturn(i)
	h.thief.Store(0)
	h.state.Store(framePending)
	pe := h.panicked
	h.panicked = nil
	return pe
}

// helpUntil returns once l is done, running other work meanwhile: first
// what leap (a thief, or -1) has shared (for a stolen frame, its frames are
// all descendants of the frame, so this keeps the stack bounded), then
// anything else, then sleeping until l is done or work appears. A worker
// beyond the limit helps nobody: it waits on l alone.
func (w *Worker) helpUntil(l latch, leap int) {
	for !l.probe() {
		if !w.searching {
			// Its own jobs first, as a Join pops its own frames: without the
			// searching count's two atomic updates, which bounce between
			// workers when jobs are a microsecond.
			if j := new(job); w.jobs.PopTo(j) {
				w.runJob(j)
				continue
			}
		}
		if !w.spare && w.limited() {
			w.flushDone()
			w.stopSearching()
			// Outside the idle list: whoever completes l sees the
			// announcement and wakes w. Meanwhile it runs the roots of
			// its own inbox, as a parked worker does: only w can run them,
			// and l may wait on one (a RunOn to w from a task w waits for
			// with RunOn, through another worker). RunOn wakes w after
			// its push.
			for !l.probe() {
				if r := w.inbox.take(); r != nil {
					w.runRoot(r, false)
					continue
				}
				w.wait(forLatch, l)
			}
			break
		}
		if lane := w.lane.Load(); lane != nil {
			w.helpLane(lane, l, leap) // inside a guest's root: help only that root (guest.go)
			break
		}
		if w.search(l, leap) {
			continue
		}
		if l.probe() {
			break
		}
		w.jobs.Trim() // going idle: a ring grown for a burst goes too
		w.wait(forWork, l)
	}
	w.stopSearching() // woken by a waker but not searching any more
}
