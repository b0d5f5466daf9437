package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
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
