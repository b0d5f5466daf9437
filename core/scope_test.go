package core

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofork/gofork/internal/lockfree"
)

// TestGroupBurstReleasesRing: after a burst of jobs forked from one task
// is done, the workers' job rings are back to at most lockfree.DequeKeep slots.
func TestGroupBurstReleasesRing(t *testing.T) {
	p := New(WithWorkers(2))
	defer p.Close()
	n := max(scale(100_000), 16*lockfree.DequeKeep) // past lockfree.DequeKeep, however scaled
	var ran atomic.Int64
	RunValue(p, func(w *Worker) int {
		var s Scope
		for range n {
			s.Go(p, func(*Worker) { ran.Add(1) })
		}
		s.Wait(p)
		return 0
	})
	if got := ran.Load(); got != int64(n) {
		t.Fatalf("%d of %d jobs ran", got, n)
	}
	big := 0 // a ring larger than lockfree.DequeKeep that a worker kept, at the last look
	released := waitFor(10*time.Second, func() bool {
		big = 0
		for _, w := range p.roster.Load().all {
			if c := w.jobs.Cap(); c > lockfree.DequeKeep {
				big = c
			}
		}
		return big == 0
	})
	if !released {
		t.Fatalf("a worker kept a job ring of %d slots 10 s after the burst", big)
	}
}

// walkScope forks a task per child of a random tree node on s, from inside
// the tasks themselves, and counts the nodes it visits.
func walkScope(s *Scope, p *Pool, seed uint64, depth int, count *atomic.Int64) {
	count.Add(1)
	if depth == 0 {
		return
	}
	kids := int(splitmix(seed) % 5)
	for k := range kids {
		child := splitmix(seed + uint64(k) + 1)
		s.Go(p, func(*Worker) { walkScope(s, p, child, depth-1, count) })
	}
}

func walkSerial(seed uint64, depth int) int64 {
	if depth == 0 {
		return 1
	}
	n := int64(1)
	for k := range int(splitmix(seed) % 5) {
		n += walkSerial(splitmix(seed+uint64(k)+1), depth-1)
	}
	return n
}

// TestScopeTree walks random trees whose tasks fork their children on the
// scope as they find them (the errgroup crawl pattern), waited for from
// inside a task and from outside: every node exactly once, against a
// serial count.
func TestScopeTree(t *testing.T) {
	for _, workers := range []int{1, 2, 4, 8} {
		pool := New(WithWorkers(workers))
		for seed := range uint64(20) {
			want := walkSerial(seed, 7)
			var s Scope
			var got atomic.Int64
			if seed%2 == 0 {
				RunValue(pool, func(w *Worker) int {
					walkScope(&s, pool, seed, 7, &got)
					s.Wait(pool)
					return 0
				})
			} else {
				walkScope(&s, pool, seed, 7, &got) // Go from outside, then tasks fork more
				s.Wait(pool)
			}
			if got.Load() != want || s.Pending() != 0 {
				t.Fatalf("P=%d seed %d: visited %d nodes, want %d (pending %d)", workers, seed, got.Load(), want, s.Pending())
			}
		}
		closeChecked(t, pool)
	}
}

// TestScopeLimit: with SetLimit(3), never more than 3 tasks of the scope
// run at once, TryGo refuses when 3 are running, and Go blocks (helping)
// until one finishes.
func TestScopeLimit(t *testing.T) {
	pool := New(WithWorkers(4))
	defer pool.Close()
	for _, inside := range []bool{true, false} {
		var s Scope
		s.SetLimit(3)
		var running, most, ran atomic.Int64
		release := make(chan struct{})
		task := func(*Worker) {
			k := running.Add(1)
			for m := most.Load(); k > m && !most.CompareAndSwap(m, k); m = most.Load() {
			}
			<-release
			running.Add(-1)
			ran.Add(1)
		}
		fork := func() {
			for range 3 {
				s.Go(pool, task)
			}
			if s.TryGo(pool, task) {
				t.Error("TryGo forked a fourth task with a limit of 3")
			}
			close(release)
			for range 50 {
				s.Go(pool, func(w *Worker) { task(w) })
			}
			s.Wait(pool)
		}
		if inside {
			RunValue(pool, func(*Worker) int { fork(); return 0 })
		} else {
			fork()
		}
		if most.Load() > 3 || ran.Load() != 53 {
			t.Fatalf("inside=%v: %d tasks ran, at most %d at once; want 53 and <= 3", inside, ran.Load(), most.Load())
		}
	}
}

// TestScopePanic: a panicking task does not stop the others, and Wait
// panics with the first panic; the scope is usable afterwards.
func TestScopePanic(t *testing.T) {
	pool := New(WithWorkers(2))
	defer pool.Close()
	var s Scope
	boom := errors.New("boom")
	var ran atomic.Int64
	for i := range 100 {
		s.Go(pool, func(*Worker) {
			ran.Add(1)
			if i == 37 {
				panic(boom)
			}
		})
	}
	v := catch(func() { s.Wait(pool) })
	if pe, ok := v.(*PanicError); !ok || !errors.Is(pe, boom) {
		t.Fatalf("Wait panicked with %v, want a *PanicError wrapping boom", v)
	}
	if ran.Load() != 100 {
		t.Fatalf("%d of 100 tasks ran", ran.Load())
	}
	s.Go(pool, func(*Worker) { ran.Add(1) })
	s.Wait(pool) // a new round, no panic left
	if ran.Load() != 101 {
		t.Fatalf("the second round did not run")
	}
}

// TestScopeManyTinyTasks forks 10^6 (10^5 with -short or -race) empty
// tasks from one task and from 100 goroutines outside the pool.
func TestScopeManyTinyTasks(t *testing.T) {
	n := 1_000_000
	if testing.Short() || raceEnabled {
		n = 100_000
	}
	pool := New(WithWorkers(2))
	defer pool.Close()
	var s Scope
	var ran atomic.Int64
	inc := func(*Worker) { ran.Add(1) }
	RunValue(pool, func(*Worker) int {
		for range n {
			s.Go(pool, inc)
		}
		s.Wait(pool)
		return 0
	})
	if ran.Load() != int64(n) {
		t.Fatalf("inside: %d of %d tasks ran", ran.Load(), n)
	}
	ran.Store(0)
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n / 100 {
				s.Go(pool, inc)
			}
		}()
	}
	wg.Wait()
	s.Wait(pool)
	if ran.Load() != int64(n) {
		t.Fatalf("outside: %d of %d tasks ran", ran.Load(), n)
	}
}

// TestScopeNoAllocs: GoWith from inside a task allocates nothing in steady
// state.
func TestScopeNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	pool := New(WithWorkers(1), WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer pool.Close()
	var s Scope
	var sum atomic.Int64
	add := func(_ *Worker, a any) { sum.Add(int64(*a.(*int))) }
	one := 1
	run := func() {
		RunValue(pool, func(*Worker) int {
			for range 1000 {
				s.GoWith(pool, add, &one)
			}
			s.Wait(pool)
			return 0
		})
	}
	run() // warm the free list
	if allocs := testing.AllocsPerRun(20, run); allocs > 2 {
		t.Fatalf("1000 GoWith and a Wait inside a task allocated %.1f times per Run", allocs)
	}
}

// TestScopeGoOnClosedPool checks that a Go or TryGo refused by a closed
// pool leaves the scope as it was: the task is not counted, and a Wait on
// the scope (here on another pool) returns instead of waiting for it.
func TestScopeGoOnClosedPool(t *testing.T) {
	p := New(WithWorkers(2))
	p.Close()
	q := New(WithWorkers(2))
	defer q.Close()
	var s Scope
	expectPanic(t, "closed", func() { s.Go(p, func(*Worker) {}) })
	expectPanic(t, "closed", func() { s.TryGo(p, func(*Worker) {}) })
	s.SetLimit(1)
	expectPanic(t, "closed", func() { s.TryGo(p, func(*Worker) {}) })
	expectPanic(t, "closed", func() { s.Go(p, func(*Worker) {}) })
	if n := s.Pending(); n != 0 {
		t.Fatalf("Pending() = %d after Go and TryGo were refused, want 0", n)
	}
	var ran atomic.Int32
	s.Go(q, func(*Worker) { ran.Add(1) })
	done := make(chan struct{})
	go func() { defer close(done); s.Wait(q) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Scope.Wait hangs after a Go refused by a closed pool")
	}
	if ran.Load() != 1 {
		t.Fatalf("the task on the open pool ran %d times", ran.Load())
	}
}

// TestScopeGoWhileClosing forks tasks from outside while the pool closes:
// each producer goes on until its Go panics with the closed message,
// leaving its task uncounted; every task forked before runs exactly once by
// the time Close returns (Close waits for every job whose position it
// counted), and the scope's count is back to 0.
func TestScopeGoWhileClosing(t *testing.T) {
	for round := range scale(200) {
		p := New(WithWorkers(2))
		const producers = 3
		var s Scope
		var forked, ran atomic.Int64
		var wg sync.WaitGroup
		for range producers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					v := catch(func() { s.Go(p, func(*Worker) { ran.Add(1) }) })
					if v == nil {
						forked.Add(1)
						continue
					}
					if str, _ := v.(string); !strings.Contains(str, "closed Pool") {
						t.Errorf("unexpected panic %v", v)
					}
					return
				}
			}()
		}
		for forked.Load() < int64(round%10*50) {
			runtime.Gosched()
		}
		p.Close()
		afterClose := ran.Load()
		wg.Wait()
		if ran.Load() != afterClose || afterClose != forked.Load() {
			t.Fatalf("round %d: %d tasks ran by Close, %d in all, of %d forked", round, afterClose, ran.Load(), forked.Load())
		}
		if n := s.Pending(); n != 0 {
			t.Fatalf("round %d: Pending() = %d after Close, want 0", round, n)
		}
	}
}

// TestScopeOutsideTaskWaitsForLaterOnes: a task forked from outside that
// blocks, with no hint, until every task forked after it has run does not
// hold them up, wherever it falls in the batches workers take from the
// outside queue: the rest of its batch stays on the worker's job deque,
// where another worker or a spare takes it. On 1 and 2 workers.
func TestScopeOutsideTaskWaitsForLaterOnes(t *testing.T) {
	const n = 3*outsideTake + 7
	for _, workers := range []int{1, 2} {
		for _, blocker := range []int{0, 1, outsideTake - lockfree.StealMax - 1, outsideTake - 1, outsideTake, n - 2} {
			pool := New(WithWorkers(workers))
			var s Scope
			var ran atomic.Int64
			others := make(chan struct{})
			for i := range n {
				if i == blocker {
					s.Go(pool, func(*Worker) { <-others })
					continue
				}
				s.Go(pool, func(*Worker) {
					if ran.Add(1) == n-1 {
						close(others)
					}
				})
			}
			done := make(chan struct{})
			go func() { s.Wait(pool); close(done) }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("%d workers, task %d blocked: %d of the %d others ran in 30 s; %+v", workers, blocker, ran.Load(), n-1, pool.Stats())
			}
			st := pool.Stats()
			t.Logf("%d workers, blocker %d: spares %d stolen %d", workers, blocker, st.SparesStarted, st.Total().Stolen)
			pool.Close()
		}
	}
}
