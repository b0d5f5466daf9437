package core

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gofork/gofork/internal/lockfree"
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
	rootsBusy     uint64 // roots taken at a poll point while running a task

	// base is the deque depth at which the running task started: Sync may
	// not pop below it (runTask and an inline Run set and restore it).
	base uint32

	id    int    // index in creation order, regular and spare alike
	index int    // regular workers: position among them (the limit applies to it); -1 for spares
	spare bool   // a spare, standing in for blocked workers (spare.go)
	cpu   int    // the CPU of the topology the worker is placed on
	node  int    // index in pool.nodes of the NUMA node of cpu
	rng   uint64 // xorshift64* state for victim choice
	wake  chan struct{}

	// inbox receives roots submitted to this worker by RunOn.
	inbox inbox

	// jobs holds the tasks this worker forked with Scope.Go (jobs.go),
	// and jobFree the job records it may reuse (owner only).
	jobs       lockfree.Deque[job]
	jobFree    *job
	jobFreeLen int

	idle      idleState // where it stands in the idle protocol (idle.go); guarded by the pool's sleep.mu
	searching bool      // counted in the pool's searching count; owner only (set from woken by leaveIdle)

	blocking int  // depth of Blocking calls running on this worker; owner only
	inRoot   bool // running a root taken at a poll point (fair.go); owner only

	// pinned: WithPinning succeeded. Set before the worker is started;
	// cleared only if the goroutine that takes over after a Goexit cannot
	// pin its thread again (Stats reads it at any time).
	pinned atomic.Bool
	pinErr error // why WithPinning failed; written before the worker is started
	stats  workerStats
}

// workerStats are the published counters of a worker, read by Pool.Stats.
type workerStats struct {
	shares, stolen, stealAttempts, roots, rootsBusy, sleeps atomic.Uint64
	idleNanos                                               atomic.Int64
	sleepingSince                                           atomic.Int64 // UnixNano of the current sleep's start, 0 when awake
}

// ID returns the worker's ID in its pool: its index in the order workers
// were created, from 0 to Pool.MaxWorkerID()-1, fixed for the life of the
// pool. A pool that never grew and never started a spare has the IDs 0 to
// Workers()-1.
func (w *Worker) ID() int { return w.id }

// Pool returns the pool the worker belongs to.
func (w *Worker) Pool() *Pool { return w.pool }

// publish copies the owner-private counters to the shared stats.
func (w *Worker) publish() {
	w.stats.shares.Store(w.shares)
	w.stats.stolen.Store(w.stolen)
	w.stats.stealAttempts.Store(w.stealAttempts)
	w.stats.roots.Store(w.roots)
	w.stats.rootsBusy.Store(w.rootsBusy)
}

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

// loop is the body of a worker goroutine.
func (w *Worker) loop() {
	p := w.pool
	quitting := false
	defer func() {
		forget(w)
		if quitting {
			p.exited.Done()
			return
		}
		// A task called runtime.Goexit: every task on this goroutine has
		// been completed with ErrGoexit (runTask), and the goroutine is
		// ending. A fresh one takes over the worker and its deque, on a
		// thread pinned as the old one was (the runtime retires the old
		// one, still locked, with the goroutine).
		go func() {
			if w.pinned.Load() && pinCurrentThread(w.cpu) != nil {
				w.pinned.Store(false) // it pinned before: only a changed cpuset gets here
			}
			register(w)
			w.loop()
		}()
	}()
	p.leaveIdle(w) // a spare starts woken, counted as searching by its activator
	for {
		switch {
		case w.spare && !w.searching && w.shouldRetire():
			// More spares run than workers block: this one goes.
			if quitting = w.wait(forActivation, nil); quitting {
				return
			}
			continue
		case !w.spare && w.limited() && !w.inbox.ready():
			w.stopSearching()
			if quitting = w.wait(forLimit, nil); quitting {
				return
			}
			continue
		}
		if !w.searching {
			if j := w.jobs.Pop(); j != nil { // its own jobs, without counting itself searching (see helpUntil)
				w.runJob(j)
				continue
			}
		}
		if w.search(nil, -1) {
			continue
		}
		if p.quit.Load() {
			w.publish()
			if w.spare {
				p.spares.active.Add(-1) // an active spare quits without retiring (Stats.Spares)
			}
			quitting = true
			return
		}
		if w.spare && w.shouldRetire() {
			// Nothing to do and more spares than blocked workers: go.
			if quitting = w.wait(forActivation, nil); quitting {
				return
			}
			continue
		}
		// A spare still wanted sleeps like any worker: work for it may
		// come while the worker it stands in for is blocked.
		p.refreshLimit()
		w.wait(forWork, nil)
	}
}

// search looks for work and runs one task if it finds some: its own jobs
// first (Scope.Go, newest first), then its inbox, a root that has waited
// too long, a steal, the injector. It returns true if it ran a task, false
// if it gave up (after searchRounds passes under the Lazy scheduler, or for
// a spare), when latch is done, when w is beyond the limit (it then takes
// only its inbox), or when the pool is quitting. While waiting on a stolen
// frame, leap is the thief to steal back from first. w is counted as
// searching meanwhile (it may be already: a waker's hand-off).
func (w *Worker) search(latch latch, leap int) bool {
	p := w.pool
	w.startSearching()
	var spinStart time.Time // when the first searchRounds passes were done
	for round := 0; ; round++ {
		if latch != nil && latch.probe() {
			break
		}
		if j := w.jobs.Pop(); j != nil {
			w.found()
			w.runJob(j)
			return true
		}
		if r := w.inbox.take(); r != nil {
			w.found()
			w.runRoot(r, false)
			return true
		}
		if !w.spare && w.limited() {
			break
		}
		if r := p.overdueRoot(); r != nil { // fair service: a root waited long, before any steal
			w.found()
			w.runRoot(r, false)
			return true
		}
		if w.drainOutside() { // Scope tasks forked from outside: to this worker's jobs
			if j := w.jobs.Pop(); j != nil {
				w.found()
				w.runJob(j)
				return true
			}
		}
		if h, j, victim := w.trySteal(leap); h != nil {
			w.found()
			w.runStolen(h, victim)
			return true
		} else if j != nil {
			w.found()
			w.stolen++
			w.runJob(j)
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

// trySteal makes one pass over the victims, starting with leap if it is a
// valid worker other than w, then with draws from w's victim distribution
// over the active workers, then over the extras (spares, workers beyond the
// limit), each looked at with one load. From each victim it takes the
// oldest frame, or else the oldest job. It returns what it took (a frame h
// or a job j) and the ID of its owner, or nils.
func (w *Worker) trySteal(leap int) (h *frameHeader, j *job, owner int) {
	r := w.pool.roster.Load() // pairs with the Store in publish
	if leap >= 0 && leap != w.id && leap < len(r.all) {
		if h, j, _ := w.stealFrom(r.all[leap]); h != nil || j != nil {
			return h, j, leap
		}
	}
	n := len(r.active)
	var sampler *victimSampler
	if k := w.index; k >= 0 && k < n {
		sampler = &r.samplers[k]
	}
	for retry := true; retry; {
		retry = false
		// n-1 draws from the topology-weighted distribution (libfork eq. 6:
		// near victims first; uniform on a flat machine). A worker outside
		// the active set draws uniformly from all of it.
		draws := n - 1
		if sampler == nil {
			draws = n
		}
		for range draws {
			var v *Worker
			if sampler != nil {
				v = r.active[sampler.pick(w.next())]
			} else {
				v = r.active[uniformPick(w.next(), n)]
			}
			if v == w {
				continue
			}
			h, j, lost := w.stealFrom(v)
			if h != nil || j != nil {
				return h, j, v.id
			}
			retry = retry || lost
		}
	}
	for _, v := range r.extras {
		if v != w && v.offers() {
			if h, j, _ := w.stealFrom(v); h != nil || j != nil {
				return h, j, v.id
			}
		}
	}
	return nil, nil, -1
}

// stealFrom tries v's oldest shared frame, then its oldest job; lost says
// a race was lost, so a retry may succeed.
func (w *Worker) stealFrom(v *Worker) (h *frameHeader, j *job, lost bool) {
	w.stealAttempts++
	h, res := v.dq.steal()
	if res == lockfree.StealSuccess {
		return h, nil, false
	}
	j, jres := v.jobs.Steal()
	if jres == lockfree.StealSuccess {
		return nil, j, false
	}
	return nil, nil, res == lockfree.StealLost || jres == lockfree.StealLost
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

// runRoot runs a root submitted by Run or RunOn and wakes its caller; busy
// says it was taken at a poll point, on top of another task (fair.go).
//
// Then it lets the caller run at once. The caller, woken by the root's
// completion, sits in this processor's next-to-run slot; a worker that goes
// straight on with other work would keep it there until the Go scheduler
// preempts the worker, up to 10 ms later, and a caller that submits its
// next root at once would pay that for every one. A worker from its idle
// loop just yields (runtime.Gosched). A busy worker must not: Gosched puts
// it at the end of the global run queue, behind every goroutine the program
// has queued, while the task it interrupted holds a join that another
// worker may wait for. It hands the processor back instead: it asks the
// caller for an acknowledgement and parks until it comes, so that the
// caller runs in the slot it is in and the worker is readied into the
// caller's next-to-run slot, resuming as soon as the caller parks or ends.
func (w *Worker) runRoot(r *rootHeader, busy bool) {
	w.roots++
	// A root that a worker waits for by helping (RunOn from a task) gets
	// neither hand-back nor yield: complete wakes that worker, and it must
	// not be waited for here (it may be running a long stolen task, or one
	// that RunOns this worker). Read now: once complete has run, the waiter
	// may recycle r.
	helped := r.waiter != nil
	if busy && !helped {
		w.rootsBusy++
		r.handBack = true // before endRoot sends on done: the caller reads it after
		// The caller sends ack once it has the result (rootJob.wait): take
		// it in a deferred call, so that a root that calls runtime.Goexit
		// (which unwinds this goroutine past everything else here) does not
		// leave the token in the recycled job, where the next caller's send
		// would block.
		defer func() { <-r.ack }()
	}
	w.pool.rootStarted(r)
	w.runTask(r.job.execute, func(pe *PanicError) { w.endRoot(r, pe) })
	if !busy && !helped {
		runtime.Gosched()
	}
}

// endRoot publishes the end of the root r to whoever waits for it: the
// parked caller (done) and a worker that waits by helping (waiter).
func (w *Worker) endRoot(r *rootHeader, pe *PanicError) {
	w.publish()
	r.panicked = pe
	if waiter := r.waiter; waiter != nil {
		// Before the send: once the waiter has received, it may
		// recycle r. Its receive follows its probe of state, so done
		// is sent by then or just after.
		if r.state.Swap(frameDone) == frameSleeping { // pairs with probe's Load (Dekker with announce)
			w.pool.wakeWorker(waiter)
		}
	}
	r.done <- struct{}{} // publishes the result; the caller's receive pairs with it
	w.pool.exit()        // after the send: Close returns only once every caller can have its result
}

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
			if j := w.jobs.Pop(); j != nil {
				w.runJob(j)
				continue
			}
		}
		if !w.spare && w.limited() {
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
		if w.search(l, leap) {
			continue
		}
		if l.probe() {
			break
		}
		w.wait(forWork, l)
	}
	w.stopSearching() // woken by a waker but not searching any more
}
