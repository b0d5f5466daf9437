package core

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofork/gofork/topology"
)

func expectPanic(t *testing.T, want string, fn func()) {
	t.Helper()
	v := catch(fn)
	if s := fmt.Sprint(v); v == nil || !strings.Contains(s, want) {
		t.Fatalf("panic %v, want one containing %q", v, want)
	}
}

func TestBadInput(t *testing.T) {
	expectPanic(t, "WithWorkers(0)", func() { New(WithWorkers(0)) })
	expectPanic(t, "WithWorkers(-3)", func() { New(WithWorkers(-3)) })
	expectPanic(t, "WithPolicy", func() { New(WithPolicy(Policy(9))) })
	expectPanic(t, "nil Option", func() { New(nil) })

	pool := New(WithWorkers(2))
	expectPanic(t, "nil root", func() { RunValue[int](pool, nil) })
	expectPanic(t, "nil function", func() {
		RunValue(pool, func(w *Worker) int {
			a, _ := Join[int, int, int, int](w, nil, 0, fib, 1)
			return a
		})
	})
	expectPanic(t, "nil function at index 1", func() {
		RunValue(pool, func(w *Worker) int { Invoke(w, func(*Worker) {}, nil); return 0 })
	})
	expectPanic(t, "RunOn(2)", func() { pool.RunOn(2, func(*Worker) {}) })
	expectPanic(t, "inside a task", func() { RunValue(pool, func(*Worker) int { pool.Close(); return 0 }) })
	pool.Close()
	pool.Close() // a second Close does nothing
	expectPanic(t, "closed Pool", func() { RunValue(pool, func(*Worker) int { return 0 }) })
	expectPanic(t, "closed Pool", func() { pool.RunOn(0, func(*Worker) {}) })
	expectPanic(t, "nil *Pool", func() { RunValue(nil, func(*Worker) int { return 0 }) })
	expectPanic(t, "Default", func() { Default().Close() })
}

func TestManyConcurrentRuns(t *testing.T) {
	pool := New(WithWorkers(4))
	defer pool.Close()
	var wg sync.WaitGroup
	var bad atomic.Int32
	for g := range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 5 + g%15
			if RunValue(pool, func(w *Worker) int { return fib(w, n) }) != fibSerial(n) {
				bad.Add(1)
			}
		}()
	}
	wg.Wait()
	if bad.Load() != 0 {
		t.Fatalf("%d of 1000 concurrent Runs returned a wrong result", bad.Load())
	}
}

// TestNestedRunOnEveryWorker has every worker call Run on its own pool from
// inside a task at the same time: the nested roots run inline.
func TestNestedRunOnEveryWorker(t *testing.T) {
	const p = 4
	pool := New(WithWorkers(p))
	defer pool.Close()
	var inside atomic.Int32
	var release = make(chan struct{})
	fns := make([]func(*Worker), p)
	results := make([]int, p)
	for i := range fns {
		fns[i] = func(w *Worker) {
			// Hold every worker until all are inside a task, so that the
			// nested Runs really happen on every worker at once.
			if inside.Add(1) == p {
				close(release)
			}
			<-release
			results[i] = RunValue(pool, func(w2 *Worker) int {
				if w2 != w {
					panic("nested Run moved to another worker")
				}
				return fib(w2, 15)
			})
		}
	}
	done := make(chan struct{})
	go func() {
		RunValue(pool, func(w *Worker) int { Invoke(w, fns...); return 0 })
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("nested Runs on every worker deadlocked")
	}
	for i, r := range results {
		if r != 610 {
			t.Fatalf("nested Run %d returned %d", i, r)
		}
	}
}

func TestCloseStopsWorkers(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 10 {
		pool := New(WithWorkers(8))
		RunValue(pool, func(w *Worker) int { return fib(w, 15) })
		pool.Close()
	}
	// Worker goroutines exit before Close returns, but the runtime may take
	// a moment to reap them.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Fatalf("%d goroutines before, %d after closing 10 pools", before, after)
	}
}

// TestCloseWhileRunning closes a pool while goroutines call Run: each Run
// either completes with the right answer or panics with the closed message;
// none hangs.
func TestCloseWhileRunning(t *testing.T) {
	for range scale(20) {
		pool := New(WithWorkers(2))
		var wg sync.WaitGroup
		var ok, refused atomic.Int32
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v := catch(func() {
					if RunValue(pool, func(w *Worker) int { return fib(w, 16) }) == 987 {
						ok.Add(1)
					}
				})
				if s, _ := v.(string); strings.Contains(s, "closed Pool") {
					refused.Add(1)
				} else if v != nil {
					t.Errorf("unexpected panic %v", v)
				}
			}()
		}
		pool.Close()
		wg.Wait()
		if ok.Load()+refused.Load() != 16 {
			t.Fatalf("%d ok + %d refused != 16", ok.Load(), refused.Load())
		}
	}
}

func TestRunOn(t *testing.T) {
	pool := New(WithWorkers(3))
	defer pool.Close()
	for id := range 3 {
		for range 20 {
			var got int
			pool.RunOn(id, func(w *Worker) { got = w.ID() })
			if got != id {
				t.Fatalf("RunOn(%d) ran on worker %d", id, got)
			}
		}
	}
}

// TestIdlePoolSleeps checks that once work ends every worker goes to sleep
// (parks on its channel) and stays asleep.
func TestIdlePoolSleeps(t *testing.T) {
	pool := New(WithWorkers(4))
	defer pool.Close()
	for range 5 {
		RunValue(pool, func(w *Worker) int { return fib(w, 20) })
	}
	if !waitAllAsleep(pool, 10*time.Second) {
		t.Fatalf("workers still awake 10 s after the last Run: %d of 4 asleep", pool.sleep.sleeping())
	}
	before := pool.Stats().Total().Sleeps
	time.Sleep(50 * time.Millisecond)
	if after := pool.Stats().Total().Sleeps; after != before {
		t.Fatalf("an idle pool woke up: sleeps went from %d to %d", before, after)
	}
}

// TestSpin: WithSpin sets how long idle workers search before they sleep.
// With an hour nobody sleeps after the work is done; with 0 everybody does,
// as with the default; a negative spin is refused.
func TestSpin(t *testing.T) {
	long := New(WithWorkers(2), WithSpin(time.Hour))
	for range 5 {
		RunValue(long, func(w *Worker) int { return fib(w, 20) })
	}
	time.Sleep(50 * time.Millisecond)
	if n := long.Stats().Total().Sleeps; n != 0 {
		t.Errorf("WithSpin(time.Hour): workers went to sleep %d times within 50 ms", n)
	}
	long.Close() // spinning workers see Close
	short := New(WithWorkers(2), WithSpin(0))
	defer short.Close()
	RunValue(short, func(w *Worker) int { return fib(w, 20) })
	if !waitAllAsleep(short, 10*time.Second) {
		t.Fatalf("WithSpin(0): workers still awake 10 s after the last Run")
	}
	expectPanic(t, "WithSpin(-1ns)", func() { New(WithSpin(-1)) })
}

func waitAllAsleep(p *Pool, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if int(p.sleep.sleeping()) == p.Workers() {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

func TestStats(t *testing.T) {
	pool := New(WithWorkers(2))
	defer pool.Close()
	for range 10 {
		RunValue(pool, func(w *Worker) int { return fib(w, 22) })
	}
	waitAllAsleep(pool, 10*time.Second)
	s := pool.Stats()
	tot := s.Total()
	regular := 0
	for _, w := range s.PerWorker {
		if !w.Guest && !w.Spare { // the governor may start a spare for a stall on a loaded machine
			regular++
		}
	}
	if regular != 2 || tot.Roots != 10 {
		t.Fatalf("stats: %d regular workers, %d roots; want 2 and 10", regular, tot.Roots)
	}
	if tot.Stolen > tot.StealAttempts {
		t.Fatalf("more steals (%d) than attempts (%d)", tot.Stolen, tot.StealAttempts)
	}
	for i, w := range s.PerWorker {
		if w.Idle+w.Busy != s.Uptime || w.Idle < 0 || w.Idle > s.Uptime {
			t.Fatalf("worker %d: idle %v busy %v uptime %v", i, w.Idle, w.Busy, s.Uptime)
		}
	}
}

func TestPinning(t *testing.T) {
	pool := New(WithWorkers(2), WithPinning(true))
	defer pool.Close()
	if got := RunValue(pool, func(w *Worker) int { return fib(w, 20) }); got != 6765 {
		t.Fatalf("fib on a pinned pool = %d", got)
	}
	st := pool.Stats()
	for i, w := range st.PerWorker {
		// Either pinned, or the reason is reported (containers may forbid
		// it). A guest runs on its caller's thread, pinned nowhere.
		if w.Guest {
			if w.Pinned || w.PinError != "" {
				t.Fatalf("guest record %d: Pinned=%v PinError=%q", i, w.Pinned, w.PinError)
			}
			continue
		}
		if w.Pinned == (w.PinError != "") {
			t.Fatalf("worker %d: Pinned=%v PinError=%q", i, w.Pinned, w.PinError)
		}
	}
}

func TestRecordedTopologyPool(t *testing.T) {
	topo, err := topology.Read(topoTestRoot("2socket"))
	if err != nil {
		t.Fatal(err)
	}
	pool := New(WithWorkers(8), WithTopology(topo))
	defer pool.Close()
	if n := len(pool.topology.CPUs()); n != 8 {
		t.Fatalf("pool topology has %d CPUs, want the recorded 8", n)
	}
	st := pool.Stats()
	for i, want := range []int{0, 4, 1, 5, 2, 6, 3, 7} { // spread over sockets first
		if st.PerWorker[i].CPU != want {
			t.Fatalf("worker %d placed on cpu %d, want %d", i, st.PerWorker[i].CPU, want)
		}
	}
	if got := RunValue(pool, func(w *Worker) int { return fib(w, 22) }); got != 17711 {
		t.Fatalf("fib = %d", got)
	}
}

// TestWakeNearSleeper checks the per-node wake choice on a recorded two-node
// machine: a producer on node k wakes a sleeper of node k when there is one.
func TestWakeNearSleeper(t *testing.T) {
	topo, err := topology.Read(topoTestRoot("2socket"))
	if err != nil {
		t.Fatal(err)
	}
	pool := New(WithWorkers(8), WithTopology(topo))
	defer pool.Close()
	if len(pool.nodes) != 2 {
		t.Fatalf("%d worker nodes, want 2", len(pool.nodes))
	}
	RunValue(pool, func(w *Worker) int { return fib(w, 18) })
	if !waitAllAsleep(pool, 10*time.Second) {
		t.Fatal("workers did not go to sleep")
	}
	pool.sleep.mu.Lock()
	defer pool.sleep.mu.Unlock()
	for node := range 2 {
		w := pool.sleeperInNode(node)
		if w == nil || w.node != node || w.idle != asleep {
			t.Fatalf("sleeperInNode(%d) = %+v", node, w)
		}
		if got := topo.Node(w.cpu); got != node {
			t.Fatalf("worker %d on cpu %d is in topology node %d, not %d", w.id, w.cpu, got, node)
		}
	}
}
