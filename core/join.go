package core

import "strconv"

// Join runs f(a) and g(b), possibly in parallel, and returns both results when
// both are done. It must be called from inside a task, with the worker the
// task received.
//
// Under the default WorkFirst policy the calling worker runs f(a) at once and
// g(b), the rest of the parent up to the join, is what thieves may steal; if
// no thief took it by the time f returns, the caller runs g(b) itself, so a
// computation that one worker runs alone runs in exactly the serial
// program's order. Each Join
// exposes at most one stealable frame, so a worker's deque never holds more
// frames than the recursion is deep. Under HelpFirst the roles of f and g are
// swapped.
//
// Join does not allocate in steady state: the stealable frame is recycled per
// worker by fork depth. Pass top-level functions (or method values created
// once) rather than closures that capture per-call state, and carry the state
// in a and b.
//
// If f or g panics, the panic reaches the caller of Run as a *PanicError, and
// Run returns only once every task it forked is done. A recover inside the
// task, between this Join and Run, sees the original value if the panic
// happened on this worker and a *PanicError if a thief raised it. A g that
// panics on a thief is waited for and re-raised here. A panic in f is not caught here (that would
// cost every fork a defer): it unwinds the caller at once, and a stolen g is
// waited for where the panic leaves the task, so a function deferred between
// this Join and the task's end may run while g still runs. Code that must see
// both halves done on a panic recovers inside f and g instead (as sortpar's
// stable sort does). If f panics, g may or may not run.
func Join[A, B, RA, RB any](w *Worker, f func(*Worker, A) RA, a A, g func(*Worker, B) RB, b B) (RA, RB) {
	if f == nil || g == nil {
		panic("core: Join with a nil function")
	}
	// Both policies' fast paths are written out here rather than calling a
	// shared generic helper: the extra call level is a sizeable part of the
	// whole fork overhead (docs/BENCHMARKS.md, "core constants"). Child
	// stealing sits inside reach's branch, which a HelpFirst worker always
	// takes (its fast limit stays 0), so WorkFirst forks never read the
	// policy.
	d := &w.dq
	i := d.head
	if i >= d.fast {
		if w.meter != nil {
			return joinMeasured(w, f, a, g, b) // a measured run (workspan.go): it pushes no frame
		}
		d.reach(i) // the first push at this depth since the worker was idle, or HelpFirst
		if d.helpFirst {
			// Child stealing: expose f(a), run g(b) here.
			fr, ok := d.cache[i].(*frame[A, RA])
			if !ok {
				fr = newFrame[A, RA](d, i)
			}
			fr.fn = f // slot i >= split: private, plain stores (deque I2)
			fr.arg = a
			d.head = i + 1
			if d.allStolen || d.moveSplit.Load() || w.pool.sleep.counts.Load() != 0 {
				w.shareSlow()
			}
			rb := g(w, b)
			if i >= d.split || d.reclaim(i) {
				d.head = i
				return f(w, a), rb
			}
			return joinStolen(w, fr, i), rb
		}
	}

	// Continuation stealing: run f(a) here, expose g(b).
	fr, ok := d.cache[i].(*frame[B, RB])
	if !ok {
		fr = newFrame[B, RB](d, i)
	}
	fr.fn = g // slot i >= split: private, plain stores (deque I2)
	fr.arg = b
	d.head = i + 1
	if d.allStolen || d.moveSplit.Load() || w.pool.sleep.counts.Load() != 0 {
		w.shareSlow()
	}

	ra := f(w, a)

	// Balanced: every fork made by f has been joined, so head == i+1.
	if i >= d.split || d.reclaim(i) {
		d.head = i
		return ra, g(w, b)
	}
	return ra, joinStolen(w, fr, i)
}

// joinStolen waits for the stolen frame fr at slot i and returns its result
// or re-raises its panic.
func joinStolen[Y, RY any](w *Worker, fr *frame[Y, RY], i uint32) RY {
	if pe := w.waitStolen(&fr.hdr, i); pe != nil {
		fr.release()
		panic(pe)
	}
	ry := fr.res
	fr.release()
	return ry
}

// shareSlow makes private work visible to thieves and wakes a sleeping worker
// if nobody is looking for work. Join calls it after a push when every older
// frame was stolen, when a thief asked for work, or when some worker is idle:
// the last case shares frames before anyone asks, so that frames pushed just
// before a long leaf do not stay private (and unstealable) until it ends.
func (w *Worker) shareSlow() {
	w.shares++
	w.dq.share()
	w.pool.notifyWork(w)
	if w.pool.rootsWaiting.Load() != 0 {
		// A poll point too: the governor asks a worker for its frames
		// (moveSplit) when a root is due and nobody takes it (nudgeRoots),
		// so that code made of plain Joins reaches one.
		w.attend()
	}
}

// Invoke runs every function in fns, possibly in parallel, and returns when
// all are done: an n-ary Join that splits fns in halves recursively. Before
// each function runs, the functions not yet started are made stealable
// (see Share), so that functions that wait on each other (a producer and its
// consumer) each find a worker, a spare if need be. A nil entry panics
// before any function runs.
func Invoke(w *Worker, fns ...func(*Worker)) {
	for i, f := range fns {
		if f == nil {
			panic("core: Invoke with a nil function at index " + strconv.Itoa(i))
		}
	}
	if len(fns) == 0 {
		return
	}
	invokeRange(w, fns)
}

// invokeRange runs fns by binary splitting, so the stealable half is always
// the larger remaining part of the work.
func invokeRange(w *Worker, fns []func(*Worker)) struct{} {
	if len(fns) == 1 {
		w.Share() // the other functions stay stealable while this one runs (it may block)
		fns[0](w)
		return struct{}{}
	}
	h := len(fns) / 2
	Join(w, invokeRange, fns[:h], invokeRange, fns[h:])
	return struct{}{}
}

// Pending returns how many of the frames this worker has forked are still
// waiting on its deque, not taken by a thief: the stealable work it offers
// now. A recursion can fork only while Pending is below a small bound and run
// serially otherwise (the max-tasks cut-off of Duran, Corbalán and Ayguadé,
// "An adaptive cut-off for task parallelism", SC 2008): with one worker it
// then forks only near the root, and once thieves take its frames the count
// drops and it forks again where it is. Code that stops forking this way
// should call Poll at its would-be fork points, so that frames it holds
// privately are shared when a thief asks. Pending costs two loads.
func (w *Worker) Pending() int {
	d := &w.dq
	if d.allStolen || w.meter != nil {
		return 0 // every frame below head was stolen (I4), or a measured run pretends so
	}
	// tail only grows while allStolen is false, and tail <= head (I1); a
	// stale tail only makes the count too high by frames stolen meanwhile.
	tail, _ := unpackTS(d.ts.Load())
	return int(d.head - tail)
}

// Hungry reports whether some worker of the pool is out of work: looking
// for it or asleep. It is one load of a word that changes only when workers
// start or stop looking, so a recursion may call it at every would-be fork
// point and fork only when the answer is yes (or Pending is low).
func (w *Worker) Hungry() bool {
	return w.pool.sleep.counts.Load() != 0
}
