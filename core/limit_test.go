package core

import (
	"runtime"
	"testing"
	"time"
)

// TestLimitFollowsGOMAXPROCS: a pool made without WithWorkers grows and
// parks workers as GOMAXPROCS moves; Stats marks the parked ones; RunOn
// still reaches a parked worker; the fork and join results stay right.
func TestLimitFollowsGOMAXPROCS(t *testing.T) {
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	runtime.GOMAXPROCS(3)
	pool := New()
	defer pool.Close()
	if pool.Workers() != 3 {
		t.Fatalf("a pool made at GOMAXPROCS 3 has %d workers", pool.Workers())
	}
	runtime.GOMAXPROCS(1)
	if got := Run(pool, func(w *Worker) int { return fib(w, 20) }); got != fibSerial(20) {
		t.Fatalf("fib(20) = %d", got)
	}
	if pool.Workers() != 1 {
		t.Fatalf("after GOMAXPROCS(1) and a Run, Workers() = %d", pool.Workers())
	}
	parked := func() int {
		n := 0
		for _, w := range pool.Stats().Workers {
			if w.Parked && !w.Spare {
				n++
			}
		}
		return n
	}
	if !waitFor(10*time.Second, func() bool { return parked() == 2 }) {
		t.Fatalf("%d workers parked by the limit, want 2: %+v", parked(), pool.Stats().Workers)
	}
	ran := -1
	pool.RunOn(2, func(w *Worker) { ran = w.ID() })
	if ran != 2 {
		t.Fatalf("RunOn(2) on a parked worker ran on %d", ran)
	}
	if !waitFor(10*time.Second, func() bool { return parked() == 2 }) {
		t.Fatal("worker 2 did not park again after its RunOn root")
	}
	runtime.GOMAXPROCS(4)
	if got := Run(pool, func(w *Worker) int { return fib(w, 20) }); got != fibSerial(20) {
		t.Fatalf("fib(20) = %d", got)
	}
	regular := 0
	for _, w := range pool.Stats().Workers {
		if !w.Guest {
			regular++
		}
	}
	if pool.Workers() != 4 || regular != 4 || pool.MaxWorkerID() != len(pool.Stats().Workers) {
		t.Fatalf("after GOMAXPROCS(4): Workers() %d, %d regular workers, MaxWorkerID %d of %d records; want 4, 4 and all",
			pool.Workers(), regular, pool.MaxWorkerID(), len(pool.Stats().Workers))
	}
	fixed := New(WithWorkers(2))
	defer fixed.Close()
	runtime.GOMAXPROCS(1)
	Run(fixed, func(w *Worker) int { return 0 })
	if fixed.Workers() != 2 {
		t.Fatalf("WithWorkers(2) pool runs %d workers at GOMAXPROCS 1", fixed.Workers())
	}
}
