package gofork_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/serverload"
)

// Benchmarks of what a caller waits for a root (core's DESIGN.md, "Fair
// service for roots"): the sequential-caller server program beside big
// jobs, and the cost of a Run from outside itself.

// BenchmarkRootLatency runs the program of package serverload: one
// goroutine runs big jobs back to back (sortpar.Sort of 30 M ints on a
// fresh clone, three times; a par.For and a reduce.Reduce of 20 M hashed
// indices, twice; Joins of 16 leaves that spin 50 ms with no poll point)
// while 1, 8 or 64 request handlers sort 20 k ints each with sortpar, one
// request at a time each and one every 2 ms in all. The goroutines variant
// is the same program with slices.Sort and serial big jobs, on plain
// goroutines; callers=0 runs the big jobs alone on a pool, the reference
// for their time beside the callers (within 10 %). It reports the small
// sorts' p50, p99 and longest latency, the big jobs' time and the number
// of small sorts. Run it with -benchtime 1x at GOMAXPROCS=1 and 2 (one
// op is one whole program; the target is p99 <= 2 x the goroutines' p99
// and max <= 20 ms).
func BenchmarkRootLatency(b *testing.B) {
	jobs := []struct {
		job          serverload.Job
		size, rounds int
	}{
		{serverload.Sort, 30_000_000, 3},
		{serverload.For, 20_000_000, 2},
		{serverload.Reduce, 20_000_000, 2},
		{serverload.Leaves, 16, 1},
	}
	for _, j := range jobs {
		for _, callers := range []int{0, 1, 8, 64} {
			for _, variant := range []string{"gofork", "goroutines"} {
				if callers == 0 && variant != "gofork" {
					continue // the big jobs alone: their time is the reference for the rows with callers
				}
				b.Run(fmt.Sprintf("job=%v/callers=%d/%s", j.job, callers, variant), func(b *testing.B) {
					size := j.size
					if testing.Short() && j.job != serverload.Leaves {
						size /= 10
					}
					cfg := serverload.Config{
						Job: j.job, Size: size, Rounds: j.rounds,
						Small: 20_000, Callers: callers, Every: 2 * time.Millisecond,
					}
					var lat []time.Duration
					var big time.Duration
					for b.Loop() {
						var pool *core.Pool
						if variant == "gofork" {
							pool = core.New()
							cfg.Pool = pool
						}
						res, err := serverload.Run(cfg)
						if pool != nil {
							pool.Close()
						}
						if err != nil {
							b.Fatal(err)
						}
						lat = append(lat, res.Latency...)
						big += res.Big
					}
					slices.Sort(lat)
					all := serverload.Result{Latency: lat}
					b.ReportMetric(float64(all.Quantile(0.5).Nanoseconds())/1e3, "small-p50-µs")
					b.ReportMetric(float64(all.Quantile(0.99).Nanoseconds())/1e3, "small-p99-µs")
					b.ReportMetric(float64(all.Max().Nanoseconds())/1e3, "small-max-µs")
					b.ReportMetric(big.Seconds()*1e3/float64(b.N), "big-ms")
					b.ReportMetric(float64(len(lat))/float64(b.N), "smalls/op")
				})
			}
		}
	}
}

// BenchmarkRunEmpty is the cost of a Run from outside of a root that does
// nothing: one caller after another (serial), and 64 callers at once
// (parallel), on a pool that follows GOMAXPROCS.
func BenchmarkRunEmpty(b *testing.B) {
	root := func(*core.Worker) int { return 0 }
	b.Run("serial", func(b *testing.B) {
		pool := core.New()
		defer pool.Close()
		for b.Loop() {
			core.RunValue(pool, root)
		}
	})
	b.Run("parallel-64", func(b *testing.B) {
		pool := core.New()
		defer pool.Close()
		b.SetParallelism(max(1, 64/max(1, pool.Workers())))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				core.RunValue(pool, root)
			}
		})
	})
}

// BenchmarkCallersInTurn runs the callers-in-turn program of package
// serverload (core's DESIGN.md, "Callers served in turn"): 8 or 64
// goroutines each sort 200 k int64 with sortpar.Sort, back to back, for
// 3 s (0.5 s with -short), on one pool; the goroutines variant sorts with
// slices.Sort on the same goroutines. It reports the requests' p50, p99
// and mean latency, p99/mean, and the requests per second. Run it with
// -benchtime 1x (one op is one whole program); the target is p99/mean <=
// 2.5 and the gofork variant's requests per second >= 2.5 x the
// goroutines variant's.
func BenchmarkCallersInTurn(b *testing.B) {
	for _, callers := range []int{8, 64} {
		for _, variant := range []string{"gofork", "goroutines"} {
			b.Run(fmt.Sprintf("callers=%d/%s", callers, variant), func(b *testing.B) {
				cfg := serverload.TurnsConfig{Callers: callers, Size: 200_000, Duration: 3 * time.Second}
				if testing.Short() {
					cfg.Duration = 500 * time.Millisecond
				}
				var all serverload.TurnsResult
				for b.Loop() {
					var pool *core.Pool
					if variant == "gofork" {
						pool = core.New()
						cfg.Pool = pool
					}
					res, err := serverload.RunTurns(cfg)
					if pool != nil {
						pool.Close()
					}
					if err != nil {
						b.Fatal(err)
					}
					all.Latency = append(all.Latency, res.Latency...)
					all.Elapsed += res.Elapsed
				}
				slices.Sort(all.Latency)
				mean := all.Mean()
				b.ReportMetric(float64(all.Quantile(0.5).Nanoseconds())/1e6, "p50-ms")
				b.ReportMetric(float64(all.Quantile(0.99).Nanoseconds())/1e6, "p99-ms")
				b.ReportMetric(float64(mean.Nanoseconds())/1e6, "mean-ms")
				b.ReportMetric(float64(all.Quantile(0.99))/float64(max(mean, 1)), "p99/mean")
				b.ReportMetric(all.Throughput(), "req/s")
			})
		}
	}
}
