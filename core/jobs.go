package core

import (
	"sync"
	"sync/atomic"
)

// A job is a task forked by Scope.Go: run fn(w, arg) as a task of its own
// and count it done in scope. Unlike a Join's frame it is not tied to the
// forking task's stack: any task, or a goroutine outside the pool, may fork
// one, and any task may wait for its scope. Jobs live on a per-worker deque
// of their own (jobDeque), beside the frames.
type job struct {
	fn    func(*Worker, any)
	arg   any
	scope *Scope
	next  *job // the pool's outside stack, or the worker's free list
	// outside: forked from outside the pool, so counted in the pool's
	// inflight (Close waits for it) until it is done.
	outside bool
}

// getJob returns a job record from w's free list, or a new one (w may be
// nil: from outside a task).
func getJob(w *Worker) *job {
	if w != nil {
		if j := w.jobFree; j != nil {
			w.jobFree = j.next
			w.jobFreeLen--
			j.next = nil
			return j
		}
	}
	if j, ok := sharedJobs.Get().(*job); ok {
		return j
	}
	return &job{}
}

// sharedJobs recycles the job records that no worker's free list keeps:
// those of jobs forked from outside the pool (one allocation less a task
// for a goroutine that forks many) and the overflow of a worker that runs
// more jobs than it forks, which a worker that forks more than it runs
// takes back. sync.Pool moves records between processors.
var sharedJobs sync.Pool

// putJob returns a finished job's record to w's free list.
func (w *Worker) putJob(j *job) {
	outside := j.outside
	j.fn, j.arg, j.scope, j.outside = nil, nil, nil, false
	if !outside && w.jobFreeLen < jobFreeMax {
		j.next = w.jobFree
		w.jobFree = j
		w.jobFreeLen++
		return
	}
	// An outside job's record, or the overflow of a thief that runs more
	// jobs than it forks: it goes where a forking worker whose own list
	// runs dry finds it (getJob), instead of to the garbage collector.
	sharedJobs.Put(j)
}

// jobFreeMax bounds a worker's free list of job records: a worker that runs
// more jobs than it forks (a thief) would otherwise collect them all.
const jobFreeMax = 1024

// jobDeque is a worker's deque of jobs: the Chase-Lev deque ("Dynamic
// circular work-stealing deque", D. Chase and Y. Lev, SPAA 2005), with
// every access through sequentially consistent atomics, which is the
// model the paper's proof assumes (Lê, Pop, Cohen and Zappa Nardelli, PPoPP
// 2013, give the weaker orders C11 would allow; Go has only these). The
// owner pushes and pops at bottom; thieves take from top.
//
// Invariants:
//
//	J1  top only grows (thieves and the owner's last-element pop CAS it
//	    up by one), so a CAS on top never succeeds against a stale value
//	    by ABA.
//	J2  the jobs are slots [top, bottom) of ring; a thief reads slot t only
//	    with t < bottom as it loaded it, and claims it by CAS of top from t.
//	J3  a ring is never written again once replaced by grow or trim: a
//	    thief still holding it reads the jobs it held, which grow copied,
//	    and its CAS on top decides whether the one it read is its to run.
//	J4  trim replaces the ring only while the deque is empty (top ==
//	    bottom, seen by the owner, the only one who pushes), so it copies
//	    nothing: a thief's CAS from a top it read before the deque emptied
//	    fails (J1), and one that reads a bottom above top afterwards read
//	    it after a push, which stored the new ring first.
//
// A job costs two atomic stores on the owner's side (push's store of
// bottom, pop's) where a frame costs none: jobs are for Scope.Go, whose
// tasks are a microsecond and up, not for the fork fast path.
type jobDeque struct {
	top atomic.Int64 // next job to steal; CAS by thieves and by the owner's last pop
	_   [cacheLinePad - 8]byte
	// bottom is the next free slot; written by the owner only.
	bottom atomic.Int64
	ring   atomic.Pointer[jobRing] // replaced by the owner on growth
	_      [cacheLinePad - 16]byte
}

type jobRing struct {
	slots []atomic.Pointer[job]
	mask  int64
}

func newJobRing(n int) *jobRing {
	return &jobRing{slots: make([]atomic.Pointer[job], n), mask: int64(n - 1)}
}

// jobDequeInitial is a job deque's first capacity; it doubles as needed.
const jobDequeInitial = 32

// jobRingKeep is the largest ring a job deque keeps once it has emptied.
// A burst of pending jobs (a Group of 10^6 tasks forked from one task)
// grows the ring to the burst's size, and its slots go on pointing at the
// job records taken from them: without the trim, a worker would hold 8 MiB
// of ring and 48 MiB of records for the rest of the pool's life after one
// such burst. Growing back costs one copy of each job per doubling, which
// the burst that needs it amortizes.
const jobRingKeep = 1024

// push adds j at the bottom. Owner only.
func (d *jobDeque) push(j *job) {
	b := d.bottom.Load()
	t := d.top.Load()
	r := d.ring.Load()
	if r == nil || b-t >= int64(len(r.slots)) {
		r = d.grow(r, t, b)
	}
	r.slots[b&r.mask].Store(j)
	d.bottom.Store(b + 1) // publish slot b; pairs with bottom.Load in steal
}

// grow copies the jobs [t, b) into a ring twice as large and publishes it
// (J3). Owner only.
func (d *jobDeque) grow(old *jobRing, t, b int64) *jobRing {
	n := jobDequeInitial
	if old != nil {
		n = 2 * len(old.slots)
	}
	r := newJobRing(n)
	for i := t; i < b; i++ {
		r.slots[i&r.mask].Store(old.slots[i&old.mask].Load())
	}
	d.ring.Store(r) // before bottom moves past the old capacity
	return r
}

// pop takes the newest job, or returns nil. Owner only.
func (d *jobDeque) pop() *job {
	b := d.bottom.Load() - 1
	r := d.ring.Load()
	if r == nil {
		return nil
	}
	// Claim slot b before looking at top; pairs with the thieves' loads of
	// top, then bottom (Dekker). The store must be ordered before the load
	// of top that follows. Go's atomics are sequentially consistent, which
	// promises that, but a read-modify-write is what every implementation
	// orders that way without help: under qemu-aarch64, a Store here (STLR)
	// let the load pass it, and TestJobDequeStress took a job twice in 11
	// of 30 runs; with Swap (SWPAL) it never did. A Store is already an
	// XCHG on amd64, so this costs nothing there.
	d.bottom.Swap(b)
	t := d.top.Load()
	if t > b { // empty: undo
		d.bottom.Store(b + 1)
		if len(r.slots) > jobRingKeep {
			d.ring.Store(newJobRing(jobDequeInitial)) // J4: empty, so nothing to copy
		}
		return nil
	}
	j := r.slots[b&r.mask].Load()
	if t == b {
		// The last job: race the thieves for it on top (J1).
		if !d.top.CompareAndSwap(t, t+1) {
			j = nil // a thief took it
		}
		d.bottom.Store(b + 1)
	}
	return j
}

// steal takes the oldest job. Any worker but the owner.
func (d *jobDeque) steal() (*job, stealResult) {
	t := d.top.Load()
	b := d.bottom.Load() // after top: pairs with the owner's bottom stores
	if t >= b {
		return nil, stealEmpty
	}
	r := d.ring.Load()
	j := r.slots[t&r.mask].Load() // J2: t < b, so slot t holds a job pushed before b was stored
	if !d.top.CompareAndSwap(t, t+1) {
		return nil, stealLost // another thief or the owner's last pop won it
	}
	return j, stealSuccess
}

// size returns a snapshot of the number of jobs waiting; any goroutine.
func (d *jobDeque) size() int64 {
	return max(d.bottom.Load()-d.top.Load(), 0)
}

// pushOutside puts a job forked from outside the pool on the pool's
// outside stack (Treiber), where the next worker that looks for work takes
// the whole stack at once (drainOutside). One CAS a job, no lock.
func (p *Pool) pushOutside(j *job) {
	for {
		old := p.outside.Load()
		j.next = old
		if p.outside.CompareAndSwap(old, j) { // publishes j and j.next; pairs with the Swap in drainOutside
			return
		}
	}
}

// drainOutside moves every job of the pool's outside stack to w's job
// deque, oldest on top so that thieves take the oldest first, and reports
// whether there was any.
func (w *Worker) drainOutside() bool {
	p := w.pool
	if p.outside.Load() == nil {
		return false
	}
	top := p.outside.Swap(nil)
	if top == nil {
		return false
	}
	var fifo *job // reverse the stack: oldest first
	for top != nil {
		next := top.next
		top.next = fifo
		fifo = top
		top = next
	}
	for fifo != nil {
		next := fifo.next
		fifo.next = nil
		w.jobs.push(fifo)
		fifo = next
	}
	return true
}
