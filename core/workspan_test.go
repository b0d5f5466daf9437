package core

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"
)

// The dags below have a known shape, and leaves that busy-wait a given
// time. On a shared machine a leaf may be stalled (descheduled by the
// operating system, or its virtual CPU by the host) and last longer, and
// a stall on the critical path changes the span; so every leaf also times
// itself, and each test checks the profile against the one its dag gives
// with the leaf times the leaves saw (the oracle), and the figures
// for the dag's nominal leaf times only when the oracle says that the run
// was quiet enough to give them.

// spinFor busy-waits d of wall time: a leaf of known length.
func spinFor(d time.Duration) {
	start := time.Now()
	for time.Since(start) < d {
	}
}

// leafTimer times the leaves of a measured run the way the meter times a
// strand: wall time, less the time the thread was off the CPU when that is
// more than the CPU clock's own cost. Measured runs are serial, so a
// leafTimer needs no lock.
//
// A root run through lt.root also leaves a timeline: each leaf's wall time
// and the gap before it (since the previous leaf ended, or the root
// started), and the gap after the last leaf. Every strand that is not in a
// leaf runs in one of those gaps, which bounds the span from above whatever
// the machine did in them (treeBound).
type leafTimer struct {
	times []int64 // each leaf's time, in the order the leaves ran
	walls []int64 // each leaf's wall time
	gaps  []int64 // gaps[k]: the wall time before leaf k; one more after the last
	last  int64   // when the previous leaf ended, or the root started
}

// maxLeaves is the most leaves a dag of these tests has.
const maxLeaves = 1 << 13

// reset empties lt, keeping room for maxLeaves leaves in memory that has
// been written to. A leaf's store of its time then never faults a fresh
// page in: the fault (tens of microseconds where the kernel zeroes a huge
// page on first touch, more when it must compact memory for one) would land
// in the strand that stores, outside the leaf's own timing, and lengthen the
// span the meter sees but not the one the oracle computes.
func (lt *leafTimer) reset() {
	for _, xs := range []*[]int64{&lt.times, &lt.walls, &lt.gaps} {
		if cap(*xs) <= maxLeaves {
			*xs = make([]int64, maxLeaves+1)
			for i := range *xs {
				(*xs)[i] = 1 // a write maps the page in; fresh memory from make may not be
			}
		}
		*xs = (*xs)[:0]
	}
	lt.last = nanotime()
}

// spin busy-waits d, records how long it took, and returns that time.
func (lt *leafTimer) spin(d time.Duration) int64 {
	t0 := nanotime()
	c0, ok := threadCPUTime()
	spinFor(d)
	c1, _ := threadCPUTime()
	end := nanotime()
	t := end - t0
	lt.walls = append(lt.walls, t)
	lt.gaps = append(lt.gaps, t0-lt.last)
	lt.last = end
	if off := t - (c1 - c0); ok && off > int64(5*time.Microsecond) {
		t -= off // a stall: the meter takes it off too (offCPU)
	}
	lt.times = append(lt.times, t)
	return t
}

// leaf is a Join leaf: it spins d and returns 1.
func (lt *leafTimer) leaf(_ *Worker, d time.Duration) int {
	lt.spin(d)
	return 1
}

// sum and most are the work and span of leaves that run in parallel.
func (lt *leafTimer) sum() (s int64) {
	for _, t := range lt.times {
		s += t
	}
	return s
}

func (lt *leafTimer) most() (m int64) {
	for _, t := range lt.times {
		m = max(m, t)
	}
	return m
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
		return fmt.Errorf("%s = %.4g, want %.4g..%.4g", what, x, lo, hi)
	}
	return nil
}

// near returns an error unless the measured time m is close to the
// oracle's o: at least 95% of it less 2 µs, and at most o plus over. The
// lower bound is tight: a meter that drops a strand or takes the shorter
// branch falls below it. The upper bound allows for what the meter times
// and the leaves do not (the strands between leaves, and stalls of the
// thread there, which a virtual machine's host may hide from its CPU
// clock), and still catches a span summed over branches.
func near(what string, m time.Duration, o int64, over time.Duration) error {
	if float64(m) < 0.95*float64(o)-2e3 || m > time.Duration(o)+over {
		return fmt.Errorf("%s: measured %v, oracle %v (+%v allowed)", what, m, time.Duration(o), over)
	}
	return nil
}

// forkSlack is the time per fork a measured run may time that the leaves
// do not (the strands of the fork itself): a few hundred nanoseconds
// natively, a few microseconds under an emulator.
const forkSlack = 5 * time.Microsecond

// quiet reports whether the parallelism work/span that an oracle gives
// (span: the longest leaf, or a bound from the run's timeline) lies in
// [lo, hi]: the run was close enough to its nominal times for the issue's
// figures to hold.
func quiet(t *testing.T, work, span int64, lo, hi float64) bool {
	par := float64(work) / float64(span)
	if par < lo || par > hi {
		t.Logf("noisy run: the oracle gives parallelism %.4g, outside %.4g..%.4g", par, lo, hi)
		return false
	}
	return true
}

// nativeForks reports whether the run's forks cost what they cost natively
// (under a microsecond each, the work measured beyond the leaves' own
// times): the parallelism ranges assume it. Under an emulator a
// fork's strands take microseconds, which lengthen the span by the tree's
// depth times that and lower the parallelism below the range, however
// exactly the meter measures them.
func nativeForks(t *testing.T, ws WorkSpan, leafWork int64) bool {
	if ws.Forks == 0 {
		return true
	}
	per := (int64(ws.Work) - leafWork) / int64(ws.Forks)
	if per > int64(time.Microsecond) {
		t.Logf("slow forks: %v a fork beyond the leaves (an emulator, or a stall)", time.Duration(per))
		return false
	}
	return true
}

// timelineSlack is how far a measured span may exceed the bound of the
// run's timeline (treeBound): the meter and the timeline read the same
// clock, at points a few instructions apart.
const timelineSlack = 2 * time.Microsecond

// tree is a balanced Join tree of n leaves (n a power of two) of d each.
func (lt *leafTimer) tree(w *Worker, n int, d time.Duration) int {
	if n == 1 {
		return lt.leaf(w, d)
	}
	half := func(w *Worker, n int) int { return lt.tree(w, n, d) }
	x, y := Join(w, half, n/2, half, n/2)
	return x + y
}

// root is tree as the root of a measured run, recording the timeline.
func (lt *leafTimer) root(w *Worker, n int, d time.Duration) int {
	lt.last = nanotime()
	r := lt.tree(w, n, d)
	lt.gaps = append(lt.gaps, nanotime()-lt.last)
	return r
}

// treeBound bounds the span of the tree run by root over the leaves
// [a, b) from its timeline. A path through leaf j holds, for each subtree
// [a', b') from the root down to j, strands that run when the subtree
// starts (before its first leaf: gap a') and when it has joined its halves
// (after its last leaf: gap b'); a leaf's own strand spills into the gaps
// on either side of it, its own a' and b'. On a quiet machine the gaps are
// a few hundred nanoseconds, and the bound is close to the longest leaf.
func (lt *leafTimer) treeBound(a, b int, path []int) int64 {
	path = append(path, a, b)
	if b-a == 1 {
		bound := lt.walls[a]
		for i, g := range path {
			if !slices.Contains(path[:i], g) {
				bound += lt.gaps[g]
			}
		}
		return bound
	}
	mid := a + (b-a)/2
	return max(lt.treeBound(a, mid, path), lt.treeBound(mid, b, path))
}

func TestWorkSpanBalancedTree(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	const leaves = 4096
	var lt leafTimer
	tryWorkSpan(t, func() WorkSpan {
		lt.reset()
		n, ws := MeasureWorkSpan(p, func(w *Worker) int { return lt.root(w, leaves, 5*time.Microsecond) })
		if n != leaves || ws.Forks != leaves-1 {
			t.Fatalf("the tree returned %d with %d forks, want %d and %d", n, ws.Forks, leaves, leaves-1)
		}
		return ws
	}, func(ws WorkSpan) error {
		work, span, bound := lt.sum(), lt.most(), lt.treeBound(0, leaves, nil)
		err := errors.Join(
			near("work", ws.Work, work, time.Duration(work/10)+leaves*forkSlack),
			near("span", ws.Span, span, time.Duration(bound-span)+timelineSlack))
		if err == nil && nativeForks(t, ws, work) && quiet(t, work, bound, 1500, 4300) {
			err = errors.Join(
				inRange("parallelism", ws.Parallelism(), 1500, 4300),
				inRange("work (ms)", ws.Work.Seconds()*1e3, 18, 40))
		}
		return err
	})
}

func TestWorkSpanChain(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	empty := func(*Worker, int) int { return 0 }
	var lt leafTimer
	tryWorkSpan(t, func() WorkSpan {
		lt.reset()
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			for range 100 {
				Join(w, lt.leaf, 50*time.Microsecond, empty, 0)
			}
			return 0
		})
		return ws
	}, func(ws WorkSpan) error {
		// A chain: whatever the leaves took, the span is all of the work.
		return errors.Join(
			near("work", ws.Work, lt.sum(), time.Duration(lt.sum()/10)+100*time.Microsecond),
			inRange("parallelism", ws.Parallelism(), 1, 1.1))
	})
}

func TestWorkSpanUnevenJoin(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	for _, d := range [][2]time.Duration{{10 * time.Millisecond, time.Millisecond}, {time.Millisecond, 10 * time.Millisecond}} {
		// The span must not depend on which half runs first.
		var lt leafTimer
		tryWorkSpan(t, func() WorkSpan {
			lt.reset()
			_, ws := MeasureWorkSpan(p, func(w *Worker) int {
				x, y := Join(w, lt.leaf, d[0], lt.leaf, d[1])
				return x + y
			})
			return ws
		}, func(ws WorkSpan) error {
			work, span := lt.sum(), lt.most()
			err := errors.Join(
				near("work", ws.Work, work, time.Duration(work/10)),
				near("span", ws.Span, span, time.Duration(work/20)))
			if err == nil && quiet(t, work, span, 1.05, 1.2) {
				err = inRange("parallelism", ws.Parallelism(), 1.05, 1.2)
			}
			return err
		})
	}
}

func TestWorkSpanSpawnSync(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	// Eight spawns of 1 ms synced after a continuation of 1 ms: span the
	// longest of the nine, work their sum.
	var lt leafTimer
	tryWorkSpan(t, func() WorkSpan {
		lt.reset()
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			var hs [8]Spawned[time.Duration, int]
			for k := range hs {
				hs[k] = Spawn(w, lt.leaf, time.Millisecond)
			}
			lt.spin(time.Millisecond)
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
		return errors.Join(
			near("work", ws.Work, lt.sum(), time.Duration(lt.sum()/10)),
			near("span", ws.Span, lt.most(), time.Duration(lt.sum()/20)))
	})
}

func TestWorkSpanScope(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	// 8 tasks of 1 ms, each forking a 1 ms task of the same scope: the
	// span is the longest parent-child pair.
	var lt leafTimer
	tryWorkSpan(t, func() WorkSpan {
		lt.reset()
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			var s Scope
			for range 8 {
				s.Go(p, func(w *Worker) {
					lt.spin(time.Millisecond)
					s.Go(p, func(*Worker) { lt.spin(time.Millisecond) })
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
		// Parents run first, oldest first, then the children in the
		// order their parents forked them: leaf k+8 is leaf k's child.
		var span int64
		for k := range 8 {
			span = max(span, lt.times[k]+lt.times[k+8])
		}
		return errors.Join(
			near("work", ws.Work, lt.sum(), time.Duration(lt.sum()/10)),
			near("span", ws.Span, span, time.Duration(lt.sum()/20)))
	})

	// A Go blocked on the limit joins the task it waited for: with limit
	// 1 the tasks form a chain.
	var s Scope
	s.SetLimit(1)
	tryWorkSpan(t, func() WorkSpan {
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			for range 4 {
				s.Go(p, func(*Worker) { spinFor(100 * time.Microsecond) })
			}
			s.Wait(p)
			return 0
		})
		return ws
	}, func(ws WorkSpan) error {
		return inRange("parallelism with limit 1", ws.Parallelism(), 1, 1.5)
	})
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
			s.Go(p, func(*Worker) { ran++ }) // a measured run is serial: no race on ran
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
	var lt leafTimer
	f := func(*Worker) { lt.spin(time.Millisecond) }
	tryWorkSpan(t, func() WorkSpan {
		lt.reset()
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			Invoke(w, f, f, f, f)
			return 0
		})
		if ws.Forks != 3 {
			t.Fatalf("Forks = %d, want 3", ws.Forks)
		}
		return ws
	}, func(ws WorkSpan) error {
		return errors.Join(
			near("work", ws.Work, lt.sum(), time.Duration(lt.sum()/10)),
			near("span", ws.Span, lt.most(), time.Duration(lt.sum()/20)))
	})
}

func TestWorkSpanIndependentOfWorkers(t *testing.T) {
	// The same dag measured on pools of 1 and 2 workers: the same forks,
	// and each profile that of its leaves' times.
	const leaves = 256
	for _, workers := range []int{1, 2} {
		p := New(WithWorkers(workers))
		var lt leafTimer
		tryWorkSpan(t, func() WorkSpan {
			lt.reset()
			_, ws := MeasureWorkSpan(p, func(w *Worker) int { return lt.root(w, leaves, 20*time.Microsecond) })
			return ws
		}, func(ws WorkSpan) error {
			if ws.Forks != leaves-1 {
				t.Fatalf("%d workers: Forks = %d, want %d", workers, ws.Forks, leaves-1)
			}
			work, span, bound := lt.sum(), lt.most(), lt.treeBound(0, leaves, nil)
			err := errors.Join(
				near("work", ws.Work, work, time.Duration(work/10)+leaves*forkSlack),
				near("span", ws.Span, span, time.Duration(bound-span)+timelineSlack))
			if err == nil && nativeForks(t, ws, work) && quiet(t, work, bound, 150, 256) {
				err = inRange("parallelism", ws.Parallelism(), 150, 256)
			}
			return err
		})
		closeChecked(t, p)
	}
}

func TestWorkSpanFromInsideATask(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	// Inside a task of p it runs inline, and nested in a measured run it
	// adds its profile to the enclosing one.
	got := RunValue(p, func(w *Worker) int {
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
	if got := RunValue(p, func(w *Worker) int { return fib(w, 20) }); got != fibIter(20) {
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
	if got := RunValue(p, func(w *Worker) int { return fib(w, 20) }); got != fibIter(20) {
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
	RunValue(p, func(w *Worker) int {
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

func TestWorkSpanShortStrandsThenLong(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	// Each round joins two halves that fork fib at every call (thousands
	// of strands of nanoseconds, which the meter times in groups) and then
	// spin: a long strand right after a long run of short ones. The span
	// is the rounds' longer spins in a row; a meter that shared a spin's
	// time out over its group, or over the sibling half, falls below it.
	const rounds = 4
	var lt leafTimer
	half := func(w *Worker, d time.Duration) int {
		n := fib(w, 18)
		lt.spin(d)
		return n
	}
	var fibWork time.Duration // the halves' fib work alone, measured in the same try
	tryWorkSpan(t, func() WorkSpan {
		_, fibOnly := MeasureWorkSpan(p, func(w *Worker) int {
			for range rounds {
				Join(w, func(w *Worker, _ int) int { return fib(w, 18) }, 0, func(w *Worker, _ int) int { return fib(w, 18) }, 0)
			}
			return 0
		})
		fibWork = fibOnly.Work
		lt.reset()
		_, ws := MeasureWorkSpan(p, func(w *Worker) int {
			for range rounds {
				Join(w, half, 200*time.Microsecond, half, 100*time.Microsecond)
			}
			return 0
		})
		if want := uint64(rounds * (1 + 2*fibJoins(18))); ws.Forks != want {
			t.Fatalf("Forks = %d, want %d", ws.Forks, want)
		}
		return ws
	}, func(ws WorkSpan) error {
		var span int64
		for k := range rounds {
			span += max(lt.times[2*k], lt.times[2*k+1])
		}
		return errors.Join(
			near("work", ws.Work, lt.sum(), time.Duration(lt.sum()/2)+2*fibWork),
			// Above: the fib halves' own span, at most the longer half's
			// fib work in each round (fibWork/2 over the rounds; an
			// emulator makes it several times the spins), and this
			// machine's stalls in rounds of hundreds of microseconds.
			near("span", ws.Span, span, time.Duration(lt.sum()/5)+fibWork/2))
	})
}

// TestWorkSpanShortPhaseThenParallelLeaves: a phase of a few hundred
// empty forks (a scan whose chunks return at once, as sortpar's sortedness
// scan does on an unsorted slice), then a tree of parallel leaves. Fewer
// than widenAfter short strands never put strands in groups, so each leaf
// is timed alone on its own path: the span is about one leaf. A meter that
// had widened its groups during the short phase would time several
// sibling leaves in one group and charge them all to one path.
func TestWorkSpanShortPhaseThenParallelLeaves(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	const (
		emptyForks = 255 // 3·255 strands, under widenAfter
		leaves     = 8
	)
	if 3*emptyForks >= widenAfter {
		t.Fatalf("the short phase has %d strands, not under widenAfter (%d)", 3*emptyForks, widenAfter)
	}
	var empty func(w *Worker, n int) int
	empty = func(w *Worker, n int) int {
		if n == 1 {
			return 0
		}
		x, y := Join(w, empty, n/2, empty, n-n/2)
		return x + y
	}
	var lt leafTimer
	tryWorkSpan(t, func() WorkSpan {
		lt.reset()
		n, ws := MeasureWorkSpan(p, func(w *Worker) int {
			empty(w, emptyForks+1)
			return lt.root(w, leaves, 200*time.Microsecond)
		})
		if n != leaves || ws.Forks != emptyForks+leaves-1 {
			t.Fatalf("the run returned %d with %d forks, want %d and %d", n, ws.Forks, leaves, emptyForks+leaves-1)
		}
		return ws
	}, func(ws WorkSpan) error {
		span, bound := lt.most(), lt.treeBound(0, leaves, nil)
		// Above the leaves' tree: the short phase's own span, a path of
		// eight empty forks, and its stalls on this machine.
		return near("span", ws.Span, span, time.Duration(bound-span)+timelineSlack+8*forkSlack+50*time.Microsecond)
	})
}
