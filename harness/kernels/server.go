package kernels

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/serverload"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

// The realworld suite's server rows: small requests beside a big one on the
// same pool (core's DESIGN.md, "Fair service for roots"), their latency
// against the same program on plain goroutines. server-p50/p99 start a
// goroutine per request; server-seq-p50/p99 are the sequential-caller
// program of harness/serverload, one request handler sorting one request
// after another. server-turns-p50/p99/mean are serverload's callers-in-turn
// program (core's DESIGN.md, "Callers served in turn"): 8 handlers sorting
// 200 k int64 back to back, whose p99 over their mean is how evenly the
// pool serves them (target <= 2.5). Beside its time every server row
// reports the goroutines its program leaves running, right after a run and
// once idle, and server-turns its p99/mean and requests per second.

func init() {
	q := func(quick Scale, n int) int { return pick(quick, n, n/rwQuick) }
	for k, row := range []struct {
		name, about, size, note, baseline string
		setup                             func(variant string, p, bigN int, q float64) (*Job, error)
	}{
		{"server", "20 k-element sorts submitted every 2 ms", "",
			"every sort a slices.Sort in its own goroutine", "slices.Sort in goroutines", setupServer},
		{"server-seq", "20 k-element sorts from one handler, one after another 2 ms apart", ", one caller",
			"the same program with slices.Sort", "slices.Sort, same goroutines", setupServerSeq},
	} {
		for i, pct := range []int{50, 99} {
			add(&Kernel{
				Name: fmt.Sprintf("%s-p%d", row.name, pct), Suite: suiteRealworld, Order: 330 + 2*k + i, Kind: Latency,
				About: fmt.Sprintf("p%d latency of %s beside a 30 M-element sort; baseline (serial row): %s", pct, row.about, row.baseline),
				Size: func(quick Scale) string {
					return fmt.Sprintf("big n=%d, small n=%d every %v%s", q(quick, BigN), SmallN, SmallEvery, row.size)
				},
				Note: fmt.Sprintf("the time column is the small sorts' p%d latency, not a run's time; "+
					"the serial row is the Go baseline, %s", pct, row.note),
				Variants:        []string{Serial, Gofork},
				BaselineVariant: Serial,
				Baseline:        row.baseline,
				Cutoff:          "sortpar's own; slices.Sort serial",
				Setup: func(v string, p int, quick Scale) (*Job, error) {
					return row.setup(v, p, q(quick, BigN), float64(pct)/100)
				},
			})
		}
	}
}

func init() {
	for i, q := range []struct {
		name string
		of   func(serverload.TurnsResult) time.Duration
	}{
		{"p50", func(r serverload.TurnsResult) time.Duration { return r.Quantile(0.5) }},
		{"p99", func(r serverload.TurnsResult) time.Duration { return r.Quantile(0.99) }},
		{"mean", func(r serverload.TurnsResult) time.Duration { return r.Mean() }},
	} {
		add(&Kernel{
			Name: "server-turns-" + q.name, Suite: suiteRealworld, Order: 340 + i, Kind: Latency,
			About: fmt.Sprintf("%s latency of %d callers each sorting %d int64 back to back; baseline (serial row): slices.Sort on the same goroutines",
				q.name, rwTurnsCallers, rwTurnsN),
			Size: func(quick Scale) string {
				return fmt.Sprintf("%d callers, n=%d, for %v", rwTurnsCallers, rwTurnsN, pick(quick, rwTurnsFor, rwTurnsFor/rwQuick))
			},
			Note: "the time column is the requests' " + q.name + " latency, not a run's time; p99 over mean is how evenly " +
				"the callers are served; the serial row is the Go baseline, slices.Sort on each caller's goroutine",
			Variants:        []string{Serial, Gofork},
			BaselineVariant: Serial,
			Baseline:        "slices.Sort, same goroutines",
			Cutoff:          "sortpar's own; slices.Sort serial",
			Setup: func(v string, p int, quick Scale) (*Job, error) {
				return setupServerTurns(v, p, pick(quick, rwTurnsFor, rwTurnsFor/rwQuick), q.of)
			},
		})
	}
}

// The callers-in-turn rows' program.
const (
	rwTurnsCallers = 8
	rwTurnsN       = 200_000
	rwTurnsFor     = 3 * time.Second
)

// serverloadPool is the pool a serverload program's variant runs on: none
// for Serial (serverload runs its goroutine baseline), a new pool of p workers,
// closed by j, for Gofork. Either way j reports the goroutines the program
// leaves (serverMetrics).
func serverloadPool(name, variant string, p int, j *Job) (*core.Pool, error) {
	base := runtime.NumGoroutine()
	switch variant {
	case Serial:
		serverMetrics(j, base, nil)
		return nil, nil
	case Gofork:
		pool := newServerPool(p)
		j.Close = pool.Close
		serverMetrics(j, base, pool)
		return pool, nil
	}
	return nil, fmt.Errorf("%s: no variant %q", name, variant)
}

// serverKeepAlive is the keep-alive of the server rows' pools
// (core.WithKeepAlive): short, so that the goroutines a pool gives back
// once idle are counted a moment after each run. A server's pool has the
// same behaviour with core.DefaultKeepAlive, seconds later.
const serverKeepAlive = 100 * time.Millisecond

// newServerPool returns the pool of p workers a server row's gofork
// variant runs on.
func newServerPool(p int) *core.Pool {
	return core.New(core.WithWorkers(p), core.WithKeepAlive(serverKeepAlive))
}

// serverMetrics sets j.Metrics to report the goroutines the program has
// running beyond the base it was set up beside: goroutines-after-run, as
// the run returns, and goroutines-after-idle, once they are down to what
// the program keeps (one for a pool, its governor; none for the goroutines
// baseline, pool nil, whose callers may still be on their way out as the
// run returns) or after 3 s, whichever comes first.
func serverMetrics(j *Job, base int, pool *core.Pool) {
	keep := 0
	if pool != nil {
		keep = 1
	}
	j.Metrics = func() map[string]float64 {
		m := map[string]float64{"goroutines-after-run": float64(runtime.NumGoroutine() - base)}
		deadline := time.Now().Add(3 * time.Second)
		n := runtime.NumGoroutine() - base
		for n > keep && time.Now().Before(deadline) {
			time.Sleep(serverKeepAlive / 4)
			n = runtime.NumGoroutine() - base
		}
		m["goroutines-after-idle"] = float64(n)
		return m
	}
}

// setupServerTurns is the callers-in-turn program (harness/serverload):
// rwTurnsCallers goroutines sort rwTurnsN int64 each, back to back, for
// d; a run reports of(its result).
func setupServerTurns(variant string, p int, d time.Duration, of func(serverload.TurnsResult) time.Duration) (*Job, error) {
	cfg := serverload.TurnsConfig{Callers: rwTurnsCallers, Size: rwTurnsN, Duration: d}
	j := &Job{}
	var err error
	if cfg.Pool, err = serverloadPool("server-turns", variant, p, j); err != nil {
		return nil, err
	}
	var res serverload.TurnsResult
	j.Run = func() { res, err = serverload.RunTurns(cfg) }
	goroutines := j.Metrics
	j.Metrics = func() map[string]float64 {
		m := goroutines()
		if mean := res.Mean(); mean > 0 {
			m["p99/mean"] = float64(res.Quantile(0.99)) / float64(mean)
		}
		m["req/s"] = res.Throughput()
		return m
	}
	j.Verify = func() error {
		if err == nil && len(res.Latency) == 0 {
			return fmt.Errorf("server-turns: no request completed")
		}
		return err
	}
	j.Measured = func() time.Duration { return of(res) }
	return j, nil
}

// setupServerSeq is the sequential-caller program (harness/serverload):
// one goroutine sorts a fresh clone of a big slice while one request
// handler sorts a small one, sleeps SmallEvery and repeats; a run reports
// the small requests' latency at quantile q.
func setupServerSeq(variant string, p, bigN int, q float64) (*Job, error) {
	cfg := serverload.Config{
		Job: serverload.Sort, Size: bigN, Rounds: 1,
		Small: SmallN, Callers: 1, Every: SmallEvery,
	}
	j := &Job{}
	var err error
	if cfg.Pool, err = serverloadPool("server-seq", variant, p, j); err != nil {
		return nil, err
	}
	var res serverload.Result
	j.Run = func() { res, err = serverload.Run(cfg) }
	j.Verify = func() error {
		if err == nil && len(res.Latency) == 0 {
			return fmt.Errorf("server-seq: no small sort ran beside the big one")
		}
		return err
	}
	j.Measured = func() time.Duration { return res.Quantile(q) }
	return j, nil
}

// BigInput returns the big request's input: n random ints.
func BigInput(n int) []int {
	in := make([]int, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range in {
		in[i] = rng.Int()
	}
	return in
}

// Beside is the fair-service scenario: it sorts big with sort while small
// requests, one every SmallEvery from the first tick on, each sort SmallN
// fresh random ints with sort in a goroutine of their own. It returns the
// small sorts' latencies, in no order, how many small sorts were not
// sorted after, and the big sort's time.
func Beside(sort func([]int), big []int) (lat []time.Duration, unsorted int, bigTime time.Duration) {
	bigDone := make(chan time.Duration)
	go func() {
		start := time.Now()
		sort(big)
		bigDone <- time.Since(start)
	}()
	var mu sync.Mutex
	var wg sync.WaitGroup
	tick := time.NewTicker(SmallEvery)
	defer tick.Stop()
	for k := uint64(0); ; k++ {
		select {
		case bigTime = <-bigDone:
			wg.Wait()
			return lat, unsorted, bigTime
		case <-tick.C:
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(k, 3))
			xs := make([]int, SmallN)
			for i := range xs {
				xs[i] = r.Int()
			}
			start := time.Now()
			sort(xs)
			d := time.Since(start)
			ok := slices.IsSorted(xs)
			mu.Lock()
			lat = append(lat, d)
			if !ok {
				unsorted++
			}
			mu.Unlock()
		}()
	}
}

// setupServer is the fair-service scenario (Beside); a run reports the
// small requests' latency at quantile q.
func setupServer(variant string, p, bigN int, q float64) (*Job, error) {
	in := BigInput(bigN)
	big := make([]int, bigN)
	var lat []time.Duration
	var bad int
	var sort func([]int)
	var pool *core.Pool
	base := runtime.NumGoroutine()
	switch variant {
	case Serial:
		sort = func(x []int) { slices.Sort(x) }
	case Gofork:
		pool = newServerPool(p)
		sort = func(x []int) { sortpar.Sort(x, par.WithPool(pool)) }
	default:
		return nil, fmt.Errorf("server: no variant %q", variant)
	}
	j := &Job{
		Reset: func() { copy(big, in) },
		Run:   func() { lat, bad, _ = Beside(sort, big) },
		Verify: func() error {
			if !slices.IsSorted(big) {
				return fmt.Errorf("server: the big sort is not sorted")
			}
			if bad != 0 {
				return fmt.Errorf("server: %d small sorts are not sorted", bad)
			}
			if len(lat) == 0 {
				return fmt.Errorf("server: no small sort ran beside the big one")
			}
			return nil
		},
		Measured: func() time.Duration { return latencyQuantile(lat, q) }, // before verify: no small sort is verify's error (0 here)
	}
	if pool != nil {
		j.Close = pool.Close
	}
	serverMetrics(j, base, pool)
	return j, nil
}

// latencyQuantile sorts a run's latencies and returns their q-quantile, or
// 0 if there are none.
func latencyQuantile(lat []time.Duration, q float64) time.Duration {
	slices.Sort(lat)
	return serverload.Result{Latency: lat}.Quantile(q)
}
