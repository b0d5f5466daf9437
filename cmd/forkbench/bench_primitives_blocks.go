package main

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// The primitives suite, continued: the functions with no call per element.
// Each row runs beside the loop a Go user writes instead: the built-in ops
// (reduce.PrefixSum, reduce.Counts, par.Index) and the block forms, whose
// callback is that same loop over a block (reduce.ScanBlocks,
// reduce.HistogramBlocks, par.IndexBlocks, par.FilterBlocks, and
// reduce.Reduce for a map-reduce).
const (
	primCacheN    = 1_000_000 // prim-prefixsum-cache: int64s, which stay in the last-level cache
	primCacheReps = 100       // prim-prefixsum-cache: scans per run
	primKeys      = 1 << 16   // prim-counts: keys in [0, primKeys)
)

func init() {
	q := func(quick bool, n int) int { return pick(quick, n, n/primQuick) }
	prim := func(name string, order int, about string, size func(bool) string,
		setup func(variant string, p, n int) (*job, error), n int) *benchmark {
		return &benchmark{
			name: name, suite: suitePrimitives, order: order, about: about, size: size,
			variants: []string{variantSerial, variantGofork},
			setup:    func(v string, p int, quick bool) (*job, error) { return setup(v, p, q(quick, n)) },
		}
	}
	elems := func(n int, what string) func(bool) string {
		return func(quick bool) string { return fmt.Sprintf("n=%d %s", q(quick, n), what) }
	}
	register(prim("prim-prefixsum", 402,
		"reduce.PrefixSum of int64 into a preallocated dst (one pass, look-back); serial: the running-sum loop",
		elems(primScanN, "int64"), setupPrimPrefix("prim-prefixsum", 1, prefixSum), primScanN))
	register(prim("prim-prefixsum-cache", 403,
		fmt.Sprintf("reduce.PrefixSum of int64 that fit the last-level cache, %d scans a run; serial: the running-sum loop", primCacheReps),
		func(quick bool) string { return fmt.Sprintf("n=%d int64 x%d", q(quick, primCacheN), primCacheReps) },
		setupPrimPrefix("prim-prefixsum-cache", primCacheReps, prefixSum), primCacheN))
	register(prim("prim-scanblocks", 404,
		"reduce.ScanBlocks with the running-sum loops written out (the block form); serial: the running-sum loop",
		elems(primScanN, "int64"), setupPrimPrefix("prim-scanblocks", 1, scanBlocksSum), primScanN))
	register(prim("prim-filterblocks", 412,
		"par.FilterBlocks with the append loop written out, keeping the multiples of 3 among random uint64; serial: an append loop",
		elems(primN, "uint64"), setupPrimFilterBlocks, primN))
	register(prim("prim-counts", 421,
		"reduce.Counts of random uint32 keys into 2^16 buckets; serial: the counting loop",
		elems(primN, "uint32, 2^16 buckets"), setupPrimCounts(false), primN))
	register(prim("prim-histogramblocks", 422,
		"reduce.HistogramBlocks with the counting loop written out (the block form); serial: the counting loop",
		elems(primN, "uint32, 2^16 buckets"), setupPrimCounts(true), primN))
	register(prim("prim-index-end", 462,
		"par.Index over zeros with the one match at n-1; serial: slices.Index",
		elems(primN, "int64, match at n-1"), setupPrimIndex("prim-index-end", false, false), primN))
	register(prim("prim-index-early", 463,
		fmt.Sprintf("par.Index over zeros with the match at %d, %d searches a run; serial: slices.Index", primEarlyAt, primEarlyReps),
		func(quick bool) string {
			return fmt.Sprintf("n=%d int64, match at %d, x%d", q(quick, primN), primEarlyAt, q(quick, primEarlyReps))
		},
		setupPrimIndex("prim-index-early", true, false), primN))
	register(prim("prim-indexblocks-end", 464,
		"par.IndexBlocks with the search loop written out, the one match at n-1; serial: slices.Index",
		elems(primN, "int64, match at n-1"), setupPrimIndex("prim-indexblocks-end", false, true), primN))
	register(prim("prim-reduce-blocks", 470,
		"reduce.Reduce with the summing loop written out (the block form of MapReduce) over int64; serial: the summing loop",
		elems(primN, "int64"), setupPrimReduceBlocks, primN))
}

// prefixSum is prim-prefixsum's gofork run.
func prefixSum(dst, src []int64, pool *core.Pool) int64 {
	return reduce.PrefixSum(dst, src, par.WithPool(pool))
}

// scanBlocksSum is the running sum as ScanBlocks' doc writes it: the
// serial loops over a block, the fold in two accumulators.
func scanBlocksSum(dst, src []int64, pool *core.Pool) int64 {
	return reduce.ScanBlocks(len(src), 0, primAdd,
		func(lo, hi int) int64 {
			var s0, s1 int64
			s := src[lo:hi]
			for ; len(s) >= 2; s = s[2:] {
				s0 += s[0]
				s1 += s[1]
			}
			for _, v := range s {
				s0 += v
			}
			return s0 + s1
		},
		func(lo, hi int, acc int64) int64 {
			d, s := dst[lo:hi], src[lo:hi]
			for i, v := range s {
				d[i] = acc
				acc += v
			}
			return acc
		}, par.WithPool(pool))
}

// setupPrimPrefix: runningSumJob's exclusive running sum, reps times a run.
func setupPrimPrefix(name string, reps int, gofork func(dst, src []int64, pool *core.Pool) int64) func(string, int, int) (*job, error) {
	return func(variant string, p, n int) (*job, error) {
		src, dst, total, j := runningSumJob(name, n, false)
		return primBind(name, variant, p, j,
			func() {
				for range reps {
					*total = scanLoop(dst, src, false)
				}
			},
			func(pool *core.Pool) func() {
				return func() {
					for range reps {
						*total = gofork(dst, src, pool)
					}
				}
			}, nil)
	}
}

func setupPrimFilterBlocks(variant string, p, n int) (*job, error) {
	return setupPrimThirds("prim-filterblocks", variant, p, n, func(s []uint64, pool *core.Pool) []uint64 {
		return par.FilterBlocks(len(s), func(lo, hi int, dst []uint64) []uint64 {
			for _, v := range s[lo:hi] {
				if v%3 == 0 {
					dst = append(dst, v)
				}
			}
			return dst
		}, par.WithPool(pool))
	})
}

// countKeys is the counting loop over keys below primKeys.
func countKeys(keys []uint32) []int {
	counts := make([]int, primKeys)
	for _, k := range keys {
		counts[k]++
	}
	return counts
}

// setupPrimCounts: random keys below primKeys, counted by reduce.Counts or,
// with blocks, by HistogramBlocks around the counting loop.
func setupPrimCounts(blocks bool) func(string, int, int) (*job, error) {
	name := map[bool]string{false: "prim-counts", true: "prim-histogramblocks"}[blocks]
	return func(variant string, p, n int) (*job, error) {
		rng := rand.New(rand.NewPCG(8, 8))
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = uint32(rng.IntN(primKeys))
		}
		want := countKeys(keys)
		var got []int
		j := &job{
			reset: func() { got = nil },
			verify: func() error {
				if !slices.Equal(got, want) {
					return fmt.Errorf("%s: counts differ from the counting loop's", name)
				}
				return nil
			},
		}
		gofork := func(pool *core.Pool) func() {
			if blocks {
				return func() {
					got = reduce.HistogramBlocks(len(keys), primKeys, func(lo, hi int, counts []int) {
						for _, k := range keys[lo:hi] {
							counts[k]++
						}
					}, par.WithPool(pool))
				}
			}
			return func() { got = reduce.Counts(keys, primKeys, par.WithPool(pool)) }
		}
		return primBind(name, variant, p, j, func() { got = countKeys(keys) }, gofork, nil)
	}
}

// setupPrimIndex: setupPrimSearch with par.Index or, with blocks,
// IndexBlocks around the search loop; serial: slices.Index.
func setupPrimIndex(name string, early, blocks bool) func(string, int, int) (*job, error) {
	return setupPrimSearch(name, early,
		func(s []int64) int { return slices.Index(s, 1) },
		func(s []int64, pool *core.Pool) int {
			if !blocks {
				return par.Index(s, 1, par.WithPool(pool))
			}
			return par.IndexBlocks(len(s), func(lo, hi int) int {
				for i, v := range s[lo:hi] {
					if v == 1 {
						return lo + i
					}
				}
				return -1
			}, par.WithPool(pool))
		})
}

func setupPrimReduceBlocks(variant string, p, n int) (*job, error) {
	s := make([]int64, n)
	var want int64
	for i := range s {
		s[i] = int64(i % 1000)
		want += s[i]
	}
	var got int64
	j := &job{
		reset: func() { got = -1 },
		verify: func() error {
			if got != want {
				return fmt.Errorf("prim-reduce-blocks: sum %d, want %d", got, want)
			}
			return nil
		},
	}
	sumLoop := func(s []int64, acc int64) int64 {
		for _, v := range s {
			acc += v
		}
		return acc
	}
	return primBind("prim-reduce-blocks", variant, p, j,
		func() { got = sumLoop(s, 0) },
		func(pool *core.Pool) func() {
			return func() {
				got = reduce.Reduce(0, len(s), 0, func(lo, hi int, acc int64) int64 {
					return sumLoop(s[lo:hi], acc)
				}, primAdd, par.WithPool(pool))
			}
		}, nil)
}
