package forktest

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/uts"
)

// memoryMetrics are summed into the footprint the memory test bounds: live
// and not yet swept heap objects, and goroutine stacks (a deep recursion
// lives on its worker's stack, not in heap objects).
var memoryMetrics = []string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/stacks:bytes",
}

// peakFootprint runs f and returns the largest footprint seen while it ran,
// above the footprint just before (after two collections). A sampler reads
// runtime/metrics every 100 µs; the GC runs at GOGC=10 meanwhile so that the
// heap objects it sees are mostly live ones.
func peakFootprint(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	samples := make([]metrics.Sample, len(memoryMetrics))
	for i, name := range memoryMetrics {
		samples[i].Name = name
	}
	read := func() uint64 {
		metrics.Read(samples)
		var sum uint64
		for _, s := range samples {
			sum += s.Value.Uint64()
		}
		return sum
	}
	runtime.GC()
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		own := make([]metrics.Sample, len(samples))
		copy(own, samples)
		for {
			metrics.Read(own)
			var sum uint64
			for _, s := range own {
				sum += s.Value.Uint64()
			}
			if sum > peak.Load() {
				peak.Store(sum)
			}
			select {
			case <-stop:
				return
			default:
				time.Sleep(100 * time.Microsecond) // a sampling period, not synchronisation
			}
		}
	}()
	f()
	if v := read(); v > peak.Load() {
		peak.Store(v)
	}
	close(stop)
	wg.Wait()
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

func fibJoin(w *core.Worker, n int) int {
	if n < 2 {
		return n
	}
	a, b := core.Join(w, fibJoin, n-1, fibJoin, n-2)
	return a + b
}

// TestMemoryBound checks the space bound of work stealing, S_P <= P * S_1
// up to a constant: the peak footprint of fib(32) and of a deep UTS tree on
// a pool of P workers (the pool's creation included) stays within
// memoryFactor * P * M1, M1 being the peak at P = 1. M1 is floored at
// memoryFloor so that sampling noise on a tiny footprint cannot fail it.
func TestMemoryBound(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory and slower runs make footprints meaningless")
	}
	const (
		memoryFactor = 4
		memoryFloor  = 256 << 10
	)
	fibN := 32
	deep := uts.Tree{Type: uts.Binomial, B0: 2000, Q: 0.124875, M: 8, Seed: 42} // T3: depth 1572
	if testing.Short() {
		fibN = 27
		deep.B0 = 200
	}
	if emulated {
		fibN = 24
		deep.B0 = 50
	}
	wantFib := fibSerial(fibN)
	wantUTS := uts.SearchSerial(deep)
	cases := []struct {
		name string
		run  func(pool *core.Pool) error
	}{
		{fmt.Sprintf("fib(%d)", fibN), func(pool *core.Pool) error {
			if got := core.RunValue(pool, func(w *core.Worker) int { return fibJoin(w, fibN) }); got != wantFib {
				return fmt.Errorf("fib(%d) = %d, want %d", fibN, got, wantFib)
			}
			return nil
		}},
		{fmt.Sprintf("uts(%v)", deep), func(pool *core.Pool) error {
			if got := uts.Search(deep, par.WithPool(pool)); got != wantUTS {
				return fmt.Errorf("uts: %+v, want %+v", got, wantUTS)
			}
			return nil
		}},
	}
	for _, c := range cases {
		var m1 uint64
		for p := 1; p <= 8; p++ {
			var err error
			peak := peakFootprint(func() {
				pool := core.New(core.WithWorkers(p))
				defer pool.Close()
				err = c.run(pool)
			})
			if err != nil {
				t.Fatalf("%s, P=%d: %v", c.name, p, err)
			}
			if p == 1 {
				m1 = max(peak, memoryFloor)
			}
			bound := memoryFactor * uint64(p) * m1
			t.Logf("%s P=%d: peak %d KiB (bound %d KiB)", c.name, p, peak>>10, bound>>10)
			if peak > bound {
				t.Errorf("%s, P=%d: peak footprint %d KiB > %d * P * M1 = %d KiB (M1 = %d KiB)",
					c.name, p, peak>>10, memoryFactor, bound>>10, m1>>10)
			}
		}
	}
}
