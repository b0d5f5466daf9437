package forktest

import (
	"runtime"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/serverload"
)

// latencyBound is the root-latency bound of core's DESIGN.md ("Fair service
// for roots"): a caller beside a big job waits no longer than this beyond
// what the same program with plain goroutines waits.
const latencyBound = 20 * time.Millisecond

// latencyNoise is the factor TestCallerLatencyBound allows for a loaded
// machine: the bound is on the longest of tens of small sorts, and a
// processor shared with other jobs can stall any of them for a few
// milliseconds.
const latencyNoise = 3

// TestCallerLatencyBound runs the sequential-caller program of package
// serverload: one goroutine runs big jobs back to back while another sorts
// a 20 k-element slice with sortpar, sleeps 2 ms and repeats. It runs it at
// GOMAXPROCS 1 and 2, on a pool that follows GOMAXPROCS and on a pool of
// one worker, beside sortpar.Sorts of 4 M elements (a fresh clone each
// round) and beside Joins whose leaves spin 300 ms without a poll point.
// The same program with slices.Sort and serial big
// jobs, run in the same test, is the baseline: the longest small sort must
// stay within latencyNoise x (latencyBound + the baseline's longest). A
// caller that waits for a whole leaf, or for a whole big job, breaks it by
// far.
//
// Without the gofork_bounds build tag it asserts only that every caller is
// served and that Stats.MaxRootWait fits in a caller's time; the latency
// bound, a time, is checked under that tag (CI's benchmark step). The bound
// compares with a baseline measured in the same run, so that a machine busy
// with other work raises the bound with the baseline, and allows a generous
// factor. The test skips under -short and the race detector, and takes
// about 6 s.
func TestCallerLatencyBound(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a latency bound: runs without -short and without the race detector")
	}
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range []struct {
		name           string
		procs, workers int // workers 0: the pool follows GOMAXPROCS
		job            serverload.Job
		size, rounds   int
	}{
		{"P=1/sort", 1, 0, serverload.Sort, 4 << 20, 2},
		{"P=2/sort", 2, 0, serverload.Sort, 4 << 20, 2},
		{"P=1/leaves", 1, 0, serverload.Leaves, 2, 1},
		{"P=2/leaves", 2, 0, serverload.Leaves, 2, 1},
		{"P=2/one-worker/leaves", 2, 1, serverload.Leaves, 2, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			runtime.GOMAXPROCS(c.procs)
			cfg := serverload.Config{
				Job: c.job, Size: c.size, Rounds: c.rounds, Leaf: 300 * time.Millisecond,
				Small: 20_000, Callers: 1, Every: 2 * time.Millisecond,
			}
			base, err := serverload.Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var pool *core.Pool
			if c.workers > 0 {
				pool = core.New(core.WithWorkers(c.workers))
			} else {
				pool = core.New()
			}
			cfg.Pool = pool
			got, err := serverload.Run(cfg)
			stats := pool.Stats()
			pool.Close()
			if err != nil {
				t.Fatal(err)
			}
			if checkBounds && len(base.Latency) < 5 {
				t.Skipf("only %d small sorts ran beside the baseline's big jobs: too few to judge the machine", len(base.Latency))
			}
			if len(got.Latency) == 0 {
				t.Fatal("no small sort returned while the big jobs ran")
			}
			t.Logf("small sorts: gofork p50 %v, p99 %v, max %v (%d); goroutines p50 %v, p99 %v, max %v (%d); worst root wait %v",
				got.Quantile(0.5), got.Quantile(0.99), got.Max(), len(got.Latency),
				base.Quantile(0.5), base.Quantile(0.99), base.Max(), len(base.Latency), stats.MaxRootWait)
			if bound := latencyNoise * (latencyBound + base.Max()); checkBounds && got.Max() > bound {
				t.Errorf("a small sort took %v beside the big job, more than %d x (%v + the goroutine baseline's longest, %v)",
					got.Max(), latencyNoise, latencyBound, base.Max())
			}
			// Every root's wait is part of its caller's time: a small
			// sort's, or the big jobs' (whose roots count in MaxRootWait too,
			// and may wait for a sleeping worker to wake).
			if longest := max(got.Max(), got.Big); stats.MaxRootWait > longest {
				t.Errorf("Stats.MaxRootWait %v is longer than any caller's time: the longest small sort took %v, the big jobs %v", stats.MaxRootWait, got.Max(), got.Big)
			}
		})
	}
}
