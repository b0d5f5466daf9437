package core

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// catch runs fn and returns what it panicked with.
func catch(fn func()) (v any) {
	defer func() { v = recover() }()
	fn()
	return nil
}

// panicValue unwraps a *PanicError.
func panicValue(t *testing.T, v any) any {
	t.Helper()
	pe, ok := v.(*PanicError)
	if !ok {
		t.Fatalf("Run panicked with %T %v, want *PanicError", v, v)
	}
	return pe.Value
}

// boomArg is the argument of a fork tree shaped like fib whose leaf number
// target panics.
type boomArg struct{ n, target, leaf int }

func boomTree(w *Worker, a boomArg) int {
	if a.n < 2 {
		if a.leaf == a.target {
			panic(fmt.Sprintf("boom %d", a.target))
		}
		return 1
	}
	half := 1 << (a.n - 2)
	x, y := Join(w, boomTree, boomArg{a.n - 1, a.target, a.leaf}, boomTree, boomArg{a.n - 1, a.target, a.leaf + half})
	return x + y
}

func TestPanicFromLeaf(t *testing.T) {
	for _, p := range []int{1, 2, 4} {
		pool := New(WithWorkers(p))
		for _, target := range []int{0, 1, 500, 1023} { // first, second, middle, last leaf
			v := catch(func() { RunValue(pool, func(w *Worker) int { return boomTree(w, boomArg{11, target, 0}) }) })
			if got, want := panicValue(t, v), fmt.Sprintf("boom %d", target); got != want {
				t.Fatalf("p=%d: panic value %v, want %v", p, got, want)
			}
			if pe := v.(*PanicError); !strings.Contains(string(pe.Stack), "boomTree") {
				t.Fatalf("p=%d: the stack does not show the panicking task:\n%s", p, pe.Stack)
			}
			// The pool is usable afterwards.
			if got := RunValue(pool, func(w *Worker) int { return fib(w, 18) }); got != 2584 {
				t.Fatalf("p=%d: fib after panic = %d", p, got)
			}
		}
		pool.Close()
	}
}

func TestPanicFromRoot(t *testing.T) {
	pool := New(WithWorkers(2))
	defer pool.Close()
	err := errors.New("root failed")
	v := catch(func() { RunValue(pool, func(*Worker) int { panic(err) }) })
	if !errors.Is(v.(*PanicError), err) {
		t.Fatalf("errors.Is does not see the original error through %v", v)
	}
}

func TestPanicFromBothBranches(t *testing.T) {
	for _, p := range []int{1, 2, 8} {
		pool := New(WithWorkers(p))
		for range scale(200) {
			v := catch(func() {
				RunValue(pool, func(w *Worker) int {
					x, y := Join(w, func(w *Worker, n int) int { fib(w, 12); panic("left") },
						0, func(w *Worker, n int) int { fib(w, 12); panic("right") }, 0)
					return x + y
				})
			})
			if got := panicValue(t, v); got != "left" && got != "right" {
				t.Fatalf("p=%d: panic value %v", p, got)
			}
		}
		if got := RunValue(pool, func(w *Worker) int { return fib(w, 20) }); got != 6765 {
			t.Fatalf("p=%d: fib after panics = %d", p, got)
		}
		pool.Close()
	}
}

// TestPanicWaitsForStolenWork checks that when Run re-raises a panic no task
// of that Run is still running.
func TestPanicWaitsForStolenWork(t *testing.T) {
	pool := New(WithWorkers(4))
	defer pool.Close()
	for range scale(100) {
		var running, finished [64]bool
		_ = finished
		v := catch(func() {
			RunValue(pool, func(w *Worker) int {
				fns := make([]func(*Worker), 64)
				for i := range fns {
					fns[i] = func(w *Worker) {
						running[i] = true // written by whichever worker runs it
						fib(w, 10)
						if i == 0 {
							panic("first")
						}
						running[i] = false
					}
				}
				Invoke(w, fns...)
				return 0
			})
		})
		if panicValue(t, v) != "first" {
			t.Fatalf("panic value %v", v)
		}
		// Reading running here is race-free only if every task finished (or
		// never started) before Run returned: the race detector checks that.
		for i := 1; i < 64; i++ {
			if running[i] {
				t.Fatalf("task %d was still running when Run re-raised the panic", i)
			}
		}
	}
}

// TestNestedRunPanicRecoveredInTask: a Run nested in a task of the same pool
// (runInline) panics; the task recovers the panic and goes on. The nested
// root's unjoined frames must be finished or dropped before the panic leaves
// Run: the task returns normally (no "spawned tasks not synced"), and no
// function of the nested root runs after Run panicked.
func TestNestedRunPanicRecoveredInTask(t *testing.T) {
	for _, p := range []int{1, 2, 4} {
		pool := New(WithWorkers(p))
		for _, target := range []int{0, 300, 1023} {
			var calls, after atomic.Int64
			var done atomic.Bool
			leaf := func(w *Worker, i int) {
				calls.Add(1)
				if done.Load() {
					after.Add(1)
				}
				fib(w, 8)
				if i == target {
					panic("nested boom")
				}
			}
			got := RunValue(pool, func(w *Worker) int {
				v := catch(func() {
					RunValue(pool, func(w *Worker) int {
						fns := make([]func(*Worker), 1024)
						for i := range fns {
							fns[i] = func(w *Worker) { leaf(w, i) }
						}
						Invoke(w, fns...)
						return 0
					})
				})
				done.Store(true)
				// A *PanicError, as Run's doc promises, whether the panic
				// happened on this worker or on a thief.
				if pe, ok := v.(*PanicError); !ok || pe.Value != "nested boom" {
					t.Errorf("p=%d: recovered %T %v, want a *PanicError of the nested panic", p, v, v)
				}
				return fib(w, 15) // the task goes on forking after the recovery
			})
			if got != 610 {
				t.Fatalf("p=%d: fib after the recovered panic = %d", p, got)
			}
			if n := after.Load(); n != 0 {
				t.Fatalf("p=%d target %d: %d calls of the nested root's functions after Run panicked", p, target, n)
			}
		}
		pool.Close()
	}
}
