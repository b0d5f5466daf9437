package core

import (
	"context"
	"runtime/trace"
	"sync/atomic"
	"unsafe"
)

// Labels follow the work (DESIGN.md, "Profiler labels"). A task runs with
// the pprof labels (runtime/pprof.Do, SetGoroutineLabels) of the goroutine
// whose call started its root, whichever worker runs it, as a goroutine
// runs with those of the goroutine that started it. The labels are the
// runtime's label pointer of that goroutine, read once where work enters
// the pool and set on the goroutine of the worker that runs it; core never
// looks inside it.
//
//   - A root carries its caller's labels: a guest (Run from outside) runs on
//     the caller's goroutine, which has them; a root submitted to a worker
//     (RunOn, Run from another pool's task) carries them in its record; a
//     nested Run reads the calling task's, which pprof.Do may have changed.
//   - A Scope's job carries the labels of the goroutine that forked it.
//   - A stolen frame takes the labels of the task that pushed it, which its
//     owner publishes in a small stack of (depth, labels) marks (below).
//   - A worker's goroutine starts with none and goes back to none after
//     each task; nothing is set or read on the fork path.

// labelMarks is how many label changes a worker's stack of tasks records
// for thieves. A mark is pushed only when a task starts with labels other
// than those of the task below it on the same goroutine (a root of another
// caller run at a poll point or while waiting, a steal from another root),
// so stacks deeper than this are rare; above it, frames take the labels of
// the last mark recorded.
const labelMarks = 8

// profLabel stands for the runtime's label map; only pointers to it are
// handled, never dereferenced.
type profLabel struct{}

// runtime_getProfLabel and runtime_setProfLabel read and write the current
// goroutine's label pointer: the pair runtime/pprof itself uses, which the
// runtime keeps for outside users (go.dev/issue/67401).
//
//go:linkname runtime_getProfLabel runtime/pprof.runtime_getProfLabel
func runtime_getProfLabel() unsafe.Pointer

//go:linkname runtime_setProfLabel runtime/pprof.runtime_setProfLabel
func runtime_setProfLabel(labels unsafe.Pointer)

// callerLabels returns the calling goroutine's labels.
func callerLabels() *profLabel { return (*profLabel)(runtime_getProfLabel()) }

// clearLabels drops the calling goroutine's labels: a worker's goroutine
// starts with none.
func clearLabels() { runtime_setProfLabel(nil) }

// labelStack is a worker's record of the labels its tasks run with.
//
// cur is the labels set on the worker's goroutine now (owner only). The
// marks say, for thieves, which labels the frames at each deque depth
// belong to: mark k says that the frames at depths from marks[k].depth up
// (to the next mark) were pushed by tasks running with marks[k].labels;
// below the first mark, with none. n counts the marks, including those
// beyond labelMarks that are not recorded.
//
// Why the thief's reading is exact (labelsAt): a frame at depth i stays in
// the deque until the task that pushed it joins it, and a task that starts
// on top of it starts at a depth above i. So from the push of frame i until
// the thief has taken it, the marks at depths <= i are those of the tasks
// below the pusher, which cannot end before the frame is joined: the
// owner neither rewrites nor pops them. A mark pushed meanwhile has a
// depth above i, whatever a thief reading it concurrently sees of it. The
// owner stores a mark's depth and labels, then n (the publication); the
// thief's steal pairs with the owner's push of the frame, which came after
// the marks below it were published, and then loads n: every mark at or
// below i is visible to it.
type labelStack struct {
	cur   *profLabel
	n     atomic.Int32
	marks [labelMarks]labelMark
}

type labelMark struct {
	depth  atomic.Uint32
	labels atomic.Pointer[profLabel]
}

// labelSave is what leaveLabels needs to undo an enterLabels.
type labelSave struct {
	outer *profLabel     // the labels of the task below
	l     *profLabel     // the labels of the task started
	prev  unsafe.Pointer // the goroutine's labels before
}

// enterLabels makes l the labels of the task w starts now, at its deque's
// current depth: it sets them on the goroutine and, when they differ from
// those of the task below, pushes a mark for thieves. It returns what
// leaveLabels needs when the task ends. Owner only.
func (w *Worker) enterLabels(l *profLabel) labelSave {
	ls := &w.labels
	s := labelSave{outer: ls.cur, l: l, prev: runtime_getProfLabel()}
	if l != s.outer {
		n := ls.n.Load()
		if n < labelMarks {
			m := &ls.marks[n]
			m.depth.Store(w.dq.head)
			m.labels.Store(l)
		}
		ls.n.Store(n + 1) // publishes the mark; pairs with the Load in labelsAt
		ls.cur = l
	}
	if unsafe.Pointer(l) != s.prev {
		runtime_setProfLabel(unsafe.Pointer(l))
	}
	return s
}

// leaveLabels undoes enterLabels when the task it started ends: the mark
// goes, and the goroutine gets back the labels it had, those of the task
// below or any that code of that task set with pprof.Do. Owner only.
func (w *Worker) leaveLabels(s labelSave) {
	ls := &w.labels
	if s.l != s.outer {
		ls.n.Add(-1)
		ls.cur = s.outer
	}
	if unsafe.Pointer(s.l) != s.prev {
		runtime_setProfLabel(s.prev)
	}
}

// resetLabels forgets every mark: the goroutine that ran w's tasks ended
// inside one (runtime.Goexit), or a guest record is given back. Owner only.
func (w *Worker) resetLabels() {
	if w.labels.n.Load() != 0 { // almost always 0: skip the store, a full fence on amd64
		w.labels.n.Store(0)
	}
	w.labels.cur = nil
}

// labelsAt returns the labels of the task that pushed the frame at depth
// i of v's deque, which the caller has just stolen. Any worker.
func (v *Worker) labelsAt(i uint32) *profLabel {
	ls := &v.labels
	n := min(ls.n.Load(), labelMarks) // pairs with the Store in enterLabels
	for k := n - 1; k >= 0; k-- {
		if m := &ls.marks[k]; m.depth.Load() <= i {
			return m.labels.Load()
		}
	}
	return nil
}

// traceRoot starts a region named "gofork.root" in the execution tracer
// when it is on, so that go tool trace shows each root, and returns it (nil
// otherwise) for endTrace.
func traceRoot() *trace.Region {
	if !trace.IsEnabled() {
		return nil
	}
	return trace.StartRegion(context.Background(), "gofork.root")
}

// endTrace ends a region traceRoot returned.
func endTrace(r *trace.Region) {
	if r != nil {
		r.End()
	}
}

// runUnlabelled is the governor's goroutine: it runs with no labels, not
// those of the caller whose root started it.
func (g *governor) runUnlabelled() {
	clearLabels()
	g.run()
}
