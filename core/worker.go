package core

import (
	"runtime"
	"strconv"
	"sync/atomic"
)

// A Worker is one of a pool's workers: a goroutine with a work-stealing deque.
// Tasks receive the worker that runs them and pass it to Join and Invoke. A
// *Worker must not be used outside the task that received it, nor from another
// goroutine.
type Worker struct {
	dq deque // first: the fields Join touches sit at the start of the struct

	pool      *Pool
	helpFirst bool // the pool's policy, copied here for Join's fast path

	// Owner-private counters, published to stats by publish.
	shares        uint64
	stolen        uint64
	stealAttempts uint64
	roots         uint64

	// base is the deque depth at which the running task started: Sync may
	// not pop below it (runTask and an inline Run set and restore it).
	base uint32

	id   int
	node int    // index in pool.nodes of the NUMA node of the worker's CPU
	rng  uint64 // xorshift64* state for victim choice
	wake chan struct{}

	// inbox receives roots submitted to this worker by RunOn.
	inbox inbox

	asleep  bool // in the pool's idle list; guarded by the pool's sleep.mu
	counted bool // a waker counted this worker as searching; guarded by sleep.mu

	pinned bool  // WithPinning succeeded; written before New returns
	pinErr error // why WithPinning failed; written before New returns
	stats  workerStats
}

// workerStats are the published counters of a worker, read by Pool.Stats.
type workerStats struct {
	shares, stolen, stealAttempts, roots, sleeps atomic.Uint64
	idleNanos                                    atomic.Int64
	sleepingSince                                atomic.Int64 // UnixNano of the current sleep's start, 0 when awake
}

// ID returns the worker's index in its pool, from 0 to Workers()-1.
func (w *Worker) ID() int { return w.id }

// Pool returns the pool the worker belongs to.
func (w *Worker) Pool() *Pool { return w.pool }

// publish copies the owner-private counters to the shared stats.
func (w *Worker) publish() {
	w.stats.shares.Store(w.shares)
	w.stats.stolen.Store(w.stolen)
	w.stats.stealAttempts.Store(w.stealAttempts)
	w.stats.roots.Store(w.roots)
}

// searchRounds is how many passes over all victims an idle worker makes before
// it goes to sleep (Lazy scheduler). Each pass is a few hundred nanoseconds
// per victim; the worker yields the processor every yieldEvery passes so that
// goroutines outside the pool (Run callers, the user's own) are not starved.
const (
	searchRounds = 64
	yieldEvery   = 4
)

// loop is the body of a worker goroutine.
func (w *Worker) loop() {
	p := w.pool
	quitting := false
	defer func() {
		p.forget(w)
		if quitting {
			p.exited.Done()
			return
		}
		// A task called runtime.Goexit: every task on this goroutine has
		// been completed with ErrGoexit (runTask), but the goroutine is
		// ending. A fresh one takes over the worker and its deque.
		go func() {
			p.register(w)
			w.loop()
		}()
	}()
	counted := false
	for {
		if w.search(nil, -1, counted) {
			counted = false
			continue
		}
		if p.quit.Load() {
			w.publish()
			quitting = true
			return
		}
		counted = w.sleep(nil)
	}
}

// search looks for work and runs one task if it finds some. It returns true
// if it ran a task, false if it gave up (after searchRounds passes under the
// Lazy scheduler), when latch is done, or when the pool is quitting. While
// waiting on a stolen frame (latch != nil), leap is the thief to steal back
// from first. counted says a waker already counted w as searching.
func (w *Worker) search(latch *frameHeader, leap int, counted bool) bool {
	p := w.pool
	if !counted {
		p.addSearching(w, 1)
	}
	for round := 0; ; round++ {
		if latch != nil && latch.state.Load() == frameDone {
			break
		}
		if r := w.inbox.take(); r != nil {
			w.found()
			w.runRoot(r)
			return true
		}
		if h, victim := w.trySteal(leap); h != nil {
			w.found()
			w.runStolen(h, victim)
			return true
		}
		if r := p.inj.pop(); r != nil {
			w.found()
			w.runRoot(r)
			return true
		}
		if p.quit.Load() {
			break
		}
		if round >= searchRounds && p.cfg.scheduler == Lazy {
			break
		}
		if round%yieldEvery == yieldEvery-1 {
			runtime.Gosched()
		}
	}
	p.addSearching(w, -1)
	return false
}

// found is called when a searching worker has found work: if it was the last
// one searching (in the pool, or in its NUMA node) and others sleep, wake one
// so that somebody keeps looking (work tends to come in bursts: a thief's
// first push is shared at once).
func (w *Worker) found() {
	p := w.pool
	all, node := p.addSearching(w, -1)
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

// trySteal makes one pass over the victims, starting with leap if it is a
// valid worker other than w, then from a random one. It returns the frame
// taken and the id of its owner, or nil.
func (w *Worker) trySteal(leap int) (*frameHeader, int) {
	p := w.pool
	n := len(p.workers)
	if n == 1 {
		return nil, -1
	}
	if leap >= 0 && leap != w.id {
		w.stealAttempts++
		if h, r := p.workers[leap].dq.steal(); r == stealSuccess {
			return h, leap
		}
	}
	sampler := &p.samplers[w.id]
	for retry := true; retry; {
		retry = false
		// n-1 draws from the topology-weighted distribution (libfork eq. 6:
		// near victims first; uniform on a flat machine).
		for k := 1; k < n; k++ {
			v := sampler.pick(w.next())
			w.stealAttempts++
			h, r := p.workers[v].dq.steal()
			switch r {
			case stealSuccess:
				return h, v
			case stealLost:
				retry = true
			}
		}
	}
	return nil, -1
}

// next returns a pseudo-random 64-bit number (xorshift64*).
func (w *Worker) next() uint64 {
	x := w.rng
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	w.rng = x
	return x * 0x2545F4914F6CDD1D
}

// runStolen runs a frame stolen from worker owner and completes its latch.
func (w *Worker) runStolen(h *frameHeader, owner int) {
	h.thief.Store(int32(w.id + 1)) // tell the owner whom to steal back from
	w.stolen++
	w.runTask(h.job, h, owner, nil)
}

// runRoot runs a root submitted by Run or RunOn and wakes its caller.
func (w *Worker) runRoot(r *rootHeader) {
	w.roots++
	w.runTask(r.job, nil, -1, r)
}

// runTask runs a task, the stolen frame h of owner or the root r, and
// completes it whatever happens: normally, by a panic (recovered, kept for
// whoever waits), or by runtime.Goexit (which cannot be stopped: the task is
// completed with ErrGoexit from the deferred call, and the worker's goroutine
// is replaced, see loop). After a panic or Goexit the frames the task left in
// the deque are dropped or waited for (unwind).
func (w *Worker) runTask(j frameJob, h *frameHeader, owner int, r *rootHeader) {
	depth, outer := w.dq.head, w.base
	w.base = depth
	normal := false
	defer func() {
		if normal {
			return
		}
		v := recover()
		if v == nil { // runtime.Goexit: recover returns nil only then (panic(nil) is a *runtime.PanicNilError)
			v = ErrGoexit
		}
		pe := wrapPanic(v)
		w.unwind(depth)
		w.base = outer
		w.complete(h, owner, r, pe)
	}()
	j.execute(w)
	w.checkDepth(depth)
	normal = true
	w.base = outer
	w.complete(h, owner, r, nil)
}

// checkDepth panics if a task that started at deque depth depth left spawns
// behind (see Spawn).
func (w *Worker) checkDepth(depth uint32) {
	if w.dq.head != depth {
		panic("core: a task returned with " + strconv.Itoa(int(w.dq.head)-int(depth)) + " spawned tasks not synced")
	}
}

// complete publishes a task's end to whoever waits for it.
func (w *Worker) complete(h *frameHeader, owner int, r *rootHeader, pe *PanicError) {
	w.publish()
	if r != nil {
		r.panicked = pe
		r.done <- struct{}{} // publishes the result; the caller's receive pairs with it
		return
	}
	h.panicked = pe
	// Subtle: once state is frameDone the owner may reuse the frame, so
	// nothing below may touch h.
	if h.state.Swap(frameDone) == frameSleeping { // publish res and panicked; pairs with state.Load in waitStolen
		w.pool.wakeWorker(owner)
	}
}

// waitStolen waits until the stolen frame h at slot i of w's deque completes,
// running other work meanwhile: first what the thief has shared (its frames
// are all descendants of h, so this keeps the stack bounded), then anything
// else, then sleeping. It returns what the frame panicked with.
func (w *Worker) waitStolen(h *frameHeader, i uint32) *PanicError {
	// head is still i+1: slot i stays reserved while work run here uses the
	// slots above it.
	counted := false
	for h.state.Load() != frameDone { // pairs with the thief's Swap in runStolen
		if w.search(h, int(h.thief.Load())-1, counted) {
			counted = false
			continue
		}
		counted = false
		if h.state.Load() == frameDone {
			break
		}
		counted = w.sleep(h)
	}
	if counted {
		w.pool.addSearching(w, -1) // woken by a waker but not searching any more
	}
	w.dq.stolenReturn(i)
	h.thief.Store(0)
	h.state.Store(framePending)
	pe := h.panicked
	h.panicked = nil
	return pe
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
