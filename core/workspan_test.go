package core

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"
)

// The dags below have a known work and span by construction: their leaves
// busy-wait a given time. The checks take the wide ranges of a shared
// 2-core machine, where a leaf may be descheduled and last longer; each is
// tried a few times and passes if one try falls in range, so that a
// transient stall does not fail it while a wrong combination always does.

// spinFor busy-waits d of wall time: a leaf of known length.
func spinFor(d time.Duration) {
	start := time.Now()
	for time.Since(start) < d {
	}
}

// spinLeaf is a leaf of Join: it spins d and returns 1.
func spinLeaf(_ *Worker, d time.Duration) int {
	spinFor(d)
	return 1
}

// workSpanTries is how many times a timed check is tried.
const workSpanTries = 3

// tryWorkSpan runs measure up to workSpanTries times and fails t with the
// last error if check never passes.
func tryWorkSpan(t *testing.T, measure func() WorkSpan, check func(WorkSpan) error) WorkSpan {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector's instrumentation makes every strand too slow for timed bounds")
	}
	var err error
	var ws WorkSpan
	for range workSpanTries {
		ws = measure()
		if err = check(ws); err == nil {
			return ws
		}
		t.Logf("try: %v", err)
	}
	t.Fatalf("%v (last profile %+v)", err, ws)
	return ws
}

// inRange returns an error unless lo <= x <= hi.
func inRange(what string, x, lo, hi float64) error {
	if x < lo || x > hi {
		return fmt.Errorf("%s = %.3g, want %.3g..%.3g", what, x, lo, hi)
	}
	return nil
}

// joinTree is a balanced Join tree of n leaves (n a power of two) of d each.
func joinTree(w *Worker, n int, d time.Duration) int {
	if n == 1 {
		return spinLeaf(w, d)
	}
	x, y := Join(w, func(w *Worker, n int) int { return joinTree(w, n, d) }, n/2,
		func(w *Worker, n int) int { return joinTree(w, n, d) }, n/2)
	return x + y
}

func TestWorkSpanBalancedTree(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	const leaves = 4096
	tryWorkSpan(t, func() WorkSpan {
		n, ws := MeasureWorkSpan(p, func(w *Worker) int { return joinTree(w, leaves, 5*time.Microsecond) })
		if n != leaves {
			t.Fatalf("the tree returned %d, want %d", n, leaves)
		}
		if ws.Forks != leaves-1 {
			t.Fatalf("Forks = %d, want %d", ws.Forks, leaves-1)
		}
		return ws
	}, func(ws WorkSpan) error {
		return errors.Join(
			inRange("parallelism", ws.Parallelism(), 1500, 4300),
			inRange("work (ms)", ws.Work.Seconds()*1e3, 18, 40))
	})
}

func TestWorkSpanChain(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	empty := func(*Worker, int) int { return 0 }
	tryWorkSpan(t, func() WorkSpan {
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			for range 100 {
				Join(w, spinLeaf, 50*time.Microsecond, empty, 0)
			}
			return 0
		})
		return ws
	}, func(ws WorkSpan) error {
		return errors.Join(
			inRange("parallelism", ws.Parallelism(), 1, 1.1),
			inRange("work (ms)", ws.Work.Seconds()*1e3, 5, 10))
	})
}

func TestWorkSpanUnevenJoin(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	tryWorkSpan(t, func() WorkSpan {
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			x, y := Join(w, spinLeaf, 10*time.Millisecond, spinLeaf, time.Millisecond)
			return x + y
		})
		return ws
	}, func(ws WorkSpan) error {
		return inRange("parallelism", ws.Parallelism(), 1.05, 1.3)
	})
	// The same dag with the long half second: the span must not depend on
	// which half runs first.
	tryWorkSpan(t, func() WorkSpan {
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			x, y := Join(w, spinLeaf, time.Millisecond, spinLeaf, 10*time.Millisecond)
			return x + y
		})
		return ws
	}, func(ws WorkSpan) error {
		return inRange("parallelism", ws.Parallelism(), 1.05, 1.3)
	})
}

func TestWorkSpanSpawnSync(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	// Eight spawns of 1 ms synced after a continuation of 1 ms: span 1 ms
	// (plus the syncs), work 9 ms.
	tryWorkSpan(t, func() WorkSpan {
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			var hs [8]Spawned[time.Duration, int]
			for k := range hs {
				hs[k] = Spawn(w, spinLeaf, time.Millisecond)
			}
			spinFor(time.Millisecond)
			n := 0
			for k := len(hs) - 1; k >= 0; k-- {
				n += hs[k].Sync(w)
			}
			if n != len(hs) {
				t.Errorf("synced %d, want %d", n, len(hs))
			}
			return n
		})
		if ws.Forks != 8 {
			t.Fatalf("Forks = %d, want 8", ws.Forks)
		}
		return ws
	}, func(ws WorkSpan) error {
		return inRange("parallelism", ws.Parallelism(), 6.5, 9.5)
	})
}

func TestWorkSpanScope(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	// Two rounds: 8 tasks of 1 ms, each forking a 1 ms task of the same
	// scope (span 2 ms); then 4 tasks of 1 ms under SetLimit(2), whose Gos
	// wait for earlier tasks (span still bounded by the chain of 4).
	tryWorkSpan(t, func() WorkSpan {
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			var s Scope
			for range 8 {
				s.Go(p, func(w *Worker) {
					spinFor(time.Millisecond)
					s.Go(p, func(*Worker) { spinFor(time.Millisecond) })
				})
			}
			s.Wait(p)
			if n := s.Pending(); n != 0 {
				t.Errorf("Pending after Wait = %d", n)
			}
			return 0
		})
		if ws.Forks != 16 {
			t.Fatalf("Forks = %d, want 16", ws.Forks)
		}
		return ws
	}, func(ws WorkSpan) error {
		return errors.Join(
			inRange("parallelism", ws.Parallelism(), 6.5, 8.5),
			inRange("work (ms)", ws.Work.Seconds()*1e3, 16, 30))
	})

	// A Go blocked on the limit joins the task it waited for.
	var s Scope
	s.SetLimit(1)
	_, ws := MeasureWorkSpan(p, func(w *Worker) int {
		for range 4 {
			s.Go(p, func(*Worker) { spinFor(100 * time.Microsecond) })
		}
		s.Wait(p)
		return 0
	})
	if !raceEnabled && ws.Parallelism() > 1.5 {
		t.Errorf("limit 1: parallelism %.2f, want about 1 (each Go waits for the task before)", ws.Parallelism())
	}
}

func TestWorkSpanScopeWaitedOutside(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	// Tasks left unwaited when the root returns run before MeasureWorkSpan
	// returns, and count.
	var s Scope
	ran := 0
	_, ws := MeasureWorkSpan(p, func(w *Worker) int {
		for range 5 {
			s.Go(p, func(*Worker) { ran++ }) // serial: no race on ran
		}
		return 0
	})
	if ran != 5 || ws.Forks != 5 {
		t.Errorf("ran %d tasks, Forks %d; want 5, 5", ran, ws.Forks)
	}
	s.Wait(p)
}

func TestWorkSpanInvoke(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	f := func(*Worker) { spinFor(time.Millisecond) }
	tryWorkSpan(t, func() WorkSpan {
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			Invoke(w, f, f, f, f)
			return 0
		})
		if ws.Forks != 3 {
			t.Fatalf("Forks = %d, want 3", ws.Forks)
		}
		return ws
	}, func(ws WorkSpan) error {
		return inRange("parallelism", ws.Parallelism(), 3.3, 4.2)
	})
}

func TestWorkSpanIndependentOfWorkers(t *testing.T) {
	one := New(WithWorkers(1))
	defer closeChecked(t, one)
	two := New(WithWorkers(2))
	defer closeChecked(t, two)
	const leaves = 256
	root := func(w *Worker) int { return joinTree(w, leaves, 20*time.Microsecond) }
	var a, b WorkSpan
	tryWorkSpan(t, func() WorkSpan {
		_, a = MeasureWorkSpan(one, root)
		_, b = MeasureWorkSpan(two, root)
		return b
	}, func(WorkSpan) error {
		if a.Forks != b.Forks {
			return fmt.Errorf("Forks %d on 1 worker, %d on 2", a.Forks, b.Forks)
		}
		return errors.Join(
			inRange("parallelism on 2 / on 1", b.Parallelism()/a.Parallelism(), 0.7, 1.4),
			inRange("work on 2 / on 1", b.Work.Seconds()/a.Work.Seconds(), 0.8, 1.25))
	})
}

func TestWorkSpanFromInsideATask(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	// Inside a task of p it runs inline, and nested in a measured run it
	// adds its profile to the enclosing one.
	got := Run(p, func(w *Worker) int {
		var inner WorkSpan
		r, outer := MeasureWorkSpan(p, func(w *Worker) int {
			x, y := Join(w, fib, 15, func(w *Worker, n int) int {
				var r int
				r, inner = MeasureWorkSpan(p, func(w *Worker) int { return fib(w, n) })
				return r
			}, 14)
			return x + y
		})
		if want := uint64(fibJoins(15) + fibJoins(14) + 1); outer.Forks != want {
			t.Errorf("outer Forks = %d, want %d", outer.Forks, want)
		}
		if want := uint64(fibJoins(14)); inner.Forks != want {
			t.Errorf("inner Forks = %d, want %d", inner.Forks, want)
		}
		if outer.Work < inner.Work || outer.Span < inner.Span {
			t.Errorf("outer %+v does not contain inner %+v", outer, inner)
		}
		return r
	})
	if got != fibIter(16) {
		t.Errorf("fib(15)+fib(14) = %d, want %d", got, fibIter(16))
	}
	// After the measured runs the worker forks as before.
	if got := Run(p, func(w *Worker) int { return fib(w, 20) }); got != fibIter(20) {
		t.Errorf("fib(20) after measuring = %d", got)
	}
}

// fibJoins is the number of Joins fib(n) makes.
func fibJoins(n int) int {
	if n < 2 {
		return 0
	}
	return 1 + fibJoins(n-1) + fibJoins(n-2)
}

// fibIter is fib(n), computed serially.
func fibIter(n int) int {
	a, b := 0, 1
	for range n {
		a, b = b, a+b
	}
	return a
}

func TestWorkSpanPanics(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	boom := func(*Worker, int) int { panic("boom") }
	for name, root := range map[string]func(w *Worker) int{
		"first half":  func(w *Worker) int { x, _ := Join(w, boom, 0, fib, 10); return x },
		"second half": func(w *Worker) int { _, y := Join(w, fib, 10, boom, 0); return y },
		"spawned": func(w *Worker) int {
			h := Spawn(w, boom, 0)
			return h.Sync(w)
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				var pe *PanicError
				if err, ok := recover().(error); !ok || !errors.As(err, &pe) || pe.Value != "boom" {
					t.Errorf("recovered %v, want a *PanicError of boom", err)
				}
			}()
			MeasureWorkSpan(p, root)
			t.Error("MeasureWorkSpan returned")
		})
	}

	// Scope tasks not run when the root panics go to the pool: their Wait
	// returns, each having run once.
	var s Scope
	var ran [4]int
	func() {
		defer func() { recover() }()
		MeasureWorkSpan(p, func(w *Worker) int {
			for k := range ran {
				s.Go(p, func(*Worker) { ran[k]++ })
			}
			panic("boom")
		})
	}()
	s.Wait(p)
	if ran != [4]int{1, 1, 1, 1} {
		t.Errorf("tasks ran %v times, want once each", ran)
	}
	// The pool and its workers still work.
	if got := Run(p, func(w *Worker) int { return fib(w, 20) }); got != fibIter(20) {
		t.Errorf("fib(20) after a panic = %d", got)
	}
}

func TestWorkSpanArguments(t *testing.T) {
	mustPanic := func(name, want string, f func()) {
		t.Helper()
		defer func() {
			if r := recover(); r != want {
				t.Errorf("%s: recovered %v, want %q", name, r, want)
			}
		}()
		f()
	}
	mustPanic("nil pool", "core: MeasureWorkSpan on a nil *Pool", func() {
		MeasureWorkSpan(nil, func(*Worker) int { return 0 })
	})
	p := New(WithWorkers(1))
	defer closeChecked(t, p)
	mustPanic("nil root", "core: MeasureWorkSpan with a nil root function", func() {
		MeasureWorkSpan[int](p, nil)
	})
	mustPanic("Speedup(0)", "core: WorkSpan.Speedup: p = 0, want p >= 1", func() {
		WorkSpan{}.Speedup(0)
	})
}

func TestWorkSpanSpeedup(t *testing.T) {
	for _, ws := range []WorkSpan{
		{},
		{Work: time.Second, Span: time.Second, BurdenedSpan: time.Second},
		{Work: time.Second, Span: time.Millisecond, BurdenedSpan: 2 * time.Millisecond},
		{Work: time.Second, Span: time.Microsecond, BurdenedSpan: 500 * time.Millisecond},
		{Work: 20 * time.Millisecond, Span: 5 * time.Microsecond, BurdenedSpan: 80 * time.Microsecond},
	} {
		for _, p := range []int{1, 2, 3, 4, 16, 64, 256, 1 << 20} {
			lo, hi := ws.Speedup(p)
			if !(lo <= hi) || lo <= 0 || hi > float64(p) || hi > ws.Parallelism() {
				t.Errorf("%+v Speedup(%d) = %g, %g: want 0 < lo <= hi <= min(p, %g)", ws, p, lo, hi, ws.Parallelism())
			}
			if p == 1 && (lo != 1 || hi != 1) {
				t.Errorf("%+v Speedup(1) = %g, %g, want 1, 1", ws, lo, hi)
			}
		}
	}
	ws := WorkSpan{Work: 100 * time.Millisecond, Span: time.Millisecond, BurdenedSpan: 2 * time.Millisecond}
	if got := ws.Parallelism(); got != 100 {
		t.Errorf("Parallelism = %g, want 100", got)
	}
	if got := ws.BurdenedParallelism(); got != 50 {
		t.Errorf("BurdenedParallelism = %g, want 50", got)
	}
	// Cilkview: T1 / (T1/P + 1.7·burdened·(1-1/P)) at P = 4: 100/(25+2.55).
	if lo, _ := ws.Speedup(4); math.Abs(lo-100/27.55) > 1e-9 {
		t.Errorf("Speedup(4) lo = %g, want %g", lo, 100/27.55)
	}
}

func TestWorkSpanForkPathRestored(t *testing.T) {
	// A measured run leaves the worker's fast limit at 0 and no meter;
	// the next forks take the plain path and are shared again.
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	Run(p, func(w *Worker) int {
		MeasureWorkSpan(p, func(w *Worker) int { return fib(w, 10) })
		if w.meter != nil {
			t.Error("the meter is still set after MeasureWorkSpan")
		}
		fib(w, 10)
		if w.dq.fast == 0 {
			t.Error("forks after MeasureWorkSpan do not take the fast path")
		}
		return 0
	})
}
