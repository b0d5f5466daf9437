package core

import (
	"bytes"
	"context"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"testing"
	"time"
)

// withLabels runs fn on the calling goroutine under pprof.Do with the
// label req=v, and returns the label pointer fn ran with.
func withLabels(v string, fn func()) (labels *profLabel) {
	pprof.Do(context.Background(), pprof.Labels("req", v), func(context.Context) {
		labels = callerLabels()
		fn()
	})
	return labels
}

// workerLabels returns the labels a root submitted to each regular
// worker of p by RunOn, from a goroutine without labels, finds set.
func workerLabels(p *Pool) []*profLabel {
	got := make([]*profLabel, p.Workers())
	for id := range got {
		p.RunOn(id, func(w *Worker) { got[id] = callerLabels() })
	}
	return got
}

// TestLabelsNotInherited: a pool's workers do not run with the labels of
// the goroutine that started it, nor keep those of a task they ran.
func TestLabelsNotInherited(t *testing.T) {
	var p *Pool
	creator := withLabels("creator", func() { p = New(WithWorkers(2)) })
	defer closeChecked(t, p)
	if creator == nil {
		t.Fatal("pprof.Do set no labels")
	}
	for id, l := range workerLabels(p) {
		if l != nil {
			t.Errorf("worker %d runs a root of a caller without labels with labels (the pool's creator's: %v)", id, l == creator)
		}
	}

	// Tasks with labels on every worker, then none.
	var mu sync.Mutex
	seen := map[int]bool{}
	a := withLabels("a", func() {
		var s Scope
		for range 64 {
			s.Go(p, func(w *Worker) {
				mu.Lock()
				seen[w.ID()] = true
				mu.Unlock()
				if callerLabels() == nil {
					t.Error("a task forked under labels ran without them")
				}
			})
		}
		s.Wait(p)
	})
	for id, l := range workerLabels(p) {
		if l != nil {
			t.Errorf("worker %d kept labels after a task (those of the last task: %v)", id, l == a)
		}
	}
	for _, w := range p.roster.Load().regular {
		if seen[w.ID()] {
			t.Logf("worker %d ran a labelled task", w.ID())
		}
	}
	// A worker in its idle loop has no marks and no labels.
	if !waitAllAsleep(p, 10*time.Second) {
		t.Fatal("workers still awake 10 s after the last task")
	}
	for _, w := range p.roster.Load().regular {
		if n := w.labels.n.Load(); n != 0 {
			t.Errorf("idle worker %d holds %d label marks", w.ID(), n)
		}
	}
}

// TestLabelsFollowWork: every kind of task runs with the labels of the
// goroutine whose call started it, whichever worker runs it.
func TestLabelsFollowWork(t *testing.T) {
	p := New(WithWorkers(3))
	defer closeChecked(t, p)
	other := New(WithWorkers(1))
	defer closeChecked(t, other)

	check := func(name string, want *profLabel) func() {
		return func() {
			if got := callerLabels(); got != want {
				t.Errorf("%s: a task ran with labels %p, want %p (its caller's)", name, got, want)
			}
		}
	}
	var leaf func(w *Worker, n int) int
	var want *profLabel
	leaf = func(w *Worker, n int) int {
		if n < 2 {
			check("stolen frame", want)()
			return n
		}
		x, y := Join(w, leaf, n-1, leaf, n-2)
		return x + y
	}
	for _, v := range []string{"a", "b"} {
		withLabels(v, func() {
			l := callerLabels()
			want = l
			// A root from outside, its stolen frames and a nested Run.
			RunValue(p, func(w *Worker) int {
				x, _ := Join(w, leaf, 16, func(w *Worker, _ int) int {
					return RunValue(p, func(w *Worker) int { return leaf(w, 14) })
				}, 0)
				return x
			})
			// Scope tasks forked from outside and from a task.
			var s Scope
			for range 16 {
				s.Go(p, func(w *Worker) {
					check("scope task from outside", l)()
					var inner Scope
					inner.Go(p, func(w *Worker) { check("scope task from a task", l)() })
					inner.Wait(p)
				})
			}
			s.Wait(p)
			// RunOn, and a Run from a task of another pool.
			p.RunOn(1, func(*Worker) { check("RunOn", l)() })
			RunValue(other, func(w *Worker) int {
				return RunValue(p, func(w *Worker) int { check("Run from another pool", l)(); return 0 })
			})
			// New labels inside a task reach the tasks it forks and the
			// roots it runs.
			RunValue(p, func(w *Worker) int {
				withLabels(v+"-inner", func() {
					inner := callerLabels()
					var s Scope
					for range 8 {
						s.Go(p, func(*Worker) { check("scope task under pprof.Do in a task", inner)() })
					}
					s.Wait(p)
					RunValue(p, func(w *Worker) int {
						want = inner
						return leaf(w, 14)
					})
					want = l
				})
				return 0
			})
		})
	}
	if want == nil {
		t.Fatal("pprof.Do set no labels")
	}
	if p.Stats().Total().Stolen == 0 {
		t.Log("no frame was stolen: the stolen-frame case went unchecked")
	}
}

// TestLabelMarks: a thief finds the labels of the task that pushed a frame
// by its depth.
func TestLabelMarks(t *testing.T) {
	var w Worker
	a, b := new(profLabel), new(profLabel)
	if w.labelsAt(0) != nil {
		t.Fatal("a worker without marks gives labels")
	}
	sa := w.enterLabels(a) // a task at depth 0
	w.dq.head = 3
	sb := w.enterLabels(b) // a task of another root at depth 3, on top
	for i, want := range []*profLabel{a, a, a, b, b} {
		if got := w.labelsAt(uint32(i)); got != want {
			t.Errorf("labelsAt(%d) = %p, want %p", i, got, want)
		}
	}
	w.leaveLabels(sb)
	w.dq.head = 0
	w.leaveLabels(sa)
	if n := w.labels.n.Load(); n != 0 || w.labels.cur != nil {
		t.Errorf("after both tasks: %d marks, labels %p", n, w.labels.cur)
	}
	if got := runtime_getProfLabel(); got != nil {
		t.Errorf("the goroutine kept labels %p", got)
	}
}

// TestTraceRegion: with the execution tracer on, a root is a region.
func TestTraceRegion(t *testing.T) {
	if trace.IsEnabled() {
		t.Skip("a trace is already running")
	}
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Skipf("trace.Start: %v", err)
	}
	RunValue(p, func(w *Worker) int { return fib(w, 10) })
	trace.Stop()
	if !bytes.Contains(buf.Bytes(), []byte("gofork.root")) {
		t.Error("the trace names no region gofork.root")
	}
}

// BenchmarkTaskLabels is what a root or a steal pays for labels: the
// enterLabels and leaveLabels around a task, with the labels of the task
// below (same) and with another root's (other).
func BenchmarkTaskLabels(b *testing.B) {
	var w Worker
	a, o := new(profLabel), new(profLabel)
	outer := w.enterLabels(a)
	defer w.leaveLabels(outer)
	b.Run("same", func(b *testing.B) {
		for b.Loop() {
			w.leaveLabels(w.enterLabels(a))
		}
	})
	b.Run("other", func(b *testing.B) {
		for b.Loop() {
			w.leaveLabels(w.enterLabels(o))
		}
	})
	b.Run("thief-lookup", func(b *testing.B) {
		for b.Loop() {
			sinkLabel = w.labelsAt(3)
		}
	})
}

var sinkLabel *profLabel
