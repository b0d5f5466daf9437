package core

import (
	"runtime"
	"slices"
	"strings"
	"testing"
)

// pinOnFreshThread runs f on a new goroutine and waits for it. The goroutine
// exits without unlocking, so a thread f pinned dies with it.
func pinOnFreshThread(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

func TestPinCurrentThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		err := pinCurrentThread(0)
		if err == nil || !strings.Contains(err.Error(), "pinning not supported on "+runtime.GOOS) {
			t.Fatalf("pinCurrentThread on %s: err = %v", runtime.GOOS, err)
		}
		return
	}
	allowed, err := pinAllowedCPUs()
	if err != nil || len(allowed) == 0 {
		t.Fatalf("pinAllowedCPUs() = %v, %v", allowed, err)
	}
	for _, cpu := range allowed {
		pinOnFreshThread(func() {
			if err := pinCurrentThread(cpu); err != nil {
				t.Errorf("pinCurrentThread(%d): %v", cpu, err)
				return
			}
			runtime.Gosched() // still on the same, pinned thread afterwards
			got, err := pinAllowedCPUs()
			if err != nil || !slices.Equal(got, []int{cpu}) {
				t.Errorf("after pinCurrentThread(%d): sched_getaffinity = %v, %v; want [%d]", cpu, got, err, cpu)
			}
		})
	}
	// The pinned threads died with their goroutines: a fresh thread has the
	// whole mask again.
	pinOnFreshThread(func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if got, _ := pinAllowedCPUs(); !slices.Equal(got, allowed) {
			t.Errorf("a pinned thread leaked back to the scheduler: affinity %v, want %v", got, allowed)
		}
	})
}

func TestPinCurrentThreadInvalid(t *testing.T) {
	allowed, _ := pinAllowedCPUs()
	bad := []int{-1, 1 << 20}
	// A CPU number the process may not use (offline, absent, or outside its cpuset).
	for c := 0; c < 1024; c++ {
		if !slices.Contains(allowed, c) {
			bad = append(bad, c)
			break
		}
	}
	for _, cpu := range bad {
		pinOnFreshThread(func() {
			runtime.LockOSThread() // keep the affinity reads on one thread
			defer runtime.UnlockOSThread()
			before, _ := pinAllowedCPUs()
			err := pinCurrentThread(cpu)
			if err == nil {
				t.Errorf("pinCurrentThread(%d): no error", cpu)
				return
			}
			if !strings.HasPrefix(err.Error(), "core: pin to cpu ") {
				t.Errorf("pinCurrentThread(%d): error %q lacks the prefix", cpu, err)
			}
			if after, _ := pinAllowedCPUs(); !slices.Equal(after, before) {
				t.Errorf("failed pinCurrentThread(%d) changed the affinity %v -> %v", cpu, before, after)
			}
			t.Logf("pinCurrentThread(%d): %v", cpu, err)
		})
	}
}

// TestPinningSurvivesGoexit checks that a pinned worker whose task calls
// runtime.Goexit stays pinned: the goroutine that takes the worker over
// must pin its own thread, since the old one leaves with the old goroutine.
func TestPinningSurvivesGoexit(t *testing.T) {
	p := New(WithWorkers(1), WithPinning(true))
	defer p.Close()
	st := p.Stats().PerWorker[0]
	if !st.Pinned {
		t.Skipf("pinning not available here: %s", st.PinError)
	}
	affinity := func() (cpus []int) {
		p.RunOn(0, func(*Worker) { cpus, _ = pinAllowedCPUs() })
		return cpus
	}
	if got := affinity(); !slices.Equal(got, []int{st.CPU}) {
		t.Fatalf("pinned worker's thread may run on %v, want [%d]", got, st.CPU)
	}
	for range 3 {
		expectPanic(t, "Goexit", func() { p.RunOn(0, func(*Worker) { runtime.Goexit() }) })
		if got := affinity(); !slices.Equal(got, []int{st.CPU}) {
			t.Fatalf("after a Goexit the worker's thread may run on %v, want [%d]; Stats says Pinned=%v",
				got, st.CPU, p.Stats().PerWorker[0].Pinned)
		}
	}
	if !p.Stats().PerWorker[0].Pinned {
		t.Fatal("Stats says the worker is no longer pinned")
	}
}
