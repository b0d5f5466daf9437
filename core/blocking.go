package core

// Blocking: a task that says it blocks hands its worker's role to a spare
// at once (DESIGN.md, "Blocking"). Without the hint the governor finds the
// blocked workers itself.

// Blocking runs fn, which is expected to block (a network call, a file read,
// a wait on a channel, a lock or a WaitGroup), and returns when it returns.
// Called from a task, the worker's role passes to a spare worker for the
// duration: the worker first makes every frame it holds stealable, then the
// pool starts a spare (or reuses a retired one) at once, up to WithMaxSpares,
// so the pool keeps Workers() workers running while fn waits. Called from
// outside any task it just calls fn. Nested calls on one worker count once.
//
// With it, blocking calls inside a parallel loop overlap beyond the number
// of workers:
//
//	par.ForEach(urls, func(i int, u *string) {
//		core.Blocking(func() { pages[i] = fetch(*u) })
//	})
//
// fn should block rather than compute: while it runs, the spare and the
// worker both hold a processor if fn does CPU work. A panic in fn unwinds
// through Blocking (the spare retires later) and reaches the caller of Run
// like any panic in a task.
//
// Without Blocking, the pool still finds out when its workers block while
// work waits and a processor is idle, and starts spares then (up to
// WithMaxSpares): Blocking removes the detection delay.
func Blocking(fn func()) {
	if fn == nil {
		panic("core: Blocking with a nil function")
	}
	if w := workerOf(curg()); w != nil {
		w.block(fn)
		return
	}
	fn()
}

// block runs fn on w's goroutine with w counted as blocked and a spare
// standing in for it (see Blocking).
func (w *Worker) block(fn func()) {
	w.blocking++
	defer func() { w.blocking-- }()
	if w.blocking > 1 {
		fn()
		return
	}
	p := w.pool
	w.flushDone() // the jobs it finished count now, not after fn
	w.Share()
	if w.guest {
		// The caller's own goroutine blocks: the pool loses no worker,
		// and the sleeping worker whose place it held takes it back.
		p.giveBack(w)
		fn()
		return
	}
	p.spares.blocked.Add(1) // wanted before activated: a spare activated for w does not retire at once
	defer func() {
		p.spares.blocked.Add(-1)
		p.retireIdle() // a spare asleep for want of work goes now; a busy one at its next task boundary
	}()
	p.activateSpare()
	fn()
}
