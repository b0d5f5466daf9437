package main

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

// The realworld suite: gofork inside programs that block, fork dynamic sets
// of tasks, stream (bench_dynamic.go), and serve requests of very different
// sizes (core's DESIGN.md, "Workers in real programs"; par's Group and
// streams). Each row's Go baseline is what a Go user writes today.
const suiteRealworld = "realworld"

const (
	rwBlockN, rwBlockNap   = 64, 10 * time.Millisecond // blocking: items, and the wait of each
	rwGroupN, rwGroupSteps = 1_000_000, 700            // group: tasks of ~1 µs
	rwMapN, rwMapSteps     = 200_000, 3500             // mapseq: items of ~5 µs
	rwBigN, rwSmallN       = 30_000_000, 20_000        // server: the big sort and each small one
	rwSmallEvery           = 2 * time.Millisecond      // server: a small sort this often
	rwQuick                = 10                        // -quick divides counts by this
)

func init() {
	q := func(quick bool, n int) int { return pick(quick, n, n/rwQuick) }
	register(&benchmark{
		name: "blocking", suite: suiteRealworld, order: 300, kind: kindLatency,
		about: "par.ForEach whose iterations block 10 ms (a network call) under core.Blocking; baseline: a goroutine per item",
		size: func(quick bool) string {
			return fmt.Sprintf("%d items x %v", rwBlockN, pick(quick, rwBlockNap, rwBlockNap/rwQuick))
		},
		note: "a run is mostly waiting: the serial program sleeps item after item; P workers alone would take " +
			"items x wait / P; spares stand in for blocked workers, so gofork overlaps every wait as goroutines do",
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "a goroutine per item",
		cutoff:   "one item per task on both sides",
		setup:    setupBlocking,
	})
	for i, pct := range []int{50, 99} {
		register(&benchmark{
			name: fmt.Sprintf("server-p%d", pct), suite: suiteRealworld, order: 330 + i, kind: kindLatency,
			about: fmt.Sprintf("p%d latency of 20 k-element sorts submitted every 2 ms beside a 30 M-element sort; "+
				"baseline (serial row): slices.Sort in goroutines", pct),
			size: func(quick bool) string {
				return fmt.Sprintf("big n=%d, small n=%d every %v", q(quick, rwBigN), rwSmallN, rwSmallEvery)
			},
			note: fmt.Sprintf("the time column is the small sorts' p%d latency, not a run's time; "+
				"the serial row is the Go baseline, every sort a slices.Sort in its own goroutine", pct),
			variants:        []string{variantSerial, variantGofork},
			baselineVariant: variantSerial,
			baseline:        "slices.Sort in goroutines",
			cutoff:          "sortpar's own; slices.Sort serial",
			setup: func(v string, p int, quick bool) (*job, error) {
				return setupServer(v, p, q(quick, rwBigN), float64(pct)/100)
			},
		})
	}
}

func setupBlocking(variant string, p int, quick bool) (*job, error) {
	nap := pick(quick, rwBlockNap, rwBlockNap/rwQuick)
	done := make([]atomic.Int32, rwBlockN)
	items := make([]int, rwBlockN)
	j := &job{
		reset: func() {
			for i := range done {
				done[i].Store(0)
			}
		},
		verify: func() error { return onceEach("blocking", done) },
	}
	call := func(i int) { time.Sleep(nap); done[i].Add(1) }
	switch variant {
	case variantSerial:
		j.run = func() {
			for i := range rwBlockN {
				call(i)
			}
		}
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() {
			par.ForEach(items, func(i int, _ *int) { core.Blocking(func() { call(i) }) }, par.WithPool(pool))
		}
		j.close = pool.Close
	case variantBaseline:
		j.run = func() {
			var wg sync.WaitGroup
			for i := range rwBlockN {
				wg.Add(1)
				go func() { defer wg.Done(); call(i) }()
			}
			wg.Wait()
		}
	default:
		return nil, fmt.Errorf("blocking: no variant %q", variant)
	}
	return j, nil
}

// onceEach checks that every item was done exactly once.
func onceEach(name string, done []atomic.Int32) error {
	for i := range done {
		if c := done[i].Load(); c != 1 {
			return fmt.Errorf("%s: item %d done %d times", name, i, c)
		}
	}
	return nil
}

// setupServer is the fair-service scenario: one request sorts a big slice
// while small requests, one every rwSmallEvery, each sort a small one on
// the same pool; a run reports the small requests' latency at quantile q.
func setupServer(variant string, p, bigN int, q float64) (*job, error) {
	in := make([]int, bigN)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range in {
		in[i] = rng.Int()
	}
	big := make([]int, bigN)
	var lat []time.Duration
	var bad atomic.Int64
	var sort func([]int)
	var pool *core.Pool
	switch variant {
	case variantSerial:
		sort = func(x []int) { slices.Sort(x) }
	case variantGofork:
		pool = core.New(core.WithWorkers(p))
		sort = func(x []int) { sortpar.Sort(x, par.WithPool(pool)) }
	default:
		return nil, fmt.Errorf("server: no variant %q", variant)
	}
	j := &job{
		reset: func() { copy(big, in); lat = lat[:0]; bad.Store(0) },
		verify: func() error {
			if !slices.IsSorted(big) {
				return fmt.Errorf("server: the big sort is not sorted")
			}
			if b := bad.Load(); b != 0 {
				return fmt.Errorf("server: %d small sorts are not sorted", b)
			}
			if len(lat) == 0 {
				return fmt.Errorf("server: no small sort ran beside the big one")
			}
			return nil
		},
		measured: func() time.Duration { return quantile(lat, q) },
	}
	if pool != nil {
		j.close = pool.Close
	}
	j.run = func() {
		bigDone := make(chan struct{})
		go func() { sort(big); close(bigDone) }()
		var mu sync.Mutex
		var wg sync.WaitGroup
		tick := time.NewTicker(rwSmallEvery)
		defer tick.Stop()
		for k := uint64(0); ; k++ {
			select {
			case <-bigDone:
				wg.Wait()
				return
			case <-tick.C:
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(k, 7))
				xs := make([]int, rwSmallN)
				for i := range xs {
					xs[i] = r.Int()
				}
				start := time.Now()
				sort(xs)
				d := time.Since(start)
				if !slices.IsSorted(xs) {
					bad.Add(1)
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}()
		}
	}
	return j, nil
}
