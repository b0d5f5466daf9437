package serverload

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

// The callers-in-turn program (core's DESIGN.md, "Callers served in
// turn"): Callers goroutines each sort Size random int64 with sortpar.Sort,
// back to back, for Duration, all on one pool and with no big job beside
// them. Served in turn, every request takes about Callers / throughput; a
// pool that serves some callers again and again while others wait shows a
// p99 many times the mean. The baseline is the same program with
// slices.Sort on the same goroutines.

// TurnsConfig is one run of the callers-in-turn program.
type TurnsConfig struct {
	// Pool runs the sorts; nil runs the baseline (slices.Sort).
	Pool *core.Pool
	// Callers is the number of goroutines, each sorting one request after
	// another.
	Callers int
	// Size is the number of int64 each request sorts.
	Size int
	// Duration is how long the callers keep sending requests; a request
	// under way when it ends is completed and counted.
	Duration time.Duration
}

// TurnsResult is what a run of the callers-in-turn program measured.
type TurnsResult struct {
	Result
	// PerCaller is the number of requests each caller completed.
	PerCaller []int
	// Elapsed is the time from the start of the callers to the end of the
	// last request.
	Elapsed time.Duration
}

// Mean returns the mean latency, or 0 if no request ran.
func (r TurnsResult) Mean() time.Duration {
	if len(r.Latency) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range r.Latency {
		sum += d
	}
	return sum / time.Duration(len(r.Latency))
}

// Throughput returns the requests completed per second.
func (r TurnsResult) Throughput() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(len(r.Latency)) / r.Elapsed.Seconds()
}

// RunTurns runs the callers-in-turn program and checks that every request
// returned sorted data.
func RunTurns(c TurnsConfig) (TurnsResult, error) {
	if c.Callers <= 0 || c.Size <= 0 || c.Duration <= 0 {
		return TurnsResult{}, fmt.Errorf("serverload: RunTurns: Callers, Size and Duration must be positive (got %d, %d, %v)",
			c.Callers, c.Size, c.Duration)
	}
	sort := func(x []int64) { slices.Sort(x) }
	if c.Pool != nil {
		sort = func(x []int64) { sortpar.Sort(x, par.WithPool(c.Pool)) }
	}
	var (
		mu  sync.Mutex
		lat []time.Duration
		bad atomic.Int64
		wg  sync.WaitGroup
	)
	res := TurnsResult{PerCaller: make([]int, c.Callers)}
	start := time.Now()
	deadline := start.Add(c.Duration)
	for k := range c.Callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(k), 13))
			xs := make([]int64, c.Size)
			var mine []time.Duration
			for time.Now().Before(deadline) {
				for i := range xs {
					xs[i] = rng.Int64()
				}
				t0 := time.Now()
				sort(xs)
				mine = append(mine, time.Since(t0))
				if !slices.IsSorted(xs) {
					bad.Add(1)
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			res.PerCaller[k] = len(mine)
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	slices.Sort(lat)
	res.Latency = lat
	if b := bad.Load(); b != 0 {
		return res, fmt.Errorf("serverload: RunTurns: %d sorts returned unsorted data", b)
	}
	return res, nil
}
