package core

import (
	"sync"

	"github.com/gofork/gofork/internal/lockfree"
)

// A job is a task forked by Scope.Go: run fn(w, arg) as a task of its own
// and count it done in scope. Unlike a Join's frame it is not tied to the
// forking task's stack: any task, or a goroutine outside the pool, may fork
// one, and any task may wait for its scope. Jobs live on a per-worker deque
// of their own (lockfree.Deque), beside the frames.
type job struct {
	fn    func(*Worker, any)
	arg   any
	scope *Scope
	// Link threads the pool's outside stack while the job is on it, and
	// the worker's free list once it is done.
	lockfree.Link[job]
	// outside: forked from outside the pool, so counted in the pool's
	// inflight (Close waits for it) until it is done.
	outside bool
}

// getJob returns a job record from w's free list, or a new one (w may be
// nil: from outside a task).
func getJob(w *Worker) *job {
	if w != nil {
		if j := w.jobFree; j != nil {
			w.jobFree = j.Next
			w.jobFreeLen--
			j.Next = nil
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
		j.Next = w.jobFree
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

// drainOutside moves every job of the pool's outside stack to w's job
// deque, oldest on top so that thieves take the oldest first, and reports
// whether there was any.
func (w *Worker) drainOutside() bool {
	fifo := w.pool.outside.TakeAll()
	if fifo == nil {
		return false
	}
	for fifo != nil {
		next := fifo.Next
		fifo.Next = nil
		w.jobs.Push(fifo)
		fifo = next
	}
	return true
}

// runJob runs the job j on w as a task of its own: its panic (or
// runtime.Goexit) is recorded in its scope and never propagated, and the
// scope counts it done whatever happens.
func (w *Worker) runJob(j *job) {
	w.runTask(j.run, func(pe *PanicError) { w.endJob(j, pe) })
}

func (j *job) run(w *Worker) { j.fn(w, j.arg) }

// endJob records the end of the job j in its scope and recycles its record
// (one that panicked is left to the collector).
func (w *Worker) endJob(j *job, pe *PanicError) {
	s, outside := j.scope, j.outside
	if pe != nil {
		s.panicked.CompareAndSwap(nil, pe)
	} else {
		w.putJob(j)
	}
	s.finish()
	if outside {
		w.pool.exit() // after finish: Close returns once the scope has counted it done
	}
}
