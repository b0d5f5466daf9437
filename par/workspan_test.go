package par_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// spinWall busy-waits d of wall time and returns how long it took.
func spinWall(d time.Duration) time.Duration {
	start := time.Now()
	for time.Since(start) < d {
	}
	return time.Since(start)
}

// wallOracle is the parallelism of n leaves that may all run at once,
// from the leaves' own wall times. A leaf stalled on a shared machine
// lowers it; the meter takes such stalls off (core.MeasureWorkSpan), so
// the measured parallelism is at least about this.
func wallOracle(times []time.Duration) float64 {
	var sum, most time.Duration
	for _, t := range times {
		sum += t
		most = max(most, t)
	}
	return float64(sum) / float64(most)
}

func TestMeasureWorkSpanFor(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation makes every strand too slow for timed bounds")
	}
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	const n = 1024
	var err string
	for range 3 {
		times := make([]time.Duration, n)
		_, ws := core.MeasureWorkSpan(p, func(w *core.Worker) int {
			par.For(0, n, func(i int) { times[i] = spinWall(20 * time.Microsecond) }, par.Simple(1))
			return 0
		})
		// Simple(1) splits 1024 iterations into a tree of 1023 forks.
		if ws.Forks != n-1 {
			t.Fatalf("Forks = %d, want %d", ws.Forks, n-1)
		}
		got, oracle := ws.Parallelism(), wallOracle(times)
		if got >= min(300, 0.8*oracle) && got <= 1100 {
			return
		}
		err = "parallelism " + ftoa(got) + ", want 300..1100 (leaves' own times give " + ftoa(oracle) + ")"
		t.Log(err)
	}
	t.Fatal(err)
}

func TestMeasureWorkSpanGroup(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation makes every strand too slow for timed bounds")
	}
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	const n = 16
	var err string
	for range 3 {
		times := make([]time.Duration, n)
		_, ws := core.MeasureWorkSpan(p, func(w *core.Worker) int {
			g := par.NewGroup(par.WithPool(p))
			for i := range n {
				g.Go(func() error { times[i] = spinWall(time.Millisecond); return nil })
			}
			if err := g.Wait(); err != nil {
				t.Fatal(err)
			}
			return 0
		})
		if ws.Forks != n {
			t.Fatalf("Forks = %d, want %d", ws.Forks, n)
		}
		got, oracle := ws.Parallelism(), wallOracle(times)
		if got >= min(12, 0.8*oracle) && got <= 17 {
			return
		}
		err = "parallelism " + ftoa(got) + ", want 12..17 (leaves' own times give " + ftoa(oracle) + ")"
		t.Log(err)
	}
	t.Fatal(err)
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
