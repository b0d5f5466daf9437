package core

import (
	"sync/atomic"

	"github.com/gofork/gofork/internal/lockfree"
)

// A Worker is one of a pool's workers: a goroutine with a work-stealing deque.
// Tasks receive the worker that runs them and pass it to Join and Invoke. A
// *Worker must not be used outside the task that received it, nor from another
// goroutine.
type Worker struct {
	dq deque // first: the fields Join touches sit at the start of the struct

	pool *Pool

	// Owner-private counters, published to stats by publish.
	shares        uint64
	stolen        uint64
	stealAttempts uint64
	roots         uint64
	rootsBusy     uint64 // roots taken at a poll point while running a task

	// base is the deque depth at which the running task started: Sync may
	// not pop below it (runTask and an inline Run set and restore it).
	base uint32

	// meter is the work/span meter of a measured run on this worker
	// (MeasureWorkSpan), nil otherwise. While it is set the deque's fast
	// limit stays 0, so every fork takes reach's branch, which looks here.
	// Owner only.
	meter *workSpanMeter

	id    int    // index in creation order, regular and spare alike
	index int    // regular workers: position among them (the limit applies to it); -1 for spares
	spare bool   // a spare, standing in for blocked workers (spare.go)
	guest bool   // a guest record: a caller's goroutine running its own root (guest.go)
	gslot int    // its slot in the goroutine table while registered (gtable.go)
	cpu   int    // the CPU of the topology the worker is placed on
	node  int    // index in pool.nodes of the NUMA node of cpu
	rng   uint64 // xorshift64* state for victim choice
	wake  chan struct{}

	// inbox receives roots submitted to this worker by RunOn.
	inbox inbox

	// jobs holds the tasks this worker forked with Scope.Go, or stole or
	// took from the outside queue (jobs.go); done, those it finished and
	// has not yet counted (owner only).
	jobs lockfree.Deque[job]
	done doneCount

	idle      idleState // where it stands in the idle protocol (idle.go); guarded by the pool's sleep.mu
	searching bool      // counted in the pool's searching count; owner only (set from woken by leaveIdle)

	blocking int  // depth of Blocking calls running on this worker; owner only
	inRoot   bool // running a root taken at a poll point (poll.go); owner only

	// life is the hand-over between a goroutine that ends after the
	// pool's keep-alive and the waker that starts the next (keepalive.go).
	life lifeState

	// labels are the pprof labels of the task running on w, and the
	// marks that tell thieves those of each frame (labels.go).
	labels labelStack

	// lane is the guest whose root the running task belongs to, nil for
	// none (guest.go): set by a guest for its root and by a thief for a
	// task it stole from a worker in a lane. Written by the owner, read by
	// thieves.
	lane atomic.Pointer[Worker]
	// guestRec is a guest record's state (guest.go); unused otherwise.
	guestRec guestRecord
	// claim is the guest that holds this regular worker's place, or has
	// claimed it (guest.go); written under the pool's sleep.mu, read by
	// the owner at its idle points.
	claim atomic.Pointer[Worker]

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
	sleepingSince                                           atomic.Int64 // 1 + the current sleep's start (Pool.now), 0 when awake
}

// sleepFrom records that the worker went idle at now (Pool.now). Owner only.
func (s *workerStats) sleepFrom(now int64) { s.sleepingSince.Store(now + 1) } // +1: 0 means awake

// wakeAt ends the sleep sleepFrom recorded, if any, at now (Pool.now),
// counting it as idle. Owner only.
func (s *workerStats) wakeAt(now int64) {
	if since := s.sleepingSince.Swap(0); since != 0 {
		s.idleNanos.Add(now - (since - 1))
	}
}

// ID returns the worker's ID in its pool: its index in the order workers
// were created, from 0 to Pool.MaxWorkerID()-1, fixed for the life of the
// pool. Until a pool grows, its regular workers have the IDs 0 to
// Workers()-1; spares and guests (the records callers' goroutines run
// their roots with, see Run) take the IDs after them.
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

// loop is the body of a worker goroutine. A revived goroutine (one that
// takes over from a goroutine that ended after its keep-alive, see
// keepalive.go) first carries on with the wait its predecessor left.
func (w *Worker) loop(revived bool) {
	p := w.pool
	quitting, expired := false, false
	defer func() {
		if expired { // the keep-alive ran out: expire left the goroutine table, and w may run on a new goroutine already
			p.exited.Done()
			return
		}
		forget(w)
		if quitting {
			p.goroutines.Add(-1)
			p.exited.Done()
			return
		}
		// A task called runtime.Goexit: every task on this goroutine has
		// been completed with ErrGoexit (runTask), and the goroutine is
		// ending. A fresh one takes over the worker and its deque, on a
		// thread pinned as the old one was (the runtime retires the old
		// one, still locked, with the goroutine).
		go func() {
			clearLabels() // not those of the task that ended the old goroutine
			w.resetLabels()
			w.lane.Store(nil) // the tasks of the old goroutine are over
			if w.pinned.Load() && pinCurrentThread(w.cpu) != nil {
				w.pinned.Store(false) // it pinned before: only a changed cpuset gets here
			}
			register(w, curg())
			w.loop(false)
		}()
	}()
	if revived {
		if quitting, expired = w.waitIdle(w.life.why, nil, true); quitting {
			return
		}
	} else {
		p.leaveIdle(w, nil) // a spare starts woken, counted as searching by its activator; never lent
	}
	for {
		switch {
		case w.spare && !w.searching && w.shouldRetire():
			// More spares run than workers block: this one goes.
			w.flushDone()
			if quitting, expired = w.wait(forActivation, nil); quitting {
				return
			}
			continue
		case !w.spare && w.limited() && !w.inbox.ready():
			w.flushDone()
			w.stopSearching()
			if quitting, expired = w.wait(forLimit, nil); quitting {
				return
			}
			continue
		}
		if !w.searching {
			if j := new(job); w.jobs.PopTo(j) { // its own jobs, without counting itself searching (see helpUntil)
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
			if quitting, expired = w.wait(forActivation, nil); quitting {
				return
			}
			continue
		}
		// A spare still wanted sleeps like any worker: work for it may
		// come while the worker it stands in for is blocked.
		p.refreshLimit()
		w.jobs.Trim() // going idle: a ring grown for a burst goes, and the outside queue's spare segments
		p.outside.Trim()
		if quitting, expired = w.wait(forWork, nil); quitting {
			return // the keep-alive ran out
		}
	}
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

// splitmix is SplitMix64's output function, never 0: it seeds each
// worker's xorshift generator (which must not start at 0) from the pool's
// seed and the worker's ID.
func splitmix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	x ^= x >> 31
	if x == 0 {
		x = 1
	}
	return x
}
