package core

import "strconv"

// The task boundary (DESIGN.md, "Tasks and panics"). A task is code that
// runs on a worker as a unit of its own: a stolen frame, a root (submitted,
// or run inline by a nested Run), a Scope's job, a call guarded by Guard.
// runTask is the one boundary they all pass through; it
//
//   - sets the worker's base to the deque depth the task starts at, so that
//     the task syncs only what it spawned, and restores it after;
//   - checks that the task ends at that depth (no spawn left behind);
//   - recovers a panic and wraps it as a *PanicError (wrapPanic), taking
//     the stack at the panic;
//   - treats runtime.Goexit, which cannot be stopped, as a panic with
//     ErrGoexit: the task ends with it, and then the goroutine ends (the
//     worker loop gives the worker a fresh goroutine);
//   - after a panic or Goexit, unwinds what the task left on the deque:
//     private frames are dropped unrun, stolen ones are waited for;
//   - and then calls the task's end exactly once, with nil or the
//     *PanicError, whatever happened.

// runTask runs run on w as a task of its own and then calls end exactly
// once with how it ended: nil when run returned (and left no spawn behind),
// the *PanicError of its panic, or one of ErrGoexit when it called
// runtime.Goexit, in which case the goroutine goes on ending once end
// returns. By the time end runs, every frame the task forked is done or
// dropped and w's base is restored.
//
// run and end do not escape: callers pass closures over their own
// variables without allocating.
func (w *Worker) runTask(run func(*Worker), end func(*PanicError)) {
	if debugChecks && w.searching {
		panic("core: invariant: worker " + strconv.Itoa(w.id) + " runs a task while counted as searching")
	}
	depth, outer := w.dq.head, w.base
	w.base = depth
	normal := false
	defer func() {
		if normal {
			return
		}
		// recover returns nil only for runtime.Goexit (panic(nil) is a
		// *runtime.PanicNilError): wrapPanic makes it ErrGoexit.
		pe := wrapPanic(recover())
		w.unwind(depth)
		w.base = outer
		end(pe)
	}()
	run(w)
	w.checkDepth(depth)
	normal = true
	w.base = outer
	end(nil)
}

// Guard runs fn on w as a task of its own, as a Scope's task or a stolen
// half of a Join runs, and then calls end exactly once with how fn ended:
// nil when it returned; the *PanicError of its panic (one that fn's panic
// value already was is passed as it is, keeping its stack); or a
// *PanicError of ErrGoexit when fn called runtime.Goexit, after which the
// goroutine goes on ending as Goexit demands. What fn forked on w is done or
// dropped by the time end runs. Guard is for code built on gofork that
// records each call's panic where its caller will find it (par's streams
// keep one per item) instead of letting it unwind the task; end must not
// panic. It must be called from the task that received w.
func (w *Worker) Guard(fn func(), end func(pe *PanicError)) {
	if fn == nil || end == nil {
		panic("core: Guard with a nil function")
	}
	w.runTask(func(*Worker) { fn() }, end)
}

// checkDepth panics if a task that started at deque depth depth left spawns
// behind (see Spawn).
func (w *Worker) checkDepth(depth uint32) {
	if w.dq.head != depth {
		panic("core: a task returned with " + strconv.Itoa(int(w.dq.head)-int(depth)) + " spawned tasks not synced")
	}
}

// unwind pops every frame above depth after a panic: private frames are
// dropped unrun, stolen ones are waited for (their panics are dropped: the
// first panic is the one reported).
func (w *Worker) unwind(depth uint32) {
	d := &w.dq
	for d.head > depth {
		i := d.head - 1
		h := d.slots[i]
		if i >= d.split || d.reclaim(i) {
			d.head = i
			h.job.release()
			continue
		}
		w.waitStolen(h, i)
		h.job.release()
	}
}
