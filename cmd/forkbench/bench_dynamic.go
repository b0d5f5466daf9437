package main

import (
	"fmt"
	"time"

	concpool "github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/baseline"
	"github.com/gofork/gofork/par"
)

// The realworld suite's rows for dynamic sets of tasks and streams: par.Group
// against errgroup and conc's pool, par.MapSeq against a channel pipeline and
// conc's stream (par's group.go and seq*.go).

// Variants of these rows with two Go baselines, which get a column each.
const (
	variantErrgroup = "errgroup" // errgroup.Group
	variantPipeline = "pipeline" // a worker per core and a reorder buffer (harness/baseline)
	variantConc     = "conc"     // sourcegraph/conc's pool or stream
)

// mapseqRows are the MapSeq rows: item sizes in spin steps of about 1.4 ns,
// and items (a serial run of 0.3-1 s).
var mapseqRows = []struct {
	name     string
	n, steps int
}{
	{"mapseq-0.4us", 1_000_000, 285},
	{"mapseq-1.6us", 250_000, 1140},
	{"mapseq-5us", rwMapN, rwMapSteps},
}

// rwLatencyN is the number of items of a latency run.
const rwLatencyN = 2000

func init() {
	q := func(quick bool, n int) int { return pick(quick, n, n/rwQuick) }
	register(&benchmark{
		name: "group", suite: suiteRealworld, order: 310,
		about:    "par.Group.Go of 1 M tasks of ~1 µs from one goroutine, then Wait; baseline: errgroup.Group",
		size:     func(quick bool) string { return fmt.Sprintf("%d tasks x %d steps", q(quick, rwGroupN), rwGroupSteps) },
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "errgroup.Group",
		cutoff:   "one task per Go call on both sides",
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupGroup(v, p, q(quick, rwGroupN), rwGroupSteps)
		},
	})
	register(&benchmark{
		name: "group-empty", suite: suiteRealworld, order: 311, kind: kindForkEverywhere,
		about: "par.Group.Go of 1 M empty tasks from one goroutine, then Wait: what the group costs a task; " +
			"baselines: errgroup.Group, conc's pool",
		size:     func(quick bool) string { return fmt.Sprintf("%d empty tasks", q(quick, rwGroupN)) },
		variants: []string{variantSerial, variantGofork, variantErrgroup, variantConc},
		note: "the time over the number of tasks is the cost of a task (Go, run, its share of Wait); " +
			"the serial row calls the empty function in a loop",
		baselineVariant: variantErrgroup,
		baseline:        "errgroup.Group (conc's pool in its own column)",
		cutoff:          "none: one task per Go call on every side",
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupGroup(v, p, q(quick, rwGroupN), 0)
		},
	})
	for i, row := range mapseqRows {
		register(&benchmark{
			name: row.name, suite: suiteRealworld, order: 320 + i,
			about: fmt.Sprintf("par.MapSeq over a sequence of items of ~%s, results in order; "+
				"baselines: a worker per core and a reorder buffer, conc's stream", row.name[len("mapseq-"):]),
			size: func(quick bool) string {
				return fmt.Sprintf("%d items x %d steps", q(quick, row.n), row.steps)
			},
			variants:        []string{variantSerial, variantGofork, variantPipeline, variantConc},
			baselineVariant: variantPipeline,
			baseline:        "channel pipeline (conc's stream in its own column)",
			cutoff:          "one call per item on every side; gofork's default window, the pipeline's 64 per worker",
			setup: func(v string, p int, quick bool) (*job, error) {
				return setupMapSeq(v, p, q(quick, row.n), row.steps)
			},
		})
	}
	for i, pct := range []int{50, 99} {
		register(&benchmark{
			name: fmt.Sprintf("mapseq-latency-p%d", pct), suite: suiteRealworld, order: 325 + i, kind: kindLatency,
			about: fmt.Sprintf("p%d time from a sequence yielding an item (and then waiting for its result) "+
				"to the consumer having the result, with par.MapSeq; baseline (serial row): a channel pipeline", pct),
			size: func(bool) string { return fmt.Sprintf("%d items, one at a time", rwLatencyN) },
			note: fmt.Sprintf("the time column is the items' p%d latency, not a run's time; "+
				"the serial row is the Go baseline, a channel pipeline", pct),
			variants:        []string{variantSerial, variantGofork},
			baselineVariant: variantSerial,
			baseline:        "channel pipeline",
			cutoff:          "one call per item on both sides",
			setup: func(v string, p int, _ bool) (*job, error) {
				return setupMapSeqLatency(v, p, float64(pct)/100)
			},
		})
	}
}

// setupGroup forks n tasks of steps spin steps each (0: empty tasks) from
// one goroutine and waits for them.
func setupGroup(variant string, p, n, steps int) (*job, error) {
	out := make([]uint64, n)
	j := &job{
		reset: func() { clear(out) },
		verify: func() error {
			for k := range 16 {
				i := k * (n - 1) / 15
				if want := spin(steps, uint64(i)) + 1; out[i] != want {
					return fmt.Errorf("group: task %d computed %#x, want %#x", i, out[i], want)
				}
			}
			return nil
		},
	}
	task := func(i int) { out[i] = spin(steps, uint64(i)) + 1 }
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
	case variantBaseline, variantErrgroup:
		j.run = func() {
			var g errgroup.Group
			for i := range n {
				g.Go(func() error { task(i); return nil })
			}
			if err := g.Wait(); err != nil {
				panic(err)
			}
		}
	case variantConc:
		j.run = func() {
			cp := concpool.New()
			for i := range n {
				cp.Go(func() { task(i) })
			}
			cp.Wait()
		}
	default:
		return nil, fmt.Errorf("group: no variant %q", variant)
	}
	return j, nil
}

// setupMapSeq maps n items of steps spin steps each in order, checking an
// order-sensitive checksum.
func setupMapSeq(variant string, p, n, steps int) (*job, error) {
	items := func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
	fn := func(i int) uint64 { return spin(steps, uint64(i)) }
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
	case variantPipeline:
		j.run = func() {
			for r := range baseline.Pipeline(items, fn, p, 64*p) {
				got = got*31 + r
			}
		}
	case variantConc:
		j.run = func() { baseline.ConcStream(items, fn, p, func(r uint64) { got = got*31 + r }) }
	default:
		return nil, fmt.Errorf("mapseq: no variant %q", variant)
	}
	return j, nil
}

// setupMapSeqLatency runs a sequence that yields one item at a time and
// waits for its result before the next (a server reading one request at a
// time); a run reports the items' latency at quantile q, from the yield to
// the consumer having the result.
func setupMapSeqLatency(variant string, p int, q float64) (*job, error) {
	fn := func(i int) uint64 { return spin(100, uint64(i)) }
	var lat []time.Duration
	var stream func(items func(func(int) bool)) func(func(uint64) bool)
	var pool *core.Pool
	switch variant {
	case variantSerial:
		stream = func(items func(func(int) bool)) func(func(uint64) bool) {
			return baseline.Pipeline(items, fn, p, 64*p)
		}
	case variantGofork:
		pool = core.New(core.WithWorkers(p))
		stream = func(items func(func(int) bool)) func(func(uint64) bool) {
			return par.MapSeq(items, fn, par.WithPool(pool))
		}
	default:
		return nil, fmt.Errorf("mapseq-latency: no variant %q", variant)
	}
	var bad int
	j := &job{
		reset: func() { lat, bad = lat[:0], 0 },
		verify: func() error {
			if len(lat) != rwLatencyN || bad != 0 {
				return fmt.Errorf("mapseq-latency: %d results, %d wrong, want %d right", len(lat), bad, rwLatencyN)
			}
			return nil
		},
		measured: func() time.Duration { return latencyQuantile(lat, q) },
	}
	if pool != nil {
		j.close = pool.Close
	}
	j.run = func() {
		got := make(chan struct{})
		var sent time.Time
		items := func(yield func(int) bool) {
			for i := range rwLatencyN {
				sent = time.Now()
				if !yield(i) {
					return
				}
				<-got // the next request comes once this one is answered
			}
		}
		k := 0
		for r := range stream(items) {
			lat = append(lat, time.Since(sent))
			if r != fn(k) {
				bad++
			}
			k++
			got <- struct{}{}
		}
	}
	return j, nil
}
