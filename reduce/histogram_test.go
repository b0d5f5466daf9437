package reduce_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

func TestHistogramMatchesCountingLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, n := range sizesAround(reduce.ScanSerialMax) {
				if n > 1<<14 && pt.name != "auto" && pt.name != "static" {
					continue
				}
				x := make([]uint64, n)
				for i := range x {
					x[i] = rng.Uint64()
				}
				for _, buckets := range []int{1, 7, 1 << 10} {
					if buckets > n && n > 100 {
						continue
					}
					bucket := func(v uint64) int { return int(v % uint64(buckets)) }
					want := make([]int, buckets)
					for _, v := range x {
						want[bucket(v)]++
					}
					if got := reduce.Histogram(x, buckets, bucket, opts...); !slices.Equal(got, want) {
						t.Fatalf("%s n=%d buckets=%d: Histogram differs from the counting loop", pt.name, n, buckets)
					}
				}
				// Skewed: every element in one bucket.
				if got := reduce.Histogram(x, 3, func(uint64) int { return 2 }, opts...); !slices.Equal(got, []int{0, 0, n}) {
					t.Fatalf("%s n=%d: one bucket: %v", pt.name, n, got)
				}
			}
		}
	})
}

// TestHistogramFlushes counts with a small limit on the elements a uint32
// histogram takes before it is added into ints (math.MaxUint32 in
// Histogram), so that flushes happen within leaves, between them and in
// joins, and checks the counts against the counting loop.
func TestHistogramFlushes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, n := range []int{0, 1, 4097, 1 << 16, 100_003} {
			x := make([]uint32, n)
			for i := range x {
				x[i] = rng.Uint32()
			}
			for _, buckets := range []int{1, 7, 300} {
				bucket := func(v uint32) int { return int(v % uint32(buckets)) }
				want := make([]int, buckets)
				for _, v := range x {
					want[bucket(v)]++
				}
				for _, limit := range []uint64{1, 2, 3, 1000, 1 << 15} {
					got := reduce.HistogramLimit(x, buckets, bucket, limit, par.WithPool(p), par.Grain(512))
					if !slices.Equal(got, want) {
						t.Fatalf("n=%d buckets=%d limit=%d: Histogram differs from the counting loop", n, buckets, limit)
					}
				}
			}
		}
	})
}

func TestHistogramEdges(t *testing.T) {
	if got := reduce.Histogram([]int{}, 0, func(int) int { return 0 }); got == nil || len(got) != 0 {
		t.Errorf("empty input, 0 buckets: %v, want an empty non-nil slice", got)
	}
	if got := reduce.Histogram([]int(nil), 3, func(int) int { return 0 }); !slices.Equal(got, []int{0, 0, 0}) {
		t.Errorf("nil input: %v", got)
	}
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, n := range []int{10, 100_000} {
			x := make([]int, n)
			for i := range x {
				x[i] = i
			}
			bad := n - 3
			for _, c := range []struct {
				b    func(int) int
				want string
			}{
				{func(v int) int {
					if v == bad {
						return 5
					}
					return 0
				}, "reduce: Histogram: bucket(s[" + strconv.Itoa(bad) + "]) = 5, outside [0, 5)"},
				{func(v int) int {
					if v == bad {
						return -1
					}
					return 4
				}, "reduce: Histogram: bucket(s[" + strconv.Itoa(bad) + "]) = -1, outside [0, 5)"},
			} {
				if got := catch(func() { reduce.Histogram(x, 5, c.b, par.WithPool(p)) }); got != c.want {
					t.Errorf("n=%d: panic %v, want %q", n, got, c.want)
				}
			}
		}
	})
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { reduce.Histogram([]int{1}, -1, func(int) int { return 0 }) }, "reduce: Histogram with -1 buckets"},
		{func() { reduce.Histogram([]int{1}, 1, nil) }, "reduce: Histogram with a nil bucket"},
		{func() { reduce.Histogram([]int{1}, 0, func(int) int { return 0 }) }, "reduce: Histogram: bucket(s[0]) = 0, outside [0, 0)"},
	} {
		if got := catch(c.f); got != c.want {
			t.Errorf("panic %v, want %q", got, c.want)
		}
	}
}
