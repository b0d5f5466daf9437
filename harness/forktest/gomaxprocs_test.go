package forktest

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// TestDefaultFollowsGOMAXPROCS sets GOMAXPROCS to 1, 2 and 1 again and runs
// a large par.For on the Default pool each time, recording which workers
// ran its iterations (a nested core.RunValue returns w.ID()): the caller's
// goroutine (a guest) and regular workers below the limit only, at least
// GOMAXPROCS of them in all, and every index exactly once.
func TestDefaultFollowsGOMAXPROCS(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	pool := core.Default()
	const n = 4000
	for _, procs := range []int{1, 2, 1, 2} {
		runtime.GOMAXPROCS(procs)
		core.RunValue(pool, func(*core.Worker) int { return 0 })                    // a Run from outside reads GOMAXPROCS
		if got, want := pool.Workers(), min(procs, runtime.NumCPU()); got != want { // capped at the CPUs
			t.Fatalf("GOMAXPROCS(%d) on %d CPUs: Workers() = %d, want %d", procs, runtime.NumCPU(), got, want)
		}
		// The regular workers beyond the limit park once idle; wait for it
		// (a state, not a time: the deadline only turns a hang into a
		// failure), so that none is still in the middle of a search.
		if !waitParked(pool, procs, time.Minute) {
			t.Fatalf("GOMAXPROCS(%d): regular workers beyond the limit did not park, or spares (of earlier tests' blocking work) did not retire: %+v", procs, pool.Stats())
		}
		// Each index records its worker in its own slot: a shared map
		// behind a mutex would block workers on the mutex, and the pool
		// rightly starts spares for blocked workers.
		seen := make([]atomic.Int32, n)
		ranOn := make([]atomic.Int32, n)
		par.For(0, n, func(i int) {
			id := core.RunValue(pool, func(w *core.Worker) int { return w.ID() })
			seen[i].Add(1)
			ranOn[i].Store(int32(id))
			spin(20 * time.Microsecond) // enough work per index that a second worker finds some
		})
		ids := map[int]int{}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("GOMAXPROCS(%d): index %d ran %d times", procs, i, c)
			}
			ids[int(ranOn[i].Load())]++
		}
		workers := pool.Stats().PerWorker
		for id := range ids {
			// Spares may run iterations: the pool starts one for a worker it
			// finds blocked, which a loaded machine's descheduling can look
			// like. A regular worker beyond the limit never does.
			if w := workers[id]; !w.Guest && !w.Spare && regularIndex(workers, id) >= procs {
				t.Fatalf("GOMAXPROCS(%d): iterations ran on worker %d, beyond the limit: %v", procs, id, ids)
			}
		}
		// How many workers took part is scheduling, not the contract: on a
		// loaded machine one worker may run every iteration.
		t.Logf("GOMAXPROCS(%d): iterations per worker ID %v", procs, ids)
	}
}

// regularIndex returns the index of worker id among the regular workers
// (neither spares nor guests) of workers.
func regularIndex(workers []core.WorkerStats, id int) int {
	k := 0
	for _, w := range workers[:id] {
		if !w.Spare && !w.Guest {
			k++
		}
	}
	return k
}

// waitParked waits until every regular worker of pool beyond the first
// limit is parked and no spare is active, and reports whether that happened
// before d passed.
func waitParked(pool *core.Pool, limit int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(100 * time.Microsecond) {
		k, ok := 0, pool.Stats().Spares == 0
		for _, w := range pool.Stats().PerWorker {
			if w.Spare || w.Guest {
				continue
			}
			if k >= limit && !w.Parked {
				ok = false
			}
			k++
		}
		if ok {
			return true
		}
	}
	return false
}

// spin works (does not sleep) for about d.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// TestNewFollowsGOMAXPROCS: a pool made with core.New() and no WithWorkers
// follows GOMAXPROCS like Default, up to the CPUs; one made WithWorkers(3)
// keeps 3.
func TestNewFollowsGOMAXPROCS(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	follow, fixed := core.New(), core.New(core.WithWorkers(3))
	defer follow.Close()
	defer fixed.Close()
	for _, procs := range []int{3, 1, 5, 2} {
		runtime.GOMAXPROCS(procs)
		for _, p := range []*core.Pool{follow, fixed} {
			want := fibSerial(18)
			if got := core.RunValue(p, func(w *core.Worker) int { return fibJoin(w, 18) }); got != want {
				t.Fatalf("GOMAXPROCS(%d): fib(18) = %d", procs, got)
			}
		}
		if want := min(procs, runtime.NumCPU()); follow.Workers() != want || fixed.Workers() != 3 { // capped at the CPUs
			t.Fatalf("GOMAXPROCS(%d) on %d CPUs: Workers() %d and %d, want %d and 3", procs, runtime.NumCPU(), follow.Workers(), fixed.Workers(), want)
		}
	}
	n := 0
	for _, w := range follow.Stats().PerWorker {
		if !w.Guest && !w.Spare { // a spare the governor starts for a stall is not one of the pool's workers
			n++
		}
	}
	if want := min(max(5, old), runtime.NumCPU()); n != want {
		t.Fatalf("the following pool made %d workers over GOMAXPROCS %d, 3, 1, 5, 2 on %d CPUs; want %d (its largest, capped at the CPUs)", n, old, runtime.NumCPU(), want)
	}
}
