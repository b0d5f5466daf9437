package core

import (
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestGoexitInTask: runtime.Goexit in a task (t.Fatal in a loop body) must
// not hang Run or Close. On a worker, Run panics with ErrGoexit and the pool
// keeps all its workers: repeated, so that worker goroutines are replaced
// many times. On the caller's goroutine (a guest's root, Run from outside)
// the Goexit ends that goroutine, as it would without the pool, and the
// guest record goes back: the pool stays usable and closes.
func TestGoexitInTask(t *testing.T) {
	for _, p := range []int{1, 2, 4} {
		pool := New(WithWorkers(p))
		for k := range 60 {
			guest := k >= 30
			done := make(chan any, 1)
			go func() {
				defer func() { done <- recover() }()
				run := onWorker[int]
				if guest {
					run = RunValue[int]
				}
				run(pool, func(w *Worker) int {
					x, y := Join(w, func(w *Worker, n int) int {
						if k%2 == 0 {
							runtime.Goexit()
						}
						return fib(w, n)
					}, 15, func(w *Worker, n int) int {
						if k%2 == 1 {
							fib(w, 10)
							runtime.Goexit() // on whichever worker runs it
						}
						return fib(w, n)
					}, 14)
					return x + y
				})
			}()
			select {
			case v := <-done:
				if guest && (k%2 == 0 || v == nil) {
					// f runs on the caller, and so may g: the
					// Goexit ended the caller's goroutine.
					if v != nil {
						t.Fatalf("p=%d: a Goexit on the caller's goroutine panicked with %v, want the goroutine to end", p, v)
					}
					continue
				}
				pe, ok := v.(*PanicError)
				if !ok || !errors.Is(pe, ErrGoexit) {
					t.Fatalf("p=%d: Run after Goexit panicked with %v, want ErrGoexit", p, v)
				}
			case <-time.After(30 * time.Second): // hang detector only
				t.Fatalf("p=%d: Run hung after a task called runtime.Goexit", p)
			}
		}
		// Every worker still works: nested Run runs inline on each.
		for id := range p {
			var got int
			pool.RunOn(id, func(w *Worker) { got = RunValue(pool, func(w *Worker) int { return fib(w, 10) }) })
			if got != 55 {
				t.Fatalf("p=%d worker %d: %d", p, id, got)
			}
		}
		if got := RunValue(pool, func(w *Worker) int { return fib(w, 20) }); got != 6765 {
			t.Fatalf("p=%d: fib after Goexits = %d", p, got)
		}
		pool.Close()
	}
}
