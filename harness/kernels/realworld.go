package kernels

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// The realworld suite: gofork inside programs that block, fork dynamic sets
// of tasks, stream, and serve requests of very different
// sizes (core's DESIGN.md, "Workers in real programs"; par's Group and
// streams). Each row's Go baseline is what a Go user writes today.
const suiteRealworld = "realworld"

const (
	BlockN, BlockNap   = 64, 10 * time.Millisecond // blocking: items, and the wait of each
	GroupN, GroupSteps = 1_000_000, 700            // group: tasks of ~1 µs
	BigN, SmallN       = 30_000_000, 20_000        // server: the big sort and each small one
	SmallEvery         = 2 * time.Millisecond      // server: a small sort this often
	rwQuick            = 10                        // the Quick scale divides counts by this
)

func init() {
	add(&Kernel{
		Name: "blocking", Suite: suiteRealworld, Order: 300, Kind: Latency,
		About: "par.ForEach whose iterations block 10 ms (a network call) under core.Blocking; baseline: a goroutine per item",
		Size: func(quick Scale) string {
			return fmt.Sprintf("%d items x %v", BlockN, pick(quick, BlockNap, BlockNap/rwQuick))
		},
		Note: "a run is mostly waiting: the serial program sleeps item after item; P workers alone would take " +
			"items x wait / P; spares stand in for blocked workers, so gofork overlaps every wait as goroutines do",
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "a goroutine per item",
		Cutoff:   "one item per task on both sides",
		Setup:    setupBlocking,
	})
}

func setupBlocking(variant string, p int, quick Scale) (*Job, error) {
	nap := pick(quick, BlockNap, BlockNap/rwQuick)
	done := make([]atomic.Int32, BlockN)
	items := make([]int, BlockN)
	j := &Job{
		Reset: func() {
			for i := range done {
				done[i].Store(0)
			}
		},
		Verify: func() error { return onceEach("blocking", done) },
	}
	call := func(i int) { time.Sleep(nap); done[i].Add(1) }
	switch variant {
	case Serial:
		j.Run = func() {
			for i := range BlockN {
				call(i)
			}
		}
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		j.Run = func() {
			par.ForEach(items, func(i int, _ *int) { core.Blocking(func() { call(i) }) }, par.WithPool(pool))
		}
		j.Close = pool.Close
	case Baseline:
		j.Run = func() {
			var wg sync.WaitGroup
			for i := range BlockN {
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
