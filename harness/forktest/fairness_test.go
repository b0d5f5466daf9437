package forktest

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

// TestSmallRootsBesideABigOne is the fair-service program of core's
// DESIGN.md: one goroutine sorts a big slice with sortpar while others,
// one every 2 ms, sort small slices on the same pool of 2 workers.
// Without fair service the busy workers take the small roots only when the
// big sort ends, and their latency is spread up to the big sort's time. The
// test asserts that every sort returns and is right, and logs the latency
// and how many roots busy workers took at their poll points; under the
// gofork_bounds build tag it also asserts that the latency is a small
// fraction of the big sort's time (ratios measured in the same run).
func TestSmallRootsBesideABigOne(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	bigN, smallN := 8_000_000, 20_000
	if raceEnabled {
		bigN, smallN = 1_000_000, 5_000
	}
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()
	rng := rand.New(rand.NewPCG(7, 7))
	big := randomInts(rng, bigN)

	bigDone := make(chan time.Duration)
	go func() {
		start := time.Now()
		sortpar.Sort(big, par.WithPool(pool))
		bigDone <- time.Since(start)
	}()
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	var bigTime time.Duration
	tick := time.NewTicker(2 * time.Millisecond)
loop:
	for k := uint64(0); ; k++ {
		select {
		case bigTime = <-bigDone:
			break loop
		case <-tick.C:
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			xs := randomInts(rand.New(rand.NewPCG(k, 1)), smallN)
			start := time.Now()
			sortpar.Sort(xs, par.WithPool(pool))
			d := time.Since(start)
			if !slices.IsSorted(xs) {
				t.Errorf("small sort %d returned unsorted data", k)
			}
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		}()
	}
	tick.Stop()
	wg.Wait()
	if !slices.IsSorted(big) {
		t.Fatal("the big sort returned unsorted data")
	}
	if checkBounds && len(lat) < 20 {
		t.Skipf("the big sort took %v: only %d small sorts ran beside it, too few to judge", bigTime, len(lat))
	}
	slices.Sort(lat)
	p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
	s := pool.Stats()
	t.Logf("big sort %v; %d small sorts beside it: p50 %v, p99 %v; roots taken by busy workers %d; worst wait %v",
		bigTime, len(lat), p50, p99, s.Total().RootsBusy, s.MaxRootWait)
	// Without fair service a small sort submitted at a uniform moment of
	// the big one waits for its end: p50 about half the big sort's time,
	// p99 nearly all of it. The bounds leave room for a shared machine.
	if checkBounds && (p50 > bigTime/8 || p99 > bigTime/2) {
		t.Errorf("small sorts' latency p50 %v, p99 %v beside a big sort of %v: they waited for it (want p50 < 1/8, p99 < 1/2 of it)", p50, p99, bigTime)
	}
}
