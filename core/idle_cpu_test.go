//go:build linux && gofork_bounds

// A CPU-time bound, not a unit test: it holds only on a machine where no
// other process competes, so go test ./... leaves it out. CI's benchmark
// step runs it with -tags gofork_bounds (CONTRIBUTING, "Tests"). That idle
// workers go to sleep at all is checked without the tag (pool_test.go,
// waitAllAsleep).

package core

import (
	"syscall"
	"testing"
	"time"
)

func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestIdlePoolUsesNoCPU reads the process's CPU time across a sleep once an
// 8-worker Lazy pool has gone idle: its workers must be parked, not spinning.
func TestIdlePoolUsesNoCPU(t *testing.T) {
	pool := New(WithWorkers(8))
	defer pool.Close()
	for range 3 {
		RunValue(pool, func(w *Worker) int { return fib(w, 22) })
	}
	if !waitAllAsleep(pool, 10*time.Second) {
		t.Fatal("workers did not go to sleep")
	}
	const nap = 300 * time.Millisecond
	before := processCPU(t)
	time.Sleep(nap)
	used := processCPU(t) - before
	// One spinning worker would use the whole nap; allow a little for the
	// runtime's own background work.
	if used > nap/10 {
		t.Fatalf("an idle pool used %v of CPU during a %v sleep", used, nap)
	}
}
