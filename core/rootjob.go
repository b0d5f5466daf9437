package core

import (
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gofork/gofork/internal/lockfree"
)

// A root is a task submitted to the pool by Run, Pool.Run or RunOn: its
// record, recycled per result type, carries the function, the result and
// the caller's wake-up; a worker runs it through the task boundary and
// hands the result back (runRoot, endRoot).

// rootHeader is the untyped part of a submitted root.
type rootHeader struct {
	job      frameJob
	panicked *PanicError
	done     chan struct{} // the worker sends when the root is complete
	// handBack, when set by the worker before it sends on done, asks the
	// caller to send on ack once it runs: a worker that took the root at a
	// poll point waits for that, so that it resumes right after its caller
	// instead of behind every goroutine queued (see runRoot).
	handBack bool
	ack      chan struct{}
	// waiter is the worker of the pool that waits for the root by helping
	// (RunOn from a task), or nil for a parked caller. For it the root is a
	// latch, as a stolen frame is for its owner: state goes from
	// framePending to frameSleeping when the waiter sleeps (announce), and
	// to frameDone when the root is complete, with a wake-up if it slept.
	waiter *Worker
	state  atomic.Uint32
	// Link threads a worker's inbox while the root is on its stack, and
	// the injector's queue or the inbox's taken batch after.
	lockfree.Link[rootHeader]
	submitted int64 // when it was submitted, in ns since the pool started (Pool.now)
	// labels are the pprof labels of the goroutine that submitted it,
	// which it runs with (labels.go).
	labels *profLabel
}

// rootJob is a root submitted by Run, Pool.Run or RunOn, recycled through a
// per-type sync.Pool.
type rootJob[R any] struct {
	hdr  rootHeader
	home *sync.Pool // the pool of *rootJob[R] it is returned to
	fn   func(*Worker) R
	proc func(*Worker) // a root without a result (Pool.Run, RunOn): fn is nil
	res  R
}

func (j *rootJob[R]) execute(w *Worker) {
	if j.proc != nil {
		j.proc(w)
		return
	}
	j.res = j.fn(w)
}

func (j *rootJob[R]) release() {
	var zero R
	j.fn, j.proc, j.res = nil, nil, zero
}

// wait parks the caller until the root is done, recycles the job and returns
// the result or re-raises the root's panic.
func (j *rootJob[R]) wait(p *Pool) R {
	<-j.hdr.done // pairs with the send in endRoot: the result is visible
	if j.hdr.handBack {
		j.hdr.handBack = false
		j.hdr.ack <- struct{}{} // buffered: the worker waits for it (runRoot)
	}
	res, pe := j.res, j.hdr.panicked
	j.release()
	j.hdr.panicked = nil
	j.hdr.labels = nil
	j.hdr.waiter = nil
	j.hdr.state.Store(framePending)
	j.home.Put(j)
	if pe != nil {
		panic(pe)
	}
	return res
}

// getRootJob returns a recycled root job for result type R. Root jobs carry a
// channel, so recycling them keeps Run free of allocations in steady state.
// Each job remembers its type's sync.Pool, so returning it needs no lookup.
func getRootJob[R any](p *Pool) *rootJob[R] {
	t := reflect.TypeFor[R]()
	sp, ok := p.rootJobs.Load(t)
	if !ok {
		sp, _ = p.rootJobs.LoadOrStore(t, new(sync.Pool))
	}
	home := sp.(*sync.Pool)
	if j, ok := home.Get().(*rootJob[R]); ok {
		return j
	}
	j := &rootJob[R]{home: home}
	j.hdr.job = j
	j.hdr.done = make(chan struct{}, 1)
	j.hdr.ack = make(chan struct{}, 1)
	return j
}

// runRoot runs a root submitted by Run or RunOn and wakes its caller; busy
// says it was taken at a poll point, on top of another task (poll.go).
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
	// neither hand-back nor yield: endRoot wakes that worker, and it must
	// not be waited for here (it may be running a long stolen task, or one
	// that RunOns this worker). Read now: once endRoot has run, the waiter
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
	labels, region := w.enterLabels(r.labels), traceRoot()
	w.runTask(r.job.execute, func(pe *PanicError) { w.endRoot(r, pe) })
	endTrace(region)
	w.leaveLabels(labels)
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
