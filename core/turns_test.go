package core

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// turnsQueued returns how many callers wait for a turn.
func turnsQueued(p *Pool) int {
	_, waiting := turnCounts(p.guests.turns.state.Load())
	return int(waiting)
}

// TestTurnsInArrivalOrder: on a pool of one worker (one turn), while caller
// A's root holds the turn, callers B, C and D arrive one after another and
// wait; when A's root ends and A calls Run again at once, the roots run in
// the order B, C, D, A: A's next root goes behind those already waiting
// instead of running again on the processor A holds. Turns never run out
// here (the slice is an hour), so the order is the queue's, not a timing.
func TestTurnsInArrivalOrder(t *testing.T) {
	p := New(WithWorkers(1))
	defer closeChecked(t, p)
	if turnLimit := p.turnLimit(); turnLimit != 1 {
		t.Fatalf("a pool of one worker has %d turns", turnLimit)
	}
	p.guests.turns.slice = time.Hour
	p.guests.turns.queueShort = true
	var (
		mu  sync.Mutex
		ran []string
	)
	log := func(name string) func(*Worker) {
		return func(*Worker) {
			mu.Lock()
			ran = append(ran, name)
			mu.Unlock()
		}
	}
	ranSoFar := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(ran)
	}
	holding, release := make(chan struct{}), make(chan struct{})
	var releaseOnce sync.Once
	var wg sync.WaitGroup
	defer func() { // on a failure too: Close waits for A's root, and A runs another
		releaseOnce.Do(func() { close(release) })
		wg.Wait()
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.Run(func(*Worker) { close(holding); <-release })
		p.Run(log("A")) // at once, on the goroutine that just ended its root
	}()
	<-holding
	for i, name := range []string{"B", "C", "D"} {
		wg.Add(1)
		go func() { defer wg.Done(); p.Run(log(name)) }()
		// Wait until it queues (a state; the deadline only turns a hang
		// into a failure), or until its root ran, which is the failure.
		if !waitFor(10*time.Second, func() bool { return turnsQueued(p) == i+1 || len(ranSoFar()) != 0 }) {
			t.Fatalf("caller %s neither queued nor ran its root", name)
		}
		if got := ranSoFar(); len(got) != 0 {
			t.Fatalf("roots %v ran while A's root held the pool's only turn", got)
		}
	}
	releaseOnce.Do(func() { close(release) })
	wg.Wait()
	if got, want := ranSoFar(), []string{"B", "C", "D", "A"}; !slices.Equal(got, want) {
		t.Fatalf("roots ran in the order %v, want %v (arrival order)", got, want)
	}
	if s := p.guests.turns.state.Load(); s != 0 {
		held, waiting := turnCounts(s)
		t.Fatalf("after every root: %d turns held, %d callers waiting", held, waiting)
	}
}

// TestTurnsRunOut: a root that waits for another caller's root (here, a
// goroutine it starts, on a pool of one turn) would wait forever if turns
// did not run out; its turn ends after the slice and the other root runs.
func TestTurnsRunOut(t *testing.T) {
	p := New(WithWorkers(1))
	defer closeChecked(t, p)
	p.guests.turns.slice = time.Millisecond
	p.guests.turns.queueShort = true
	for range scale(20) {
		got := RunValue(p, func(w *Worker) int {
			ch := make(chan int)
			go func() { ch <- RunValue(p, func(w *Worker) int { return fib(w, 15) }) }()
			return <-ch
		})
		if got != fibSerial(15) {
			t.Fatalf("fib(15) = %d", got)
		}
	}
	if s := p.guests.turns.state.Load(); s != 0 {
		held, waiting := turnCounts(s)
		t.Fatalf("after every root: %d turns held, %d callers waiting", held, waiting)
	}
}

// TestTurnsStress: many callers at once run roots of mixed shapes (Joins,
// a root that blocks, one that waits for another caller's root, one that
// panics) on pools of one and two turns whose turns run out after a few
// microseconds, so that queueing, hand-offs and run-out turns race. Every
// root runs exactly once with the right result, every panic reaches its
// caller, and the turns' counts come back to zero.
func TestTurnsStress(t *testing.T) {
	callers, rounds := 32, scale(60)
	if raceEnabled {
		callers = 16
	}
	for _, workers := range []int{1, 2} {
		p := New(WithWorkers(workers))
		p.guests.turns.slice = 20 * time.Microsecond
		p.guests.turns.queueShort = workers == 1 // and on two workers, short roots go by the mean
		runs := make([][]atomic.Int32, callers)
		var wg sync.WaitGroup
		for c := range callers {
			runs[c] = make([]atomic.Int32, rounds)
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(c), uint64(workers)))
				for r := range rounds {
					n := 8 + rng.IntN(10)
					var got int
					switch shape := rng.IntN(8); shape {
					case 0: // waits for another caller's root
						got = RunValue(p, func(w *Worker) int {
							runs[c][r].Add(1)
							ch := make(chan int)
							go func() { ch <- RunValue(p, func(w *Worker) int { return fib(w, n) }) }()
							return <-ch
						})
					case 1: // blocks
						got = RunValue(p, func(w *Worker) int {
							runs[c][r].Add(1)
							Blocking(func() { runtime.Gosched() })
							return fib(w, n)
						})
					case 2: // panics
						func() {
							defer func() {
								if _, ok := recover().(*PanicError); !ok {
									t.Errorf("caller %d round %d: the root's panic did not reach its caller as a *PanicError", c, r)
								}
								got = fibSerial(n)
							}()
							RunValue(p, func(w *Worker) int {
								runs[c][r].Add(1)
								fib(w, n)
								panic("boom")
							})
						}()
					default:
						got = RunValue(p, func(w *Worker) int { runs[c][r].Add(1); return fib(w, n) })
					}
					if got != fibSerial(n) {
						t.Errorf("caller %d round %d: fib(%d) = %d", c, r, n, got)
					}
				}
			}()
		}
		wg.Wait()
		for c := range runs {
			for r := range runs[c] {
				if k := runs[c][r].Load(); k != 1 {
					t.Fatalf("workers=%d: caller %d's root %d ran %d times", workers, c, r, k)
				}
			}
		}
		if s := p.guests.turns.state.Load(); s != 0 {
			held, waiting := turnCounts(s)
			t.Fatalf("workers=%d: after every root: %d turns held, %d callers waiting", workers, held, waiting)
		}
		closeChecked(t, p)
	}
}
