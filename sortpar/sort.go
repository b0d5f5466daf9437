package sortpar

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
)

// config holds the knobs of one sort call. Every threshold is a length in
// elements; the defaults are those of defaultConfig.
type config struct {
	pool *core.Pool
	// cutoff: a slice shorter than this is handed to package slices as a
	// whole, and the stable mergesort hands ranges shorter than this to
	// its buffered serial kernel.
	cutoff int
	// funcLeaf, stringLeaf: samplesort ranges of at most this many
	// elements go to slices.SortFunc, for SortFunc and for strings. A
	// tree classification costs about what a pdqsort partition costs per
	// comparison when cmp branches on its operands (the branch mispredicts
	// either way), so SortFunc recurses only until ranges fit the L2
	// cache; string comparisons miss the cache on the string bytes, which
	// one classification loads once for eight comparisons, so strings
	// recurse down to small ranges.
	funcLeaf, stringLeaf int
	// radixMin: integer and float slices at least this long use the
	// parallel radix sort; shorter ones use slices.Sort.
	radixMin int
	// grain: the smallest piece of a parallel loop (scan, merge, radix
	// chunk); below it one worker does the piece alone.
	grain int
	// stableMin: stable sorts of slices at least this long use the
	// buffered mergesort, whose serial leaf already beats
	// slices.SortStableFunc (insertion sort plus in-place SymMerge).
	stableMin int
}

// The default thresholds, in elements (the package doc, "Cutoffs", says
// how par.Grain scales them).
const (
	defaultCutoff     = 1 << 13
	defaultFuncLeaf   = 1 << 16
	defaultStringLeaf = 1 << 8
	defaultRadixMin   = 1 << 14
	defaultGrain      = 1 << 12
	defaultStableMin  = 1 << 11
)

func defaultConfig() config {
	return config{
		cutoff:     defaultCutoff,
		funcLeaf:   defaultFuncLeaf,
		stringLeaf: defaultStringLeaf,
		radixMin:   defaultRadixMin,
		grain:      defaultGrain,
		stableMin:  defaultStableMin,
	}
}

// blockLen returns the block length of the in-place partitions for
// elements of size bytes: a power of two, blockBytes worth of elements, but
// at most an eighth of the cutoff, so that a small par.Grain makes short
// inputs use every phase of the partition.
func (c *config) blockLen(size uintptr) int {
	b := min(blockLenFor(size), max(1, c.cutoff/8))
	return 1 << (bits.Len(uint(b)) - 1)
}

// settings are the options every function of the package takes:
// par.WithPool, and par.Grain, which sets the cutoff.
const settings = loop.SetPool | loop.SetGrain

// newConfig resolves the options of the entry point call.
//
// par.Grain(n) sets the length below which work is done serially by
// package slices (and by the serial kernels inside a parallel sort), at
// least 2. All other thresholds are scaled from it: samplesort leaves are
// 8·n elements for SortFunc and n/32 (at least 16) for strings, blocks at
// most n/8, the radix sort and the stable mergesort start at n, parallel
// loops and merges split down to n/2.
func newConfig(call string, opts []par.Option) config {
	lc := loop.Resolve(call, settings, opts)
	c := defaultConfig()
	c.pool = lc.Pool
	if lc.Has(loop.SetGrain) {
		n := int(max(min(lc.Grain, math.MaxInt32), 2))
		c.cutoff = n
		c.funcLeaf = 8 * n
		c.stringLeaf = max(n/32, 16)
		c.radixMin = n
		c.grain = max(n/2, 1)
		c.stableMin = n
	}
	return c
}

// Sort sorts x in ascending order, like slices.Sort, in parallel.
// Integer and floating-point slices are radix sorted; other ordered types
// (strings) are samplesorted. Both work in place: besides x, a sort uses
// about 0.5 MiB per worker and a byte per 2 KiB of x. When sorting floats,
// NaNs are ordered before other values, exactly as slices.Sort does; the
// sort is not stable. It takes the options par.WithPool and par.Grain (the
// cutoff).
func Sort[S ~[]E, E cmp.Ordered](x S, opts ...par.Option) {
	if len(opts) == 0 && len(x) < defaultCutoff {
		slices.Sort(x)
		return
	}
	c := newConfig("sortpar.Sort", opts)
	sortOrdered([]E(x), &c)
}

// SortFunc sorts x in ascending order as determined by cmp, like
// slices.SortFunc, with an in-place parallel samplesort: besides x it uses
// about 0.5 MiB per worker and a byte per 2 KiB of x. cmp must be a strict
// weak ordering and safe to call from several goroutines at once. The sort
// is not stable. If cmp panics, the panic reaches the caller and x
// holds a permutation of its elements. It takes Sort's options.
func SortFunc[S ~[]E, E any](x S, cmp func(a, b E) int, opts ...par.Option) {
	if cmp == nil {
		panic("sortpar: SortFunc with a nil cmp")
	}
	if len(opts) == 0 && len(x) < defaultCutoff {
		slices.SortFunc(x, cmp)
		return
	}
	c := newConfig("sortpar.SortFunc", opts)
	sortFunc([]E(x), cmp, &c)
}

// SortStable sorts x in ascending order keeping equal elements in their
// original order. For integers and strings, where equal elements cannot be
// told apart, it is Sort, in place; for floats (where -0 and +0, or two
// NaNs, compare equal but differ) it is the parallel mergesort of
// SortStableFunc with cmp.Compare, so NaNs come first, in their original
// order, and it allocates one buffer of len(x) elements. It takes Sort's
// options.
func SortStable[S ~[]E, E cmp.Ordered](x S, opts ...par.Option) {
	c := newConfig("sortpar.SortStable", opts)
	sortStableOrdered([]E(x), &c)
}

// SortStableFunc sorts x as determined by cmp keeping equal elements in
// their original order, like slices.SortStableFunc, with a parallel
// mergesort. It allocates one buffer of len(x) elements. cmp must be a
// strict weak ordering and safe to call from several goroutines at once. If
// cmp panics, the panic reaches the caller and x holds a permutation of its
// elements. It takes Sort's options.
func SortStableFunc[S ~[]E, E any](x S, cmp func(a, b E) int, opts ...par.Option) {
	if cmp == nil {
		panic("sortpar: SortStableFunc with a nil cmp")
	}
	if len(opts) == 0 && len(x) < defaultStableMin {
		slices.SortStableFunc(x, cmp)
		return
	}
	c := newConfig("sortpar.SortStableFunc", opts)
	sortStableFunc([]E(x), cmp, &c)
}

// IsSorted reports whether x is sorted in ascending order, like
// slices.IsSorted; long slices are checked in parallel. It takes Sort's
// options.
func IsSorted[S ~[]E, E cmp.Ordered](x S, opts ...par.Option) bool {
	if len(opts) == 0 && len(x) < defaultCutoff {
		return slices.IsSorted(x)
	}
	c := newConfig("sortpar.IsSorted", opts)
	if len(x) < c.cutoff {
		return slices.IsSorted(x)
	}
	return core.RunValue(c.pool, func(w *core.Worker) bool {
		sorted, _ := scanOrdered(w, []E(x), false, &c)
		return sorted
	})
}

// IsSortedFunc reports whether x is sorted in ascending order as determined
// by cmp, like slices.IsSortedFunc; long slices are checked in parallel. It
// takes Sort's options.
func IsSortedFunc[S ~[]E, E any](x S, cmp func(a, b E) int, opts ...par.Option) bool {
	if cmp == nil {
		panic("sortpar: IsSortedFunc with a nil cmp")
	}
	if len(opts) == 0 && len(x) < defaultCutoff {
		return slices.IsSortedFunc(x, cmp)
	}
	c := newConfig("sortpar.IsSortedFunc", opts)
	if len(x) < c.cutoff {
		return slices.IsSortedFunc(x, cmp)
	}
	return core.RunValue(c.pool, func(w *core.Worker) bool {
		sorted, _ := scanFunc(w, []E(x), cmp, false, &c)
		return sorted
	})
}

// sortFunc is SortFunc after option handling.
//
// On a pool of one worker the sort is slices.SortFunc itself: a sequential
// samplesort saves branch mispredictions that the call of cmp costs back,
// and pdqsort is already adaptive to sorted, reversed and few-valued
// inputs, so the samplesort only ever matched it there.
func sortFunc[E any](x []E, cmp func(a, b E) int, c *config) {
	if len(x) < c.cutoff || c.pool.Workers() == 1 {
		slices.SortFunc(x, cmp)
		return
	}
	c.pool.Run(func(w *core.Worker) {
		sorted, reversed := scanFunc(w, x, cmp, false, c)
		switch {
		case sorted:
			return
		case reversed:
			reverse(w, x, c)
			return
		}
		samplesort(w, x, cmp, c.funcLeaf, c)
	})
}

// sortStableFunc is SortStableFunc after option handling.
func sortStableFunc[E any](x []E, cmp func(a, b E) int, c *config) {
	if len(x) < c.stableMin {
		slices.SortStableFunc(x, cmp)
		return
	}
	c.pool.Run(func(w *core.Worker) { sortStableFuncOn(w, x, cmp, c) })
}

// sortStableFuncOn is sortStableFunc on w, for a slice at least
// c.stableMin long.
func sortStableFuncOn[E any](w *core.Worker, x []E, cmp func(a, b E) int, c *config) {
	sorted, reversed := scanFunc(w, x, cmp, true, c)
	switch {
	case sorted:
		return
	case reversed: // strictly decreasing: no equal neighbours to keep in order
		reverse(w, x, c)
		return
	}
	mergesort(w, x, cmp, c)
}
