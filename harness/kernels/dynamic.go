package kernels

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

// MapSeqSizes are the item sizes of the MapSeq benchmarks: Spin steps of
// about 1.4 ns each, and the number of items (a serial run of 0.3-0.5 s).
var MapSeqSizes = []struct {
	Item     string // the item's time, for names
	N, Steps int
}{
	{"0.4us", 1_000_000, 285},
	{"1.6us", 250_000, 1140},
	{"5us", 100_000, 3500},
}

// MapSeqLatencyN is the number of items of a latency run; MapSeqLatencySteps
// the Spin steps of each.
const (
	MapSeqLatencyN     = 2000
	MapSeqLatencySteps = 100
)

func init() {
	q := func(quick Scale, n int) int { return pick(quick, n, n/rwQuick) }
	add(&Kernel{
		Name: "group", Suite: suiteRealworld, Order: 310,
		About:    "par.Group.Go of 1 M tasks of ~1 µs from one goroutine, then Wait; baseline: errgroup.Group",
		Size:     func(quick Scale) string { return fmt.Sprintf("%d tasks x %d steps", q(quick, GroupN), GroupSteps) },
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "errgroup.Group",
		Cutoff:   "one task per Go call on both sides",
		Setup: func(v string, p int, quick Scale) (*Job, error) {
			return setupGroup(v, p, q(quick, GroupN), GroupSteps)
		},
	})
	add(&Kernel{
		Name: "group-empty", Suite: suiteRealworld, Order: 311, Kind: ForkEverywhere,
		About: "par.Group.Go of 1 M empty tasks from one goroutine, then Wait: what the group costs a task; " +
			"baselines: errgroup.Group, conc's pool",
		Size:     func(quick Scale) string { return fmt.Sprintf("%d empty tasks", q(quick, GroupN)) },
		Variants: []string{Serial, Gofork, Errgroup, Conc},
		Note: "the time over the number of tasks is the cost of a task (Go, run, its share of Wait); " +
			"the serial row calls the empty function in a loop",
		BaselineVariant: Errgroup,
		Baseline:        "errgroup.Group (conc's pool in its own column)",
		Cutoff:          "none: one task per Go call on every side",
		Setup: func(v string, p int, quick Scale) (*Job, error) {
			return setupGroup(v, p, q(quick, GroupN), 0)
		},
	})
	for i, row := range MapSeqSizes {
		add(&Kernel{
			Name: "mapseq-" + row.Item, Suite: suiteRealworld, Order: 320 + i,
			About: fmt.Sprintf("par.MapSeq over a sequence of items of ~%s, results in order; "+
				"baselines: a worker per core and a reorder buffer, conc's stream", row.Item),
			Size: func(quick Scale) string {
				return fmt.Sprintf("%d items x %d steps", q(quick, row.N), row.Steps)
			},
			Variants:        []string{Serial, Gofork, Pipeline, Conc},
			BaselineVariant: Pipeline,
			Baseline:        "channel pipeline (conc's stream in its own column)",
			Cutoff:          "one call per item on every side; gofork's default window, the pipeline's 64 per worker",
			Setup: func(v string, p int, quick Scale) (*Job, error) {
				return setupMapSeq(v, p, q(quick, row.N), row.Steps)
			},
		})
	}
	for i, pct := range []int{50, 99} {
		add(&Kernel{
			Name: fmt.Sprintf("mapseq-latency-p%d", pct), Suite: suiteRealworld, Order: 325 + i, Kind: Latency,
			About: fmt.Sprintf("p%d time from a sequence yielding an item (and then waiting for its result) "+
				"to the consumer having the result, with par.MapSeq; baseline (serial row): a channel pipeline", pct),
			Size: func(Scale) string { return fmt.Sprintf("%d items, one at a time", MapSeqLatencyN) },
			Note: fmt.Sprintf("the time column is the items' p%d latency, not a run's time; "+
				"the serial row is the Go baseline, a channel pipeline", pct),
			Variants:        []string{Serial, Gofork},
			BaselineVariant: Serial,
			Baseline:        "channel pipeline",
			Cutoff:          "one call per item on both sides",
			Setup: func(v string, p int, _ Scale) (*Job, error) {
				return setupMapSeqLatency(v, p, float64(pct)/100)
			},
		})
	}
}

// setupGroup forks n tasks of steps spin steps each (0: empty tasks) from
// one goroutine and waits for them.
func setupGroup(variant string, p, n, steps int) (*Job, error) {
	out := make([]uint64, n)
	j := &Job{
		Reset: func() { clear(out) },
		Verify: func() error {
			for k := range 16 {
				i := k * (n - 1) / 15
				if want := Spin(steps, uint64(i)) + 1; out[i] != want {
					return fmt.Errorf("group: task %d computed %#x, want %#x", i, out[i], want)
				}
			}
			return nil
		},
	}
	task := func(i int) { out[i] = Spin(steps, uint64(i)) + 1 }
	switch variant {
	case Serial:
		j.Run = func() {
			for i := range n {
				task(i)
			}
		}
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		j.Run = func() {
			g := par.NewGroup(par.WithPool(pool))
			for i := range n {
				g.Go(func() error { task(i); return nil })
			}
			if err := g.Wait(); err != nil {
				panic(err)
			}
		}
		j.Close = pool.Close
	case Baseline, Errgroup:
		j.Run = func() {
			var g errgroup.Group
			for i := range n {
				g.Go(func() error { task(i); return nil })
			}
			if err := g.Wait(); err != nil {
				panic(err)
			}
		}
	case Conc:
		j.Run = func() {
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
func setupMapSeq(variant string, p, n, steps int) (*Job, error) {
	items := func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
	fn := func(i int) uint64 { return Spin(steps, uint64(i)) }
	var got, want uint64
	for i := range n {
		want = want*31 + fn(i) // order-sensitive: results out of order change it
	}
	j := &Job{
		Reset: func() { got = 0 },
		Verify: func() error {
			if got != want {
				return fmt.Errorf("mapseq: order-sensitive checksum %#x, want %#x", got, want)
			}
			return nil
		},
	}
	switch variant {
	case Serial:
		j.Run = func() {
			for i := range items {
				got = got*31 + fn(i)
			}
		}
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		j.Run = func() {
			for r := range par.MapSeq(items, fn, par.WithPool(pool)) {
				got = got*31 + r
			}
		}
		j.Close = pool.Close
	case Pipeline:
		j.Run = func() {
			for r := range baseline.Pipeline(items, fn, p, 64*p) {
				got = got*31 + r
			}
		}
	case Conc:
		j.Run = func() { baseline.ConcStream(items, fn, p, func(r uint64) { got = got*31 + r }) }
	default:
		return nil, fmt.Errorf("mapseq: no variant %q", variant)
	}
	return j, nil
}

// setupMapSeqLatency runs a sequence that yields one item at a time and
// waits for its result before the next (a server reading one request at a
// time); a run reports the items' latency at quantile q, from the yield to
// the consumer having the result.
func setupMapSeqLatency(variant string, p int, q float64) (*Job, error) {
	fn := func(i int) uint64 { return Spin(MapSeqLatencySteps, uint64(i)) }
	var lat []time.Duration
	var stream func(items func(func(int) bool)) func(func(uint64) bool)
	var pool *core.Pool
	switch variant {
	case Serial:
		stream = func(items func(func(int) bool)) func(func(uint64) bool) {
			return baseline.Pipeline(items, fn, p, 64*p)
		}
	case Gofork:
		pool = core.New(core.WithWorkers(p))
		stream = func(items func(func(int) bool)) func(func(uint64) bool) {
			return par.MapSeq(items, fn, par.WithPool(pool))
		}
	default:
		return nil, fmt.Errorf("mapseq-latency: no variant %q", variant)
	}
	var bad int
	j := &Job{
		Reset: func() { lat, bad = lat[:0], 0 },
		Verify: func() error {
			if len(lat) != MapSeqLatencyN || bad != 0 {
				return fmt.Errorf("mapseq-latency: %d results, %d wrong, want %d right", len(lat), bad, MapSeqLatencyN)
			}
			return nil
		},
		Measured: func() time.Duration { return latencyQuantile(lat, q) },
	}
	if pool != nil {
		j.Close = pool.Close
	}
	j.Run = func() {
		got := make(chan struct{})
		var sent time.Time
		items := func(yield func(int) bool) {
			for i := range MapSeqLatencyN {
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
