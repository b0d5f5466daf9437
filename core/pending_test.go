package core

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestPending checks Worker.Pending: one more per open Join while nothing is
// stolen, and none once a thief has taken the only frame.
func TestPending(t *testing.T) {
	p := New(WithWorkers(1), WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer p.Close()
	type depths struct{ before, inF, inNested, inG, after int }
	got := RunValue(p, func(w *Worker) depths {
		var d depths
		d.before = w.Pending()
		Join(w, func(w *Worker, _ int) int {
			d.inF = w.Pending()
			Join(w, func(w *Worker, _ int) int { d.inNested = w.Pending(); return 0 },
				0, func(*Worker, int) int { return 0 }, 0)
			return 0
		}, 0, func(w *Worker, _ int) int { d.inG = w.Pending(); return 0 }, 0)
		d.after = w.Pending()
		return d
	})
	if want := (depths{0, 1, 2, 0, 0}); got != want {
		t.Errorf("Pending at P=1: %+v, want %+v", got, want)
	}

	p2 := New(WithWorkers(2))
	defer p2.Close()
	for range 20 {
		left := RunValue(p2, func(w *Worker) int {
			var stolen atomic.Bool
			left := -1
			Join(w, func(w *Worker, _ int) int {
				if n := w.Pending(); n > 1 {
					t.Errorf("Pending = %d with one frame pushed", n)
				}
				deadline := time.Now().Add(10 * time.Second)
				for !stolen.Load() && time.Now().Before(deadline) {
					w.Poll() // share the frame if the other worker asks
					runtime.Gosched()
				}
				left = w.Pending()
				return 0
			}, 0, func(*Worker, int) int { stolen.Store(true); return 0 }, 0)
			if !stolen.Load() {
				t.Fatal("g was not stolen in 10 s")
			}
			return left
		})
		if left != 0 {
			t.Fatalf("Pending = %d after the only frame was stolen, want 0", left)
		}
	}
}

// TestHungry checks Worker.Hungry: false while every worker is busy, true
// while another is idle.
func TestHungry(t *testing.T) {
	p1 := New(WithWorkers(1), WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer p1.Close()
	if onWorker(p1, func(w *Worker) bool { return w.Hungry() }) {
		t.Error("Hungry with the only worker running a task")
	}

	p2 := New(WithWorkers(2))
	defer p2.Close()
	// The other worker has nothing to do: it is searching or asleep.
	if !RunValue(p2, func(w *Worker) bool {
		deadline := time.Now().Add(10 * time.Second)
		for !w.Hungry() && time.Now().Before(deadline) {
			runtime.Gosched()
		}
		return w.Hungry()
	}) {
		t.Error("Hungry stayed false with the other worker idle for 10 s")
	}
	// Both workers busy with one half of a Join each: neither is hungry
	// once the thief has stopped counting as searching. Each samples while
	// the other is still inside its half (a barrier before and after), since
	// a worker that returned may already be looking for work again.
	var in, sampled atomic.Int32
	var hungry [2]atomic.Bool
	barrier := func(w *Worker, c *atomic.Int32) bool {
		c.Add(1)
		deadline := time.Now().Add(10 * time.Second)
		for c.Load() < 2 {
			if time.Now().After(deadline) {
				return false
			}
			w.Poll()
			runtime.Gosched()
		}
		return true
	}
	spin := func(w *Worker, i int) int {
		if !barrier(w, &in) {
			return 0
		}
		deadline := time.Now().Add(time.Second)
		for w.Hungry() && time.Now().Before(deadline) {
			runtime.Gosched()
		}
		hungry[i].Store(w.Hungry())
		barrier(w, &sampled)
		return 0
	}
	onWorker(p2, func(w *Worker) int { Join(w, spin, 0, spin, 1); return 0 })
	if in.Load() != 2 || sampled.Load() != 2 {
		t.Fatal("the two halves did not run at once")
	}
	if hungry[0].Load() || hungry[1].Load() {
		t.Errorf("Hungry for a second with both workers running a half: %v %v", hungry[0].Load(), hungry[1].Load())
	}
}

// TestIdleReleasesFrames checks that a worker going idle drops what its
// cached frames reference, also after a deeper earlier run: the frames of
// the depths used since it was last idle are released, none are missed.
func TestIdleReleasesFrames(t *testing.T) {
	p := New(WithWorkers(1))
	defer p.Close()
	var deep func(w *Worker, n int) int
	deep = func(w *Worker, n int) int {
		if n == 0 {
			return 0
		}
		a, _ := Join(w, deep, n-1, func(*Worker, *[1 << 16]byte) int { return 0 }, new([1 << 16]byte))
		return a
	}
	RunValue(p, func(w *Worker) int { return deep(w, 200) }) // frames cached to depth 200
	if !waitAllAsleep(p, 5*time.Second) {
		t.Fatal("the worker did not go to sleep in 5 s")
	}
	for _, depth := range []int{5, 50} {
		var freed atomic.Int32
		RunValue(p, func(w *Worker) int {
			var held func(w *Worker, n int) int
			held = func(w *Worker, n int) int {
				if n == 0 {
					return 0
				}
				big := new([1 << 16]byte)
				runtime.SetFinalizer(big, func(*[1 << 16]byte) { freed.Add(1) })
				a, _ := Join(w, held, n-1, func(*Worker, *[1 << 16]byte) int { return 0 }, big)
				return a
			}
			return held(w, depth)
		})
		if !waitAllAsleep(p, 5*time.Second) {
			t.Fatal("the worker did not go to sleep in 5 s")
		}
		deadline := time.Now().Add(5 * time.Second)
		for int(freed.Load()) < depth && time.Now().Before(deadline) {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		if n := int(freed.Load()); n != depth {
			t.Errorf("depth %d: %d of %d arguments freed after the worker went idle", depth, n, depth)
		}
	}
}
