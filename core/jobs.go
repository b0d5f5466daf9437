package core

import "github.com/gofork/gofork/internal/lockfree"

// A job is a task forked by Scope.Go: run fn(w, arg) as a task of its own
// and count it done in scope. Unlike a Join's frame it is not tied to the
// forking task's stack: any task, or a goroutine outside the pool, may fork
// one, and any task may wait for its scope. A job is a value: it lives in
// the slots of a worker's job deque (lockfree.Deque), beside the frames, or
// of the pool's outside queue, and is copied out to run; there is no record
// to allocate or recycle.
type job struct {
	fn    func(*Worker, any)
	arg   any
	scope *Scope
	// outside: forked from outside the pool, so counted in flight by its
	// position in the pool's outside queue until it is done (outsideDone;
	// Close waits for it). A job with a nil fn fills a position that a Go
	// on a closed pool claimed (forkOutside): it is no task, and runJob
	// skips it.
	outside bool
	// labels are the pprof labels of the goroutine that forked it, which
	// it runs with (labels.go).
	labels *profLabel
}

// doneCount is what a worker has finished and not yet counted where others
// look (DESIGN.md, "Scope: dynamic tasks"): n jobs of scope, and outside of
// them (of any scope) that were forked from outside the pool. A worker that
// runs jobs of one scope back to back counts them in its own memory and
// gives the scope their number at once (flushDone) when it stops: before it
// runs a job of another scope, looks for work elsewhere, waits, or blocks.
// Owner only.
type doneCount struct {
	scope   *Scope
	n       int64
	outside int32
}

// jobRings keeps the large job rings that idle workers trimmed, for any
// worker whose job deque grows, until the garbage collector reclaims them
// (lockfree.RingPool): holding no setting, it is bookkeeping shared by the
// process's pools, like sync.Pool itself.
var jobRings lockfree.RingPool[job]

// drainOutside moves a batch of the jobs forked from outside the pool to
// w's job deque, oldest on top so that thieves take the oldest first, and
// reports whether there was any.
func (w *Worker) drainOutside() bool {
	return w.pool.outside.TakeTo(&w.jobs, outsideTake) > 0
}

// outsideTake is the most jobs drainOutside takes at once. The owner pops
// a job without a CAS only while StealMax jobs lie below it (D3 of
// lockfree.Deque): of a batch of outsideTake, all but the last StealMax pop
// with one store; thieves still see the whole batch, and take the oldest
// half of what they find, up to StealMax at a time.
const outsideTake = 8 * lockfree.StealMax

// runJob runs the job *j on w as a task of its own: its panic (or
// runtime.Goexit) is recorded in its scope and never propagated, and the
// scope counts it done whatever happens.
func (w *Worker) runJob(j *job) {
	if debugChecks {
		w.checkJobs() // after the pop, steal or take that gave j
	}
	if j.fn == nil {
		return // a closed pool's empty position: counted done by its Go
	}
	if d := &w.done; d.scope != j.scope && (d.n != 0 || d.outside != 0) {
		// The jobs of another scope are done: let its waiters go on now,
		// not after this job, which may be long.
		w.flushDone()
	}
	labels := w.enterLabels(j.labels)
	w.runTask(func(w *Worker) { j.fn(w, j.arg) }, func(pe *PanicError) { w.endJob(j, pe) })
	w.leaveLabels(labels)
}

// endJob records the end of the job j: in w's doneCount, or in its scope at
// once when the scope has a limit (a Go blocked on it must see each end) or
// the job panicked.
func (w *Worker) endJob(j *job, pe *PanicError) {
	s, d := j.scope, &w.done
	if d.scope != s {
		w.flushDone()
		d.scope = s
	}
	d.n++
	if j.outside {
		d.outside++
	}
	if pe != nil {
		s.panicked.CompareAndSwap(nil, pe)
		w.flushDone()
	} else if s.bound() >= 0 {
		w.flushDone()
	}
}

// flushDone gives the scope and the pool what w has finished and not yet
// counted: the scope's count first, then the pool's outsideDone, so that
// Close returns only once the scope has counted its jobs done.
func (w *Worker) flushDone() {
	d := &w.done
	s, n, out := d.scope, d.n, d.outside
	d.scope, d.n, d.outside = nil, 0, 0
	if n != 0 {
		s.finish(n)
	}
	if out != 0 {
		w.pool.outsideFinished(int64(out))
	}
}

// unflushed returns how many jobs of s w has finished and not yet counted
// in s. Owner only.
func (w *Worker) unflushed(s *Scope) int64 {
	if w.done.scope == s {
		return w.done.n
	}
	return 0
}
