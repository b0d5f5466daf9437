package core

import (
	"runtime"
	"testing"
	"time"
)

// TestLimitFollowsGOMAXPROCS: a pool made without WithWorkers grows and
// parks workers as GOMAXPROCS moves; Stats marks the parked ones; RunOn
// still reaches a parked worker; the fork and join results stay right. It
// counts 8 CPUs, so that GOMAXPROCS up to 4 is followed on any machine
// (TestLimitCappedByCPUs has the cap).
func TestLimitFollowsGOMAXPROCS(t *testing.T) {
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	defer func(n int) { numCPU = n }(numCPU)
	numCPU = 8
	runtime.GOMAXPROCS(3)
	pool := New()
	defer pool.Close()
	if pool.Workers() != 3 {
		t.Fatalf("a pool made at GOMAXPROCS 3 has %d workers", pool.Workers())
	}
	runtime.GOMAXPROCS(1)
	if got := RunValue(pool, func(w *Worker) int { return fib(w, 20) }); got != fibSerial(20) {
		t.Fatalf("fib(20) = %d", got)
	}
	if pool.Workers() != 1 {
		t.Fatalf("after GOMAXPROCS(1) and a Run, Workers() = %d", pool.Workers())
	}
	parked := func() int {
		n := 0
		for _, w := range pool.Stats().PerWorker {
			if w.Parked && !w.Spare {
				n++
			}
		}
		return n
	}
	if !waitFor(10*time.Second, func() bool { return parked() == 2 }) {
		t.Fatalf("%d workers parked by the limit, want 2: %+v", parked(), pool.Stats().PerWorker)
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
	if got := RunValue(pool, func(w *Worker) int { return fib(w, 20) }); got != fibSerial(20) {
		t.Fatalf("fib(20) = %d", got)
	}
	regular := 0
	for _, w := range pool.Stats().PerWorker {
		if !w.Guest && !w.Spare {
			regular++
		}
	}
	if pool.Workers() != 4 || regular != 4 || pool.MaxWorkerID() != len(pool.Stats().PerWorker) {
		t.Fatalf("after GOMAXPROCS(4): Workers() %d, %d regular workers, MaxWorkerID %d of %d records; want 4, 4 and all",
			pool.Workers(), regular, pool.MaxWorkerID(), len(pool.Stats().PerWorker))
	}
	fixed := New(WithWorkers(2))
	defer fixed.Close()
	runtime.GOMAXPROCS(1)
	RunValue(fixed, func(w *Worker) int { return 0 })
	if fixed.Workers() != 2 {
		t.Fatalf("WithWorkers(2) pool runs %d workers at GOMAXPROCS 1", fixed.Workers())
	}
}

// TestLimitCappedByCPUs: a pool that follows GOMAXPROCS runs at most as
// many workers as the process has CPUs (here counted as 2), at start and
// as GOMAXPROCS grows past them; its turns are capped too; one made
// WithWorkers keeps its n, and its turns are capped by the CPUs.
func TestLimitCappedByCPUs(t *testing.T) {
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	defer func(n int) { numCPU = n }(numCPU)
	numCPU = 2
	runtime.GOMAXPROCS(6)
	pool := New()
	defer pool.Close()
	fixed := New(WithWorkers(4))
	defer fixed.Close()
	for _, procs := range []int{6, 1, 8, 2} {
		runtime.GOMAXPROCS(procs)
		if got := RunValue(pool, func(w *Worker) int { return fib(w, 18) }); got != fibSerial(18) {
			t.Fatalf("GOMAXPROCS(%d): fib(18) = %d", procs, got)
		}
		if want := min(procs, 2); pool.Workers() != want || pool.turnLimit() != int32(want) {
			t.Fatalf("GOMAXPROCS(%d) on 2 CPUs: Workers() %d, %d turns; want %d", procs, pool.Workers(), pool.turnLimit(), want)
		}
		RunValue(fixed, func(w *Worker) int { return 0 })
		if fixed.Workers() != 4 || fixed.turnLimit() != 2 {
			t.Fatalf("GOMAXPROCS(%d) on 2 CPUs: WithWorkers(4) pool has %d workers, %d turns; want 4 and 2", procs, fixed.Workers(), fixed.turnLimit())
		}
	}
}
