package kernels

import (
	"fmt"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// The primitives suite: each parallel primitive of par, reduce and sortpar
// beside its serial Go program (prims.go), each result checked against one
// computed at setup. Two rows add a Go baseline: the scans a serial loop
// calling op through a func value (the cost of the call alone), the sort
// by key sortpar's comparison sort.
const suitePrimitives = "primitives"

const (
	primEarlyReps = 10_000 // *-early: searches per run at the Full scale
	primCacheReps = 100    // prim-prefixsum-cache: scans per run
	primShuffle   = 42     // prim-shuffle: the seed
)

func init() {
	elems := func(n int, what string) func(Scale) string {
		return func(s Scale) string { return fmt.Sprintf("n=%d %s", PrimSize(s, n), what) }
	}
	early := func(s Scale) string {
		return fmt.Sprintf("n=%d int64, match at %d, x%d", PrimSize(s, PrimN), PrimAt, PrimSize(s, primEarlyReps))
	}
	prim := func(name string, order int, about string, size func(Scale) string,
		setup func(name, variant string, p, n int) (*Job, error), n int) *Kernel {
		return &Kernel{
			Name: name, Suite: suitePrimitives, Order: order, About: about, Size: size,
			Variants: []string{Serial, Gofork},
			Setup:    func(v string, p int, s Scale) (*Job, error) { return setup(name, v, p, PrimSize(s, n)) },
		}
	}
	withBaseline := func(k *Kernel, baseline, cutoff string) *Kernel {
		k.Variants = append(k.Variants, Baseline)
		k.Baseline, k.Cutoff = baseline, cutoff
		return k
	}
	const scanCutoff = "whole slice; gofork: one segment per worker, two phases"
	for _, k := range []*Kernel{
		withBaseline(prim("prim-scan", 400,
			"reduce.Scan (exclusive prefix sum) of int64 into a preallocated dst; serial: the running-sum loop",
			elems(PrimScanN, "int64"), setupPrimScan, PrimScanN), "serial loop, op through a func value", scanCutoff),
		withBaseline(prim("prim-scan-inclusive", 401,
			"reduce.ScanInclusive of int64 into a preallocated dst; serial: the running-sum loop",
			elems(PrimScanN, "int64"), setupPrimScan, PrimScanN), "serial loop, op through a func value", scanCutoff),
		prim("prim-prefixsum", 402,
			"reduce.PrefixSum of int64 into a preallocated dst (one pass, look-back); serial: the running-sum loop",
			elems(PrimScanN, "int64"), setupPrimScan, PrimScanN),
		prim("prim-prefixsum-cache", 403,
			fmt.Sprintf("reduce.PrefixSum of int64 that fit the last-level cache, %d scans a run; serial: the running-sum loop", primCacheReps),
			func(s Scale) string { return fmt.Sprintf("n=%d int64 x%d", PrimSize(s, PrimCacheN), primCacheReps) },
			setupPrimScan, PrimCacheN),
		prim("prim-scanblocks", 404,
			"reduce.ScanBlocks with the running-sum loops written out (the block form); serial: the running-sum loop",
			elems(PrimScanN, "int64"), setupPrimScan, PrimScanN),
		prim("prim-filter", 410,
			"par.Filter keeping the multiples of 3 among random uint64; serial: an append loop",
			elems(PrimN, "uint64"), setupPrimFilter, PrimN),
		prim("prim-deletefunc", 411,
			"par.DeleteFunc of the multiples of 3 among random uint64, in place; serial: slices.DeleteFunc",
			elems(PrimN, "uint64"), setupPrimDeleteFunc, PrimN),
		prim("prim-filterblocks", 412,
			"par.FilterBlocks with the append loop written out, keeping the multiples of 3 among random uint64; serial: an append loop",
			elems(PrimN, "uint64"), setupPrimFilter, PrimN),
		prim("prim-histogram", 420,
			"reduce.Histogram of random uint64 into 2^16 buckets by their top 16 bits; serial: a counting loop",
			elems(PrimN, "uint64, 2^16 buckets"), setupPrimHistogram, PrimN),
		prim("prim-counts", 421,
			"reduce.Counts of random uint32 keys into 2^16 buckets; serial: the counting loop",
			elems(PrimN, "uint32, 2^16 buckets"), setupPrimCounts, PrimN),
		prim("prim-histogramblocks", 422,
			"reduce.HistogramBlocks with the counting loop written out (the block form); serial: the counting loop",
			elems(PrimN, "uint32, 2^16 buckets"), setupPrimCounts, PrimN),
		withBaseline(prim("prim-sortbykey", 430,
			"sortpar.SortStableByKey (radix) of 16-byte records by a random int64 key; serial: slices.SortStableFunc",
			elems(PrimN, "{int64 key, payload}"), setupPrimSortByKey, PrimN),
			"sortpar.SortStableFunc", "sortpar's own leaves"),
		prim("prim-shuffle", 440,
			fmt.Sprintf("par.Shuffle of int64 0..n-1, seed %d; serial: rand.Shuffle on a PCG", primShuffle),
			elems(PrimN, "int64"), setupPrimShuffle, PrimN),
		prim("prim-merge", 450,
			"sortpar.Merge of two sorted runs of random int64; serial: the two-finger merge",
			func(s Scale) string { return fmt.Sprintf("n=2x%d int64", PrimSize(s, PrimN)/2) }, setupPrimMerge, PrimN),
		prim("prim-compact", 451,
			"sortpar.Compact of sorted int64, about 10 copies of each value, in place; serial: slices.Compact",
			func(s Scale) string { n := PrimSize(s, PrimN); return fmt.Sprintf("n=%d int64 in [0,%d)", n, n/10) },
			setupPrimCompact, PrimN),
		prim("prim-indexfunc-end", 460,
			"par.IndexFunc over zeros with the one match at n-1; serial: slices.IndexFunc",
			elems(PrimN, "int64, match at n-1"), setupPrimSearch, PrimN),
		prim("prim-indexfunc-early", 461,
			fmt.Sprintf("par.IndexFunc over zeros with the match at %d, %d searches a run; serial: slices.IndexFunc", PrimAt, primEarlyReps),
			early, setupPrimSearch, PrimN),
		prim("prim-index-end", 462,
			"par.Index over zeros with the one match at n-1; serial: slices.Index",
			elems(PrimN, "int64, match at n-1"), setupPrimSearch, PrimN),
		prim("prim-index-early", 463,
			fmt.Sprintf("par.Index over zeros with the match at %d, %d searches a run; serial: slices.Index", PrimAt, primEarlyReps),
			early, setupPrimSearch, PrimN),
		prim("prim-indexblocks-end", 464,
			"par.IndexBlocks with the search loop written out, the one match at n-1; serial: slices.Index",
			elems(PrimN, "int64, match at n-1"), setupPrimSearch, PrimN),
		prim("prim-reduce-blocks", 470,
			"reduce.Reduce with the summing loop written out (the block form of MapReduce) over int64; serial: the summing loop",
			elems(PrimN, "int64"), setupPrimReduceBlocks, PrimN),
	} {
		add(k)
	}
}

// primBind sets j.Run for variant: serial, or the run that gofork (or
// baseline, when there is one) makes for a pool of p workers, which j.Close
// closes (the scans' serial baseline leaves it idle).
func primBind(name, variant string, p int, j *Job, serial func(), gofork, baseline func(*core.Pool) func()) (*Job, error) {
	mk := map[string]func(*core.Pool) func(){Gofork: gofork, Baseline: baseline}[variant]
	switch {
	case variant == Serial:
		j.Run = serial
	case mk != nil:
		pool := core.New(core.WithWorkers(p))
		j.Run, j.Close = mk(pool), pool.Close
	default:
		return nil, fmt.Errorf("%s: no variant %q", name, variant)
	}
	return j, nil
}

// setupPrimScan is the job of a running sum of ScanInput: a run writes dst
// and sets total, which verify checks, and dst at a few places, against
// prefix sums taken at setup.
func setupPrimScan(name, variant string, p, n int) (*Job, error) {
	src, dst, sum := ScanInput(n)
	inclusive := name == "prim-scan-inclusive"
	reps := 1
	if name == "prim-prefixsum-cache" {
		reps = primCacheReps
	}
	spots := []int{0, 1, 999, 1000, 1001, n / 3, n/2 + 7, n - 2, n - 1}
	want := make([]int64, len(spots)) // dst at the spots
	var acc int64
	for i, k := 0, 0; i < n && k < len(spots); i++ {
		for k < len(spots) && spots[k] == i {
			want[k] = acc
			if inclusive {
				want[k] += src[i]
			}
			k++
		}
		acc += src[i]
	}
	var total int64
	j := &Job{
		Reset: func() {
			total = -1
			for _, i := range spots {
				dst[i] = -1
			}
		},
		Verify: func() error {
			if total != sum {
				return fmt.Errorf("%s: total %d, want %d", name, total, sum)
			}
			for k, i := range spots {
				if dst[i] != want[k] {
					return fmt.Errorf("%s: dst[%d] = %d, want %d", name, i, dst[i], want[k])
				}
			}
			return nil
		},
	}
	serial := func() { total = ScanSerial(dst, src) }
	if inclusive {
		serial = func() { ScanInclusiveSerial(dst, src); total = dst[n-1] }
	}
	gofork := func(pool *core.Pool) func() {
		opt := par.WithPool(pool)
		switch name {
		case "prim-scan":
			return func() { total = reduce.Scan(dst, src, 0, Add, opt) }
		case "prim-scan-inclusive":
			return func() { reduce.ScanInclusive(dst, src, Add, opt); total = dst[n-1] }
		case "prim-scanblocks":
			return func() { total = ScanBlocksSum(dst, src, opt) }
		}
		return func() {
			for range reps {
				total = reduce.PrefixSum(dst, src, opt)
			}
		}
	}
	baseline := func(*core.Pool) func() {
		if inclusive {
			return func() { total = ScanInclusiveSerialOp(dst, src, 0, Add) }
		}
		return func() { total = ScanSerialOp(dst, src, 0, Add) }
	}
	return primBind(name, variant, p, j, func() {
		for range reps {
			serial()
		}
	}, gofork, baseline)
}

// setupPrimFilter is the job of a filter keeping the multiples of 3 among
// random uint64; serial: the append loop.
func setupPrimFilter(name, variant string, p, n int) (*Job, error) {
	s, _ := Random(n, 2)
	want := FilterAppend(s)
	var got []uint64
	j := &Job{
		Reset: func() { got = nil },
		Verify: func() error {
			if !slices.Equal(got, want) {
				return fmt.Errorf("%s: kept %d elements, not the %d of the append loop", name, len(got), len(want))
			}
			return nil
		},
	}
	return primBind(name, variant, p, j,
		func() { got = FilterAppend(s) },
		func(pool *core.Pool) func() {
			if name == "prim-filterblocks" {
				return func() { got = FilterBlocksThirds(s, par.WithPool(pool)) }
			}
			return func() { got = par.Filter(s, Third, par.WithPool(pool)) }
		}, nil)
}

// setupPacked is the job of an in-place delete or compact: s is restored
// from in before each run, and a run's result must be want, at the front of
// s, with zeros after it.
func setupPacked[E comparable](name, variant string, p int, in, want []E,
	serial func([]E) []E, gofork func(*core.Pool, []E) []E) (*Job, error) {
	s := make([]E, len(in))
	var got []E
	j := &Job{
		Reset: func() { copy(s, in); got = nil },
		Verify: func() error {
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

func setupPrimDeleteFunc(name, variant string, p, n int) (*Job, error) {
	in, _ := Random(n, 3)
	want := slices.DeleteFunc(slices.Clone(in), Third)
	return setupPacked(name, variant, p, in, want,
		func(s []uint64) []uint64 { return slices.DeleteFunc(s, Third) },
		func(pool *core.Pool, s []uint64) []uint64 { return par.DeleteFunc(s, Third, par.WithPool(pool)) })
}

func setupPrimCompact(name, variant string, p, n int) (*Job, error) {
	in := CompactInput(n)
	want := slices.Compact(slices.Clone(in))
	return setupPacked(name, variant, p, in, want, slices.Compact[[]int64],
		func(pool *core.Pool, s []int64) []int64 { return sortpar.Compact(s, par.WithPool(pool)) })
}

// setupCounted is the job of a histogram, checked against want.
func setupCounted(name, variant string, p int, want []int, serial func() []int, gofork func(*core.Pool) []int) (*Job, error) {
	var got []int
	j := &Job{
		Reset: func() { got = nil },
		Verify: func() error {
			if !slices.Equal(got, want) {
				return fmt.Errorf("%s: counts differ from the counting loop's", name)
			}
			return nil
		},
	}
	return primBind(name, variant, p, j, func() { got = serial() },
		func(pool *core.Pool) func() { return func() { got = gofork(pool) } }, nil)
}

func setupPrimHistogram(name, variant string, p, n int) (*Job, error) {
	s, _ := Random(n, 4)
	return setupCounted(name, variant, p, HistSerial(s, Buckets), func() []int { return HistSerial(s, Buckets) },
		func(pool *core.Pool) []int { return reduce.Histogram(s, Buckets, Top16, par.WithPool(pool)) })
}

// setupPrimCounts: random keys below Buckets, counted by reduce.Counts or,
// for prim-histogramblocks, by HistogramBlocks around the counting loop.
func setupPrimCounts(name, variant string, p, n int) (*Job, error) {
	keys := KeysInput(n, Buckets)
	gofork := func(pool *core.Pool) []int { return reduce.Counts(keys, Buckets, par.WithPool(pool)) }
	if name == "prim-histogramblocks" {
		gofork = func(pool *core.Pool) []int { return CountsBlocks(keys, Buckets, par.WithPool(pool)) }
	}
	return setupCounted(name, variant, p, CountLoop(keys, Buckets), func() []int { return CountLoop(keys, Buckets) }, gofork)
}

func setupPrimSortByKey(name, variant string, p, n int) (*Job, error) {
	in := StableInput(n)
	s := make([]Record, n)
	j := &Job{
		Reset: func() { copy(s, in) },
		Verify: func() error {
			seen := make([]bool, n)
			for i, r := range s {
				if r.Payload < 0 || r.Payload >= int64(n) || seen[r.Payload] || in[r.Payload] != r {
					return fmt.Errorf("%s: record %d %+v is not one of the input's, once", name, i, r)
				}
				seen[r.Payload] = true
				if i > 0 && (s[i-1].Key > r.Key || s[i-1].Key == r.Key && s[i-1].Payload > r.Payload) {
					return fmt.Errorf("%s: records %d, %d out of order: %+v, %+v", name, i-1, i, s[i-1], r)
				}
			}
			return nil
		},
	}
	return primBind(name, variant, p, j,
		func() { slices.SortStableFunc(s, RecordCmp) },
		func(pool *core.Pool) func() {
			return func() { sortpar.SortStableByKey(s, RecordKey, par.WithPool(pool)) }
		},
		func(pool *core.Pool) func() {
			return func() { sortpar.SortStableFunc(s, RecordCmp, par.WithPool(pool)) }
		})
}

// setupPrimShuffle checks a run's result is a permutation of 0..n-1 (sum and
// xor) and the one this variant gives at setup: serially the same PCG
// shuffle, and gofork's on a one-worker pool, as Shuffle permutes alike at
// every worker count.
func setupPrimShuffle(name, variant string, p, n int) (*Job, error) {
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
	j := &Job{
		Reset: fill,
		Verify: func() error {
			sum, xor, hash := digest()
			if sum != wantSum || xor != wantXor {
				return fmt.Errorf("%s: the result is not a permutation of 0..%d", name, n-1)
			}
			if hash != wantHash {
				return fmt.Errorf("%s: permutation hash %#x, want %#x as at setup", name, hash, wantHash)
			}
			return nil
		},
	}
	serial := func() { ShuffleSerial(s, primShuffle) }
	gofork := func(pool *core.Pool) func() {
		return func() { par.Shuffle(s, primShuffle, par.WithPool(pool)) }
	}
	if _, err := primBind(name, variant, p, j, serial, gofork, nil); err != nil {
		return nil, err
	}
	ref := serial
	if variant == Gofork {
		one := core.New(core.WithWorkers(1))
		ref = gofork(one)
		defer one.Close()
	}
	fill()
	ref()
	_, _, wantHash = digest()
	return j, nil
}

func setupPrimMerge(name, variant string, p, n int) (*Job, error) {
	a, b, dst := MergeInput(n)
	// A merge is the sorted sequence of a's and b's elements: sorted, with
	// their hash sum, it is that one.
	sum := hashSum(a, mix64) + hashSum(b, mix64)
	j := &Job{
		Reset:  func() { clear(dst) },
		Verify: func() error { return sortedSame(name, dst, CmpInt64, nil, mix64, sum) },
	}
	return primBind(name, variant, p, j,
		func() { MergeTwoFinger(dst, a, b) },
		func(pool *core.Pool) func() { return func() { sortpar.Merge(dst, a, b, par.WithPool(pool)) } }, nil)
}

// CmpInt64 compares two int64 in a function of its own: the merges'
// comparison through a func value.
func CmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// SearchInput returns n zeros with a 1 at at.
func SearchInput(n, at int) []int64 {
	x := make([]int64, n)
	x[at] = 1
	return x
}

// setupPrimSearch is the job of a search for the one 1 among zeros: at n-1,
// or, for *-early, at PrimAt searched n/1000 times a run; a run adds the
// indexes it found.
func setupPrimSearch(name, variant string, p, n int) (*Job, error) {
	at, reps := n-1, 1
	if name == "prim-indexfunc-early" || name == "prim-index-early" {
		at, reps = PrimAt, primEarlyReps*n/PrimN
	}
	s := SearchInput(n, at)
	one := func(v int64) bool { return v == 1 }
	serial := func() int { return slices.Index(s, 1) }
	gofork := func(opt par.Option) int { return par.Index(s, 1, opt) }
	switch name {
	case "prim-indexfunc-end", "prim-indexfunc-early":
		serial = func() int { return slices.IndexFunc(s, one) }
		gofork = func(opt par.Option) int { return par.IndexFunc(s, one, opt) }
	case "prim-indexblocks-end":
		gofork = func(opt par.Option) int { return IndexBlocksOne(s, opt) }
	}
	var sum int // of the indexes found
	j := &Job{
		Reset: func() { sum = 0 },
		Verify: func() error {
			if sum != reps*at {
				return fmt.Errorf("%s: found index %v on average, want %d", name, float64(sum)/float64(reps), at)
			}
			return nil
		},
	}
	return primBind(name, variant, p, j,
		func() {
			for range reps {
				sum += serial()
			}
		},
		func(pool *core.Pool) func() {
			opt := par.WithPool(pool)
			return func() {
				for range reps {
					sum += gofork(opt)
				}
			}
		}, nil)
}

func setupPrimReduceBlocks(name, variant string, p, n int) (*Job, error) {
	s, want := SumInput(n)
	var got int64
	j := &Job{
		Reset: func() { got = -1 },
		Verify: func() error {
			if got != want {
				return fmt.Errorf("%s: sum %d, want %d", name, got, want)
			}
			return nil
		},
	}
	return primBind(name, variant, p, j,
		func() { got = SumLoop(s) },
		func(pool *core.Pool) func() { return func() { got = ReduceBlocksSum(s, par.WithPool(pool)) } }, nil)
}
