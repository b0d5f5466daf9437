package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/baseline"
	"github.com/gofork/gofork/par"
)

// The realworld suite: gofork inside programs that block, fork dynamic sets
// of tasks, stream, and serve requests of very different sizes (core's
// DESIGN.md, "Workers in real programs"; par's Group and streams). Each
// row's Go baseline is what a Go user writes today.
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
	register(&benchmark{
		name: "group", suite: suiteRealworld, order: 310,
		about:    "par.Group.Go of 1 M tasks of ~1 µs from one goroutine, then Wait; baseline: errgroup.Group",
		size:     func(quick bool) string { return fmt.Sprintf("%d tasks x %d steps", q(quick, rwGroupN), rwGroupSteps) },
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "errgroup.Group",
		cutoff:   "one task per Go call on both sides",
		setup:    func(v string, p int, quick bool) (*job, error) { return setupGroup(v, p, q(quick, rwGroupN)) },
	})
	register(&benchmark{
		name: "mapseq", suite: suiteRealworld, order: 320,
		about:    "par.MapSeq over a sequence of items of ~5 µs, results in order; baseline: a worker per core and a reorder buffer",
		size:     func(quick bool) string { return fmt.Sprintf("%d items x %d steps", q(quick, rwMapN), rwMapSteps) },
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "channel pipeline",
		cutoff:   "one item per task on both sides; window 4 per worker",
		setup:    func(v string, p int, quick bool) (*job, error) { return setupMapSeq(v, p, q(quick, rwMapN)) },
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

func setupGroup(variant string, p, n int) (*job, error) {
	out := make([]uint64, n)
	j := &job{
		reset: func() { clear(out) },
		verify: func() error {
			for k := range 16 {
				i := k * (n - 1) / 15
				if want := spin(rwGroupSteps, uint64(i)); out[i] != want {
					return fmt.Errorf("group: task %d computed %#x, want %#x", i, out[i], want)
				}
			}
			return nil
		},
	}
	task := func(i int) { out[i] = spin(rwGroupSteps, uint64(i)) }
	switch variant {
	case variantSerial:
		j.run = func() {
			for i := range n {
				task(i)
			}
		}
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() {
			g := par.NewGroup(par.WithPool(pool))
			for i := range n {
				g.Go(func() error { task(i); return nil })
			}
			if err := g.Wait(); err != nil {
				panic(err)
			}
		}
		j.close = pool.Close
	case variantBaseline:
		j.run = func() {
			var g errgroup.Group
			for i := range n {
				g.Go(func() error { task(i); return nil })
			}
			if err := g.Wait(); err != nil {
				panic(err)
			}
		}
	default:
		return nil, fmt.Errorf("group: no variant %q", variant)
	}
	return j, nil
}

func setupMapSeq(variant string, p, n int) (*job, error) {
	items := func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
	fn := func(i int) uint64 { return spin(rwMapSteps, uint64(i)) }
	var got, want uint64
	for i := range n {
		want = want*31 + fn(i) // order-sensitive: results out of order change it
	}
	j := &job{
		reset: func() { got = 0 },
		verify: func() error {
			if got != want {
				return fmt.Errorf("mapseq: order-sensitive checksum %#x, want %#x", got, want)
			}
			return nil
		},
	}
	switch variant {
	case variantSerial:
		j.run = func() {
			for i := range items {
				got = got*31 + fn(i)
			}
		}
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() {
			for r := range par.MapSeq(items, fn, par.WithPool(pool)) {
				got = got*31 + r
			}
		}
		j.close = pool.Close
	case variantBaseline:
		j.run = func() {
			for r := range baseline.Pipeline(items, fn, p, 4*p) {
				got = got*31 + r
			}
		}
	default:
		return nil, fmt.Errorf("mapseq: no variant %q", variant)
	}
	return j, nil
}
