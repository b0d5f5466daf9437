package main

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// The primitives suite: each parallel primitive of par, reduce
// and sortpar beside its serial Go twin, on fixed inputs, each result
// checked against one computed at setup. The serial row is the loop or the
// slices function a Go user has; two rows add a Go baseline: the scans a
// serial loop calling op through a func value (the cost of the call
// alone), the sort by key sortpar's comparison sort.
const suitePrimitives = "primitives"

const (
	primN         = 10_000_000  // elements of most rows
	primScanN     = 100_000_000 // elements of the scans
	primBuckets   = 1 << 16     // histogram: buckets, by the top 16 bits
	primEarlyAt   = 500         // indexfunc-early: where the match is
	primEarlyReps = 10_000      // indexfunc-early: searches per run
	primShuffle   = 42          // shuffle: the seed
	primQuick     = 10          // -quick divides sizes by this
)

func init() {
	q := func(quick bool, n int) int { return pick(quick, n, n/primQuick) }
	elems := func(n int, what string) func(bool) string {
		return func(quick bool) string { return fmt.Sprintf("n=%d %s", q(quick, n), what) }
	}
	prim := func(name string, order int, about string, size func(bool) string,
		setup func(variant string, p, n int) (*job, error), n int) *benchmark {
		return &benchmark{
			name: name, suite: suitePrimitives, order: order, about: about, size: size,
			variants: []string{variantSerial, variantGofork},
			setup:    func(v string, p int, quick bool) (*job, error) { return setup(v, p, q(quick, n)) },
		}
	}
	withBaseline := func(b *benchmark, baseline, cutoff string) *benchmark {
		b.variants = append(b.variants, variantBaseline)
		b.baseline, b.cutoff = baseline, cutoff
		return b
	}
	const scanCutoff = "whole slice; gofork: one segment per worker, two phases"
	register(withBaseline(prim("prim-scan", 400,
		"reduce.Scan (exclusive prefix sum) of int64 into a preallocated dst; serial: the running-sum loop",
		elems(primScanN, "int64"), setupPrimScan(false), primScanN), "serial loop, op through a func value", scanCutoff))
	register(withBaseline(prim("prim-scan-inclusive", 401,
		"reduce.ScanInclusive of int64 into a preallocated dst; serial: the running-sum loop",
		elems(primScanN, "int64"), setupPrimScan(true), primScanN), "serial loop, op through a func value", scanCutoff))
	register(prim("prim-filter", 410,
		"par.Filter keeping the multiples of 3 among random uint64; serial: an append loop",
		elems(primN, "uint64"), setupPrimFilter, primN))
	register(prim("prim-deletefunc", 411,
		"par.DeleteFunc of the multiples of 3 among random uint64, in place; serial: slices.DeleteFunc",
		elems(primN, "uint64"), setupPrimDeleteFunc, primN))
	register(prim("prim-histogram", 420,
		"reduce.Histogram of random uint64 into 2^16 buckets by their top 16 bits; serial: a counting loop",
		elems(primN, "uint64, 2^16 buckets"), setupPrimHistogram, primN))
	register(withBaseline(prim("prim-sortbykey", 430,
		"sortpar.SortStableByKey (radix) of 16-byte records by a random int64 key; serial: slices.SortStableFunc",
		elems(primN, "{int64 key, int}"), setupPrimSortByKey, primN),
		"sortpar.SortStableFunc", "sortpar's own leaves"))
	register(prim("prim-shuffle", 440,
		"par.Shuffle of int64 0..n-1, seed 42; serial: rand.Shuffle on a PCG",
		elems(primN, "int64"), setupPrimShuffle, primN))
	register(prim("prim-merge", 450,
		"sortpar.Merge of two sorted runs of random int64; serial: the two-finger merge",
		func(quick bool) string { return fmt.Sprintf("n=2x%d int64", q(quick, primN)/2) }, setupPrimMerge, primN))
	register(prim("prim-compact", 451,
		"sortpar.Compact of sorted int64, about 10 copies of each value, in place; serial: slices.Compact",
		func(quick bool) string { n := q(quick, primN); return fmt.Sprintf("n=%d int64 in [0,%d)", n, n/10) },
		setupPrimCompact, primN))
	register(prim("prim-indexfunc-end", 460,
		"par.IndexFunc over zeros with the one match at n-1; serial: slices.IndexFunc",
		elems(primN, "int64, match at n-1"), setupPrimIndexFunc(false), primN))
	register(prim("prim-indexfunc-early", 461,
		fmt.Sprintf("par.IndexFunc over zeros with the match at %d, %d searches a run; serial: slices.IndexFunc", primEarlyAt, primEarlyReps),
		func(quick bool) string {
			return fmt.Sprintf("n=%d int64, match at %d, x%d", q(quick, primN), primEarlyAt, q(quick, primEarlyReps))
		},
		setupPrimIndexFunc(true), primN))
}

// primBind sets j.run for variant: serial, or the run that gofork (or
// baseline, when there is one) makes for a pool of p workers, which j.close
// closes (the scans' serial baseline leaves it idle).
func primBind(name, variant string, p int, j *job, serial func(), gofork, baseline func(*core.Pool) func()) (*job, error) {
	mk := map[string]func(*core.Pool) func(){variantGofork: gofork, variantBaseline: baseline}[variant]
	switch {
	case variant == variantSerial:
		j.run = serial
	case mk != nil:
		pool := core.New(core.WithWorkers(p))
		j.run, j.close = mk(pool), pool.Close
	default:
		return nil, fmt.Errorf("%s: no variant %q", name, variant)
	}
	return j, nil
}

// primRandom returns the random input of filter, deletefunc and histogram.
func primRandom(n int) []uint64 {
	rng := rand.New(rand.NewPCG(2, 2))
	s := make([]uint64, n)
	for i := range s {
		s[i] = rng.Uint64()
	}
	return s
}

// primAdd is the scans' op.
func primAdd(a, b int64) int64 { return a + b }

// scanLoop is the serial running sum, exclusive or inclusive, returning the total.
func scanLoop(dst, src []int64, inclusive bool) int64 {
	dst = dst[:len(src)]
	var acc int64
	if inclusive {
		for i, v := range src {
			acc += v
			dst[i] = acc
		}
		return acc
	}
	for i, v := range src {
		dst[i] = acc
		acc += v
	}
	return acc
}

// scanLoopOp is scanLoop calling op through a func value, as a generic scan
// must (noinline, so the call is not devirtualized).
//
//go:noinline
func scanLoopOp(dst, src []int64, op func(int64, int64) int64, inclusive bool) int64 {
	dst = dst[:len(src)]
	var acc int64
	if inclusive {
		for i, v := range src {
			acc = op(acc, v)
			dst[i] = acc
		}
		return acc
	}
	for i, v := range src {
		dst[i] = acc
		acc = op(acc, v)
	}
	return acc
}

// setupPrimScan: src[i] = i%1000, whose prefix sums have a closed form.
func setupPrimScan(inclusive bool) func(string, int, int) (*job, error) {
	name := map[bool]string{false: "prim-scan", true: "prim-scan-inclusive"}[inclusive]
	return func(variant string, p, n int) (*job, error) {
		src, dst, total, j := runningSumJob(name, n, inclusive)
		gofork := func(pool *core.Pool) func() {
			if inclusive {
				return func() { reduce.ScanInclusive(dst, src, primAdd, par.WithPool(pool)); *total = dst[n-1] }
			}
			return func() { *total = reduce.Scan(dst, src, 0, primAdd, par.WithPool(pool)) }
		}
		return primBind(name, variant, p, j,
			func() { *total = scanLoop(dst, src, inclusive) }, gofork,
			func(*core.Pool) func() { return func() { *total = scanLoopOp(dst, src, primAdd, inclusive) } })
	}
}

// runningSumJob is the job of a running sum over src[i] = i%1000, whose
// prefix sums have a closed form: a run writes dst and sets *total, and
// the job checks both at a few places.
func runningSumJob(name string, n int, inclusive bool) (src, dst []int64, total *int64, j *job) {
	src, dst, total = make([]int64, n), make([]int64, n), new(int64)
	for i := range src {
		src[i] = int64(i % 1000)
	}
	prefix := func(k int) int64 { // the sum of src[:k]
		r := int64(k % 1000)
		return int64(k/1000)*(999*1000/2) + r*(r-1)/2
	}
	shift := 0 // dst[i] = prefix(i + shift)
	if inclusive {
		shift = 1
	}
	spots := []int{0, 1, 999, 1000, 1001, n / 3, n/2 + 7, n - 2, n - 1}
	j = &job{
		reset: func() {
			*total = -1
			for _, i := range spots {
				dst[i] = -1
			}
		},
		verify: func() error {
			if *total != prefix(n) {
				return fmt.Errorf("%s: total %d, want %d", name, *total, prefix(n))
			}
			for _, i := range spots {
				if want := prefix(i + shift); dst[i] != want {
					return fmt.Errorf("%s: dst[%d] = %d, want %d", name, i, dst[i], want)
				}
			}
			return nil
		},
	}
	return src, dst, total, j
}

// primThird is filter's keep and deletefunc's del.
func primThird(v uint64) bool { return v%3 == 0 }

// appendIf is the append loop: the elements of s for which keep is true.
func appendIf(s []uint64, keep func(uint64) bool) []uint64 {
	var out []uint64
	for _, v := range s {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}

func setupPrimFilter(variant string, p, n int) (*job, error) {
	return setupPrimThirds("prim-filter", variant, p, n, func(s []uint64, pool *core.Pool) []uint64 {
		return par.Filter(s, primThird, par.WithPool(pool))
	})
}

// setupPrimThirds is the job of a filter keeping the multiples of 3 among
// random uint64, which gofork's run returns; serial: the append loop.
func setupPrimThirds(name, variant string, p, n int, gofork func(s []uint64, pool *core.Pool) []uint64) (*job, error) {
	s := primRandom(n)
	want := appendIf(s, primThird)
	var got []uint64
	j := &job{
		reset: func() { got = nil },
		verify: func() error {
			if !slices.Equal(got, want) {
				return fmt.Errorf("%s: kept %d elements, not the %d of the append loop", name, len(got), len(want))
			}
			return nil
		},
	}
	return primBind(name, variant, p, j,
		func() { got = appendIf(s, primThird) }, // inlined: the loop with its test
		func(pool *core.Pool) func() { return func() { got = gofork(s, pool) } }, nil)
}

// setupPacked is the job of an in-place delete or compact: s is restored
// from in before each run, and a run's result must be want, at the front of
// s, with zeros after it.
func setupPacked[E comparable](name, variant string, p int, in, want []E,
	serial func([]E) []E, gofork func(*core.Pool, []E) []E) (*job, error) {
	s := make([]E, len(in))
	var got []E
	j := &job{
		reset: func() { copy(s, in); got = nil },
		verify: func() error {
			if !slices.Equal(got, want) {
				return fmt.Errorf("%s: kept %d elements, want %d, or not the same", name, len(got), len(want))
			}
			if len(got) > 0 && &got[0] != &s[0] {
				return fmt.Errorf("%s: the result is not at the front of the input", name)
			}
			var zero E
			for i, v := range s[len(got):] {
				if v != zero {
					return fmt.Errorf("%s: element %d after the new length is not zeroed", name, len(got)+i)
				}
			}
			return nil
		},
	}
	return primBind(name, variant, p, j,
		func() { got = serial(s) },
		func(pool *core.Pool) func() { return func() { got = gofork(pool, s) } }, nil)
}

func setupPrimDeleteFunc(variant string, p, n int) (*job, error) {
	in := primRandom(n)
	want := appendIf(in, func(v uint64) bool { return !primThird(v) })
	return setupPacked("prim-deletefunc", variant, p, in, want,
		func(s []uint64) []uint64 { return slices.DeleteFunc(s, primThird) },
		func(pool *core.Pool, s []uint64) []uint64 { return par.DeleteFunc(s, primThird, par.WithPool(pool)) })
}

func countTop16(s []uint64) []int {
	counts := make([]int, primBuckets)
	for _, v := range s {
		counts[v>>48]++
	}
	return counts
}

func setupPrimHistogram(variant string, p, n int) (*job, error) {
	s := primRandom(n)
	want := countTop16(s)
	var got []int
	j := &job{
		reset: func() { got = nil },
		verify: func() error {
			if !slices.Equal(got, want) {
				return fmt.Errorf("prim-histogram: counts differ from the counting loop's")
			}
			return nil
		},
	}
	top16 := func(v uint64) int { return int(v >> 48) }
	return primBind("prim-histogram", variant, p, j,
		func() { got = countTop16(s) },
		func(pool *core.Pool) func() {
			return func() { got = reduce.Histogram(s, primBuckets, top16, par.WithPool(pool)) }
		}, nil)
}

// primRecord is what prim-sortbykey sorts: payload is the record's index
// in the input, so a stable sort keeps it increasing among equal keys
// (which 64-bit random keys seldom have: the check is mostly of the order
// and of the records).
type primRecord struct {
	key     int64
	payload int
}

func setupPrimSortByKey(variant string, p, n int) (*job, error) {
	rng := rand.New(rand.NewPCG(4, 4))
	in := make([]primRecord, n)
	for i := range in {
		in[i] = primRecord{key: int64(rng.Uint64()), payload: i} // negative keys too
	}
	s := make([]primRecord, n)
	byKey := func(a, b primRecord) int { return cmp.Compare(a.key, b.key) }
	key := func(r primRecord) int64 { return r.key }
	j := &job{
		reset: func() { copy(s, in) },
		verify: func() error {
			seen := make([]bool, n)
			for i, r := range s {
				if r.payload < 0 || r.payload >= n || seen[r.payload] || in[r.payload] != r {
					return fmt.Errorf("prim-sortbykey: record %d %+v is not one of the input's, once", i, r)
				}
				seen[r.payload] = true
				if i > 0 && (s[i-1].key > r.key || s[i-1].key == r.key && s[i-1].payload > r.payload) {
					return fmt.Errorf("prim-sortbykey: records %d, %d out of order: %+v, %+v", i-1, i, s[i-1], r)
				}
			}
			return nil
		},
	}
	return primBind("prim-sortbykey", variant, p, j,
		func() { slices.SortStableFunc(s, byKey) },
		func(pool *core.Pool) func() {
			return func() { sortpar.SortStableByKey(s, key, par.WithPool(pool)) }
		},
		func(pool *core.Pool) func() {
			return func() { sortpar.SortStableFunc(s, byKey, par.WithPool(pool)) }
		})
}

// setupPrimShuffle checks a run's result is a permutation of 0..n-1 (sum and
// xor) and the one this variant gives at setup: serially the same PCG
// shuffle, and gofork's on a one-worker pool, as Shuffle permutes alike at
// every worker count.
func setupPrimShuffle(variant string, p, n int) (*job, error) {
	s := make([]int64, n)
	fill := func() {
		for i := range s {
			s[i] = int64(i)
		}
	}
	digest := func() (sum, xor int64, hash uint64) {
		hash = 14695981039346656037
		for _, v := range s {
			sum += v
			xor ^= v
			hash = (hash ^ uint64(v)) * 1099511628211
		}
		return sum, xor, hash
	}
	var wantXor int64
	for i := range n {
		wantXor ^= int64(i)
	}
	wantSum := int64(n) * int64(n-1) / 2
	var wantHash uint64
	j := &job{
		reset: fill,
		verify: func() error {
			sum, xor, hash := digest()
			if sum != wantSum || xor != wantXor {
				return fmt.Errorf("prim-shuffle: the result is not a permutation of 0..%d", n-1)
			}
			if hash != wantHash {
				return fmt.Errorf("prim-shuffle: permutation hash %#x, want %#x as at setup", hash, wantHash)
			}
			return nil
		},
	}
	serial := func() {
		r := rand.New(rand.NewPCG(primShuffle, 0))
		r.Shuffle(n, func(i, k int) { s[i], s[k] = s[k], s[i] })
	}
	gofork := func(pool *core.Pool) func() {
		return func() { par.Shuffle(s, primShuffle, par.WithPool(pool)) }
	}
	if _, err := primBind("prim-shuffle", variant, p, j, serial, gofork, nil); err != nil {
		return nil, err
	}
	ref := serial
	if variant == variantGofork {
		one := core.New(core.WithWorkers(1))
		ref = gofork(one)
		defer one.Close()
	}
	fill()
	ref()
	_, _, wantHash = digest()
	return j, nil
}

// sortedRandom returns n sorted random int64: a random walk of gaps below 2^20.
func sortedRandom(n int, seed uint64) []int64 {
	rng := rand.New(rand.NewPCG(seed, seed))
	s := make([]int64, n)
	var v int64
	for i := range s {
		v += rng.Int64N(1 << 20)
		s[i] = v
	}
	return s
}

func setupPrimMerge(variant string, p, n int) (*job, error) {
	a, b := sortedRandom(n/2, 5), sortedRandom(n-n/2, 6)
	dst := make([]int64, n)
	// A merge is the sorted sequence of a's and b's elements: sorted, with
	// their sum and xor, it is that one (sortKeys.check), with no third copy.
	var want sortKeys
	for _, v := range a {
		want.sum += v
		want.xor ^= v
	}
	for _, v := range b {
		want.sum += v
		want.xor ^= v
	}
	j := &job{
		reset:  func() { clear(dst) },
		verify: func() error { return want.check("prim-merge", dst) },
	}
	return primBind("prim-merge", variant, p, j,
		func() { msMerge(a, b, dst) }, // the two-finger merge
		func(pool *core.Pool) func() { return func() { sortpar.Merge(dst, a, b, par.WithPool(pool)) } }, nil)
}

func setupPrimCompact(variant string, p, n int) (*job, error) {
	// n values in [0, n/10) drawn at random, sorted by counting.
	m := max(n/10, 1)
	counts := make([]int32, m)
	rng := rand.New(rand.NewPCG(7, 7))
	for range n {
		counts[rng.IntN(m)]++
	}
	in := make([]int64, 0, n)
	var want []int64
	for v, c := range counts {
		if c > 0 {
			want = append(want, int64(v))
		}
		for range c {
			in = append(in, int64(v))
		}
	}
	return setupPacked("prim-compact", variant, p, in, want, slices.Compact[[]int64],
		func(pool *core.Pool, s []int64) []int64 { return sortpar.Compact(s, par.WithPool(pool)) })
}

// setupPrimIndexFunc: zeros with a one at n-1, or at primEarlyAt searched
// n/1000 times a run (primEarlyReps at full size).
func setupPrimIndexFunc(early bool) func(string, int, int) (*job, error) {
	name := map[bool]string{false: "prim-indexfunc-end", true: "prim-indexfunc-early"}[early]
	nonzero := func(v int64) bool { return v != 0 }
	return setupPrimSearch(name, early,
		func(s []int64) int { return slices.IndexFunc(s, nonzero) },
		func(s []int64, pool *core.Pool) int { return par.IndexFunc(s, nonzero, par.WithPool(pool)) })
}

// setupPrimSearch is the job of a search for the one 1 among zeros: at n-1,
// or at primEarlyAt searched n/1000 times a run (primEarlyReps at full
// size); serial and gofork return the index they found.
func setupPrimSearch(name string, early bool, serial func(s []int64) int,
	gofork func(s []int64, pool *core.Pool) int) func(string, int, int) (*job, error) {
	return func(variant string, p, n int) (*job, error) {
		at, reps := n-1, 1
		if early {
			at, reps = primEarlyAt, primEarlyReps*n/primN
		}
		s := make([]int64, n)
		s[at] = 1
		var sum int // of the indexes found
		j := &job{
			reset: func() { sum = 0 },
			verify: func() error {
				if sum != reps*at {
					return fmt.Errorf("%s: found index %v on average, want %d", name, float64(sum)/float64(reps), at)
				}
				return nil
			},
		}
		return primBind(name, variant, p, j,
			func() {
				for range reps {
					sum += serial(s)
				}
			},
			func(pool *core.Pool) func() {
				return func() {
					for range reps {
						sum += gofork(s, pool)
					}
				}
			}, nil)
	}
}
