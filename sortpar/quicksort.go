package sortpar

import (
	"math/bits"

	"github.com/gofork/gofork/core"
)

// qsCtx is shared, read-only, by every task of one quicksort.
type qsCtx[E any] struct {
	data []E
	cmp  func(a, b E) int
	// leaf sorts a range shorter than cutoff serially (slices.SortFunc or
	// slices.Sort: pdqsort with insertion sort for tiny parts).
	leaf         func([]E)
	cutoff       int
	parPartition int
	grain        int
	workers      int
	// run is qsRun[E], made once so that a fork allocates no closure.
	run func(*core.Worker, qsTask[E]) struct{}
}

// qsTask is one range data[a:b] to sort, with pdqsort's state.
type qsTask[E any] struct {
	c              *qsCtx[E]
	a, b           int
	limit          int  // bad pivots left before heapsort
	wasBalanced    bool // the last partition was reasonably balanced
	wasPartitioned bool // the last partition moved nothing
}

// quicksort sorts x with a parallel pdqsort: each partition step forks the
// two sides with core.Join; long ranges are partitioned by all workers
// together (partition.go); short ranges go to leaf.
func quicksort[E any](x []E, cmp func(a, b E) int, leaf func([]E), c *config) {
	ctx := &qsCtx[E]{
		data:         x,
		cmp:          cmp,
		leaf:         leaf,
		cutoff:       max(c.cutoff, 12),
		parPartition: c.parPartition,
		grain:        c.grain,
		workers:      c.pool.Workers(),
		run:          qsRun[E],
	}
	c.pool.Run(func(w *core.Worker) {
		qsRun(w, qsTask[E]{c: ctx, a: 0, b: len(x), limit: bits.Len(uint(len(x))), wasBalanced: true, wasPartitioned: true})
	})
}

// qsRun sorts data[t.a:t.b]. It follows pdqsortCmpFunc step by step, except
// that both sides of a partition are forked and long ranges are partitioned
// in parallel. Every data movement is a swap, so if cmp panics the slice is
// still a permutation.
func qsRun[E any](w *core.Worker, t qsTask[E]) struct{} {
	c := t.c
	data, cmp := c.data, c.cmp
	a, b, limit := t.a, t.b, t.limit
	wasBalanced, wasPartitioned := t.wasBalanced, t.wasPartitioned
	for {
		w.Poll() // a poll point per partition step
		length := b - a
		if length < c.cutoff {
			c.leaf(data[a:b])
			return struct{}{}
		}
		// Too many bad pivots: the input fights the pivot choice.
		if limit == 0 {
			heapSort(data, a, b, cmp)
			return struct{}{}
		}
		if !wasBalanced {
			breakPatterns(data, a, b)
			limit--
		}
		pivot, hint := choosePivot(data, a, b, cmp)
		if hint == decreasingHint {
			reverseRange(data, a, b)
			pivot = (b - 1) - (pivot - a)
			hint = increasingHint
		}
		// The range is likely already sorted.
		if wasBalanced && wasPartitioned && hint == increasingHint {
			if partialInsertionSort(data, a, b, cmp) {
				return struct{}{}
			}
		}
		// Long ranges take the median of a pseudo-random sample instead:
		// the ninther's fixed positions can all land on extremes of a
		// periodic input (sawtooth), and a bad split this high serializes
		// the sort.
		if length >= sampleMin {
			pivot = sampleMedian(data, a, b, cmp)
		}
		// data[a-1] is the pivot of an enclosing partition (or an element
		// equal to one), fixed for the rest of the sort: no race reading it.
		// If it is not less than our pivot, the range holds many copies of
		// it: put those first and go on with the greater ones.
		if a > 0 && !(cmp(data[a-1], data[pivot]) < 0) {
			if length >= c.parPartition && c.workers > 1 {
				a = partitionEqualParallel(w, c, a, b, pivot)
			} else {
				a = partitionEqual(data, a, b, pivot, cmp)
			}
			continue
		}
		var mid int
		if length >= c.parPartition && c.workers > 1 {
			mid, wasPartitioned = partitionParallel(w, c, a, b, pivot)
		} else {
			mid, wasPartitioned = partitionSerial(data, a, b, pivot, cmp)
		}
		leftLen, rightLen := mid-a, b-mid
		// As in pdqsort, a partition is balanced when its smaller side holds
		// at least an eighth; both sides inherit the verdict.
		wasBalanced = min(leftLen, rightLen) >= length/8
		left := qsTask[E]{c: c, a: a, b: mid, limit: limit, wasBalanced: wasBalanced, wasPartitioned: wasPartitioned}
		right := qsTask[E]{c: c, a: mid + 1, b: b, limit: limit, wasBalanced: wasBalanced, wasPartitioned: wasPartitioned}
		// Run the smaller side first so the larger one is the one offered
		// to thieves.
		if leftLen > rightLen {
			left, right = right, left
		}
		core.Join(w, c.run, left, c.run, right)
		return struct{}{}
	}
}

// sampleMin is the range length from which qsRun picks its pivot as the
// median of pivotSamples pseudo-random elements.
const sampleMin = 1 << 14

// pivotSamples is the sample size of sampleMedian (odd).
const pivotSamples = 31

// sampleMedian returns the index of the median of pivotSamples elements of
// data[a:b] at pseudo-random positions (seeded by the range, so runs are
// reproducible). It costs about pivotSamples²/4 comparisons.
func sampleMedian[E any](data []E, a, b int, cmp func(a, b E) int) int {
	var idx [pivotSamples]int
	r := xorshift(uint64(a)*0x9E3779B97F4A7C15 ^ uint64(b) | 1)
	for i := range idx {
		idx[i] = a + int(r.Next()%uint64(b-a))
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && cmp(data[idx[j]], data[idx[j-1]]) < 0; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	return idx[pivotSamples/2]
}
