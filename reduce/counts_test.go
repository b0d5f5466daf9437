package reduce_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// countsOracle is the counting loop.
func countsOracle[K constraints.Integer](keys []K, buckets int) []int {
	counts := make([]int, buckets)
	for _, k := range keys {
		counts[k]++
	}
	return counts
}

func TestCountsMatchesCountingLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, n := range sizesAround(reduce.CountsSerialMax) {
				if n > 1<<14 && pt.name != "auto" && pt.name != "static" {
					continue
				}
				for _, buckets := range []int{1, 7, 1 << 10, 1 << 16} {
					if buckets > 4*n+64 || raceEnabled && buckets > 1<<10 {
						continue
					}
					k64 := make([]int64, n)
					k16 := make([]uint16, n)
					for i := range k64 {
						k64[i] = rng.Int64N(int64(buckets))
						k16[i] = uint16(k64[i])
					}
					want := countsOracle(k64, buckets)
					if got := reduce.Counts(k64, buckets, opts...); !slices.Equal(got, want) {
						t.Fatalf("%s n=%d buckets=%d: int64 keys: Counts differs from the counting loop", pt.name, n, buckets)
					}
					if got := reduce.Counts(k16, buckets, opts...); !slices.Equal(got, want) {
						t.Fatalf("%s n=%d buckets=%d: uint16 keys: Counts differs from the counting loop", pt.name, n, buckets)
					}
				}
				// Skewed: every key in the last bucket.
				same := make([]int8, n)
				for i := range same {
					same[i] = 2
				}
				if got := reduce.Counts(same, 3, opts...); !slices.Equal(got, []int{0, 0, n}) {
					t.Fatalf("%s n=%d: one bucket: %v", pt.name, n, got)
				}
			}
		}
	})
	if got := reduce.Counts([]int{}, 0); len(got) != 0 || got == nil {
		t.Errorf("no keys, no buckets: %#v, want an empty table", got)
	}
}

// TestCountsKeyOutsideRange checks the panic for a key below 0, at
// buckets, and one whose low 32 bits are in range (a 32-bit port must not
// truncate it), on the serial path and the parallel one.
func TestCountsKeyOutsideRange(t *testing.T) {
	p := core.New(core.WithWorkers(4))
	defer p.Close()
	for _, n := range []int{100, 1 << 18} {
		for _, tc := range []struct {
			at  int
			key int64
		}{{0, -1}, {n / 2, 16}, {n - 1, 1<<32 + 3}, {n / 3, math.MinInt64}} {
			keys := make([]int64, n)
			keys[tc.at] = tc.key
			want := fmt.Sprintf("reduce: Counts: keys[%d] = %d, outside [0, 16)", tc.at, tc.key)
			if v := catch(func() { reduce.Counts(keys, 16, par.WithPool(p)) }); fmt.Sprint(v) != want {
				t.Errorf("n=%d key %d at %d: recovered %v, want %q", n, tc.key, tc.at, v, want)
			}
			u := make([]uint64, n)
			u[tc.at] = uint64(tc.key)
			want = fmt.Sprintf("reduce: Counts: keys[%d] = %d, outside [0, 16)", tc.at, uint64(tc.key))
			if v := catch(func() { reduce.Counts(u, 16, par.WithPool(p)) }); fmt.Sprint(v) != want {
				t.Errorf("n=%d uint64 key %d at %d: recovered %v, want %q", n, uint64(tc.key), tc.at, v, want)
			}
		}
	}
	if v := catch(func() { reduce.Counts([]int{}, -1) }); fmt.Sprint(v) != "reduce: Counts with -1 buckets" {
		t.Errorf("negative buckets: recovered %v", v)
	}
}

func TestHistogramBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, n := range sizesAround(reduce.CountsSerialMax) {
				if n > 1<<14 && pt.name != "auto" && pt.name != "static" {
					continue
				}
				x := make([]uint64, n)
				for i := range x {
					x[i] = rng.Uint64()
				}
				const buckets = 1 << 10
				want := make([]int, buckets)
				weighted := make([]int, buckets)
				for i, v := range x {
					want[v>>54]++
					weighted[v>>54] += i
				}
				seen := make([]atomic.Int32, n)
				got := reduce.HistogramBlocks(n, buckets, func(lo, hi int, counts []int) {
					for i, v := range x[lo:hi] {
						seen[lo+i].Add(1)
						counts[v>>54]++
					}
				}, opts...)
				if !slices.Equal(got, want) {
					t.Fatalf("%s n=%d: HistogramBlocks differs from the counting loop", pt.name, n)
				}
				for i := range seen {
					if c := seen[i].Load(); c != 1 {
						t.Fatalf("%s n=%d: index %d counted %d times", pt.name, n, i, c)
					}
				}
				got = reduce.HistogramBlocks(n, buckets, func(lo, hi int, counts []int) {
					for i, v := range x[lo:hi] {
						counts[v>>54] += lo + i
					}
				}, opts...)
				if !slices.Equal(got, weighted) {
					t.Fatalf("%s n=%d: weighted HistogramBlocks differs from the loop", pt.name, n)
				}
			}
		}
	})
}

// TestHistogramBlocksNested runs a parallel loop inside count, so that a
// worker waiting for it may run another block of the same histogram: that
// block must count into a table of its own, not the one in use below it.
func TestHistogramBlocksNested(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		const n, buckets = 1 << 13, 64
		got := reduce.HistogramBlocks(n, buckets, func(lo, hi int, counts []int) {
			for i := lo; i < hi; i++ {
				c := counts[i%buckets]
				if i%64 == 0 {
					// On the same pool: while the last iteration runs on a
					// thief, this worker may run a block of this call.
					par.For(0, 2, func(j int) { spin(j * 2000) }, par.Simple(1))
				}
				counts[i%buckets] = c + 1 // lost if a nested block counted into this table
			}
		}, par.WithPool(p), par.Grain(256))
		for k, c := range got {
			if c != n/buckets {
				t.Fatalf("bucket %d: %d, want %d", k, c, n/buckets)
			}
		}
	})
}

func TestHistogramBlocksPanic(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		v := catch(func() {
			reduce.HistogramBlocks(1<<16, 4, func(lo, hi int, counts []int) {
				if lo <= 40_000 && 40_000 < hi {
					panic("bad block")
				}
			}, par.WithPool(p))
		})
		if v != "bad block" {
			t.Errorf("recovered %v", v)
		}
	})
	for name, f := range map[string]func(){
		"n":       func() { reduce.HistogramBlocks(-1, 1, func(int, int, []int) {}) },
		"buckets": func() { reduce.HistogramBlocks(1, -1, func(int, int, []int) {}) },
		"count":   func() { reduce.HistogramBlocks(1, 1, nil) },
	} {
		if v := catch(f); v == nil || !strings.HasPrefix(fmt.Sprint(v), "reduce: HistogramBlocks with") {
			t.Errorf("bad %s: recovered %v", name, v)
		}
	}
	// Blocks over 2^31-1 indices, counted without touching memory.
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	got := reduce.HistogramBlocks(math.MaxInt32, 1, func(lo, hi int, counts []int) {
		if hi <= lo {
			counts[0] = math.MinInt
		}
		counts[0] += hi - lo
	}, par.WithPool(p), par.Grain(1<<20))
	if got[0] != math.MaxInt32 {
		t.Errorf("HistogramBlocks over [0, 2^31-1): %d indices counted", got[0])
	}
}

// spin does about n steps of work that the compiler cannot drop.
func spin(n int) {
	h := uint64(n) | 1
	for range n {
		h ^= h << 13
		h ^= h >> 7
		h ^= h << 17
	}
	spinSink.Store(h)
}

var spinSink atomic.Uint64
