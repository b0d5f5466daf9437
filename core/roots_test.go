package core

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestPoolRunFromOutside: many goroutines at once run roots without a
// result; each root runs exactly once, on a worker of the pool, and its
// writes are visible when Run returns.
func TestPoolRunFromOutside(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		p := New(WithWorkers(workers))
		const callers = 8
		n := scale(400)
		var wg sync.WaitGroup
		for c := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range n {
					var got int
					ran := 0
					p.Run(func(w *Worker) {
						if w.Pool() != p {
							t.Errorf("root ran on a worker of another pool")
						}
						ran++
						got = fib(w, (c+k)%16)
					})
					if ran != 1 || got != fibSerial((c+k)%16) {
						t.Errorf("p=%d: root ran %d times, fib(%d) = %d", workers, ran, (c+k)%16, got)
						return
					}
				}
			}()
		}
		wg.Wait()
		p.Close()
	}
}

// TestPoolRunNested: from inside a task of the pool, Run runs the root at
// once on the calling worker; from a task of another pool it waits as
// Blocking does: on a worker, that pool starts a spare in its worker's
// place; on a guest (Run from outside), the caller's goroutine waits and
// no spare starts.
func TestPoolRunNested(t *testing.T) {
	for _, guest := range []bool{false, true} {
		a := New(WithWorkers(2))
		b := New(WithWorkers(1))
		run := onWorker[int]
		if guest {
			run = RunValue[int]
		}
		got := run(a, func(w *Worker) int {
			same, sum := false, 0
			a.Run(func(v *Worker) { same, sum = v == w, fib(v, 20) })
			if !same {
				t.Errorf("guest %v: a nested Pool.Run did not run on the calling worker", guest)
			}
			b.Run(func(v *Worker) { sum += fib(v, 10) })
			return sum
		})
		if got != 6765+55 {
			t.Fatalf("guest %v: nested roots computed %d, want %d", guest, got, 6765+55)
		}
		if s := a.Stats(); (s.SparesStarted == 0) != guest {
			t.Fatalf("guest %v: pool a started %d spares while its root waited in b.Run", guest, s.SparesStarted)
		}
		b.Close()
		a.Close()
	}
}

// TestPoolRunPanic: a panic in the root, or in a task it forked on another
// worker, reaches the caller as a *PanicError carrying the value; a panic
// that is one already keeps its identity; the pool stays usable.
func TestPoolRunPanic(t *testing.T) {
	p := New(WithWorkers(2))
	defer p.Close()
	v := catch(func() { p.Run(func(*Worker) { panic("root") }) })
	if pe, ok := v.(*PanicError); !ok || pe.Value != "root" || len(pe.Stack) == 0 {
		t.Fatalf("panic in the root: recovered %v, want a *PanicError of \"root\"", v)
	}
	v = catch(func() {
		p.Run(func(w *Worker) {
			Join(w, func(w *Worker, n int) int { return fib(w, n) }, 18,
				func(*Worker, int) int { panic(errors.New("half")) }, 0)
		})
	})
	if pe, ok := v.(*PanicError); !ok || pe.Unwrap() == nil || pe.Unwrap().Error() != "half" {
		t.Fatalf("panic in a forked task: recovered %v, want a *PanicError of the error \"half\"", v)
	}
	inner := &PanicError{Value: "inner"}
	if v := catch(func() { p.Run(func(*Worker) { panic(inner) }) }); v != inner {
		t.Fatalf("a *PanicError panic came out as %v, want the same *PanicError", v)
	}
	// Nested inline, as Run: wrapped once, and the worker's deque is clean.
	got := RunValue(p, func(w *Worker) int {
		v := catch(func() { p.Run(func(w *Worker) { Join(w, fib, 15, fib, 14); panic("nested") }) })
		if pe, ok := v.(*PanicError); !ok || pe.Value != "nested" {
			t.Errorf("nested panic: recovered %v", v)
		}
		return fib(w, 20)
	})
	if got != 6765 {
		t.Fatalf("the pool computed fib(20) = %d after the panics", got)
	}
}

func TestPoolRunBadInput(t *testing.T) {
	var nilPool *Pool
	expectPanic(t, "core: Pool.Run on a nil *Pool", func() { nilPool.Run(func(*Worker) {}) })
	p := New(WithWorkers(1))
	expectPanic(t, "core: Pool.Run with a nil root function", func() { p.Run(nil) })
	p.Close()
	expectPanic(t, "closed Pool", func() { p.Run(func(*Worker) {}) })
}

// TestPoolRunAllocs: a root without a result, made once, costs no
// allocation per Run from outside (the root jobs are recycled) nor inline.
func TestPoolRunAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	p := New(WithWorkers(2))
	defer p.Close()
	var sink atomic.Int64
	root := func(w *Worker) { sink.Add(int64(fib(w, 10))) }
	p.Run(root) // the first Run allocates the root job and the frames
	if a := testing.AllocsPerRun(100, func() { p.Run(root) }); a > 0 {
		t.Errorf("Pool.Run from outside: %v allocations per call", a)
	}
	RunValue(p, func(w *Worker) int {
		if a := testing.AllocsPerRun(100, func() { p.Run(root) }); a > 0 {
			t.Errorf("Pool.Run inline: %v allocations per call", a)
		}
		return 0
	})
}

// TestGuard: Guard ends each call exactly once with how it ended (nil, the
// panic wrapped, a *PanicError as it was, ErrGoexit) and leaves the task
// around it running; Goexit still ends the goroutine, and the root with it.
func TestGuard(t *testing.T) {
	p := New(WithWorkers(2))
	defer p.Close()
	inner := &PanicError{Value: "inner"}
	RunValue(p, func(w *Worker) int {
		var ends []*PanicError
		end := func(pe *PanicError) { ends = append(ends, pe) }
		w.Guard(func() { Join(w, fib, 12, fib, 11) }, end)
		w.Guard(func() { Join(w, fib, 12, fib, 11); panic("boom") }, end)
		w.Guard(func() { panic(inner) }, end)
		if len(ends) != 3 || ends[0] != nil || ends[1] == nil || ends[1].Value != "boom" || ends[2] != inner {
			t.Errorf("Guard ended with %v, want nil, boom, the inner *PanicError", ends)
		}
		if w.dq.head != 0 {
			t.Errorf("Guard left %d frames on the deque", w.dq.head)
		}
		return 0
	})
	expectPanic(t, "core: Guard with a nil function", func() {
		RunValue(p, func(w *Worker) int { w.Guard(nil, func(*PanicError) {}); return 0 })
	})

	var goexitEnd atomic.Pointer[PanicError]
	v := catch(func() {
		onWorker(p, func(w *Worker) int {
			w.Guard(runtime.Goexit, func(pe *PanicError) { goexitEnd.Store(pe) })
			t.Error("Guard returned after runtime.Goexit")
			return 0
		})
	})
	if pe := goexitEnd.Load(); pe == nil || !errors.Is(pe, ErrGoexit) {
		t.Errorf("Guard ended a Goexit with %v, want ErrGoexit", pe)
	}
	if pe, ok := v.(*PanicError); !ok || !errors.Is(pe, ErrGoexit) {
		t.Errorf("the root around a Goexit ended with %v, want ErrGoexit", v)
	}

	// On the caller's goroutine (Run from outside) the Goexit goes on
	// ending that goroutine once Guard's end has run.
	goexitEnd.Store(nil)
	done := make(chan any)
	go func() {
		defer func() { done <- recover() }()
		RunValue(p, func(w *Worker) int {
			w.Guard(runtime.Goexit, func(pe *PanicError) { goexitEnd.Store(pe) })
			t.Error("Guard returned after runtime.Goexit")
			return 0
		})
		t.Error("Run returned after runtime.Goexit on its caller's goroutine")
	}()
	if v := <-done; v != nil {
		t.Errorf("a Goexit on the caller's goroutine panicked with %v, want the goroutine to end", v)
	}
	if pe := goexitEnd.Load(); pe == nil || !errors.Is(pe, ErrGoexit) {
		t.Errorf("Guard ended a Goexit on the caller's goroutine with %v, want ErrGoexit", pe)
	}
}
