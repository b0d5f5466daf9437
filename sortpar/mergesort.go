package sortpar

import "github.com/gofork/gofork/core"

// Parallel stable mergesort with one buffer.
//
// msSort sorts data[lo:hi] so that the result ends in data or in buf
// (toBuf): both halves are sorted, in parallel, into the other array, then
// merged from there into the target. The merge is itself a fork-join: the
// longer run is cut at its middle element, the cut point in the shorter run
// is found by binary search, and the two sub-merges are forked. Segments of
// at most leaf elements are sorted by stableSerial (insertion-sorted blocks,
// then bottom-up buffered merges).
//
// Panics. If cmp panics, data must still hold a permutation of its
// elements. Every task of the sort (msCtx.sortTask, msCtx.mergeTask)
// recovers its own panic, records the first one (failure) and returns
// normally, so every core.Join returns only once both of its tasks are done;
// a panic left to unwind through a Join would pass the fix-up below while a
// thief still writes the other half. Once the sort has failed, tasks not yet
// started do nothing. Invariant: when msSort for [lo, hi) returns with the
// sort failed and its done flag unset, data[lo:hi] holds a permutation of
// what it held on entry. A merge never writes to the array it reads, so the
// source runs are intact while it runs; a finished half whose result lies in
// buf is copied back by the parent after its Join and merge. mergesort
// raises the first panic once core.RunValue has returned.

// msCtx is shared, read-only, by every task of one mergesort.
type msCtx[E any] struct {
	data, buf []E
	cmp       func(a, b E) int
	leaf      int // segments this short are sorted serially
	merge     *mergeCtx[E]
	// sort is c.sortTask, made once so that a fork allocates no closure.
	sort func(*core.Worker, msTask[E]) struct{}
	fail failure
}

// sortTask is msSort with its panic caught (see Panics above).
func (c *msCtx[E]) sortTask(w *core.Worker, t msTask[E]) struct{} {
	if c.fail.failed.Load() {
		return struct{}{} // data[lo:hi] untouched; done stays unset
	}
	defer c.fail.catch()
	return msSort(w, t)
}

// mergeTask is parMerge with its panic caught (see Panics above).
func (c *msCtx[E]) mergeTask(w *core.Worker, m mergeJob[E]) struct{} {
	if c.fail.failed.Load() {
		return struct{}{} // dst partly unwritten: the caller restores its sources
	}
	defer c.fail.catch()
	return parMerge(w, m)
}

// msTask asks for data[lo:hi] to be sorted into data (toBuf false) or into
// buf[lo:hi] (toBuf true). done, if not nil, is set when it finished
// without panicking.
type msTask[E any] struct {
	c      *msCtx[E]
	lo, hi int
	toBuf  bool
	done   *bool
}

// mergesort sorts x stably in parallel.
func mergesort[E any](w *core.Worker, x []E, cmp func(a, b E) int, c *config) {
	ctx := &msCtx[E]{
		data: x,
		buf:  make([]E, len(x)),
		cmp:  cmp,
		leaf: max(c.cutoff, 2),
		merge: &mergeCtx[E]{
			cmp:   cmp,
			leaf:  func(dst, a, b []E) { mergeRuns(dst, a, b, cmp) },
			grain: max(c.grain, 16),
		},
	}
	ctx.sort, ctx.merge.task = ctx.sortTask, ctx.mergeTask
	ctx.sort(w, msTask[E]{c: ctx, lo: 0, hi: len(x)})
	ctx.fail.raise() // every task has returned: x holds a permutation
}

// msSort runs one msTask.
func msSort[E any](w *core.Worker, t msTask[E]) struct{} {
	c := t.c
	n := t.hi - t.lo
	if n <= c.leaf {
		w.Poll() // a poll point per serial leaf
		d, b := c.data[t.lo:t.hi], c.buf[t.lo:t.hi]
		if inBuf := stableSerial(d, b, c.cmp); inBuf != t.toBuf {
			if inBuf {
				copy(d, b)
			} else {
				copy(b, d)
			}
		}
		if t.done != nil {
			*t.done = true
		}
		return struct{}{}
	}
	mid := t.lo + n/2
	childBuf := !t.toBuf
	left := msTask[E]{c: c, lo: t.lo, hi: mid, toBuf: childBuf}
	right := msTask[E]{c: c, lo: mid, hi: t.hi, toBuf: childBuf}
	if childBuf {
		// The halves (and, during the merge, their source runs) live in
		// buf: on a panic copy every finished half back into data.
		done := new([2]bool)
		left.done, right.done = &done[0], &done[1]
		core.Join(w, c.sort, left, c.sort, right)
		if !c.fail.failed.Load() {
			c.mergeHalves(w, t.lo, mid, t.hi, true)
		}
		if c.fail.failed.Load() {
			// The merge into data may be partial or skipped: put back
			// the finished halves, whose sources are intact in buf.
			if done[0] {
				copy(c.data[t.lo:mid], c.buf[t.lo:mid])
			}
			if done[1] {
				copy(c.data[mid:t.hi], c.buf[mid:t.hi])
			}
			return struct{}{}
		}
	} else {
		// Halves in data, merged into buf: data is never half-written.
		core.Join(w, c.sort, left, c.sort, right)
		if !c.fail.failed.Load() {
			c.mergeHalves(w, t.lo, mid, t.hi, false)
		}
		if c.fail.failed.Load() {
			return struct{}{}
		}
	}
	if t.done != nil {
		*t.done = true
	}
	return struct{}{}
}

// mergeHalves merges the sorted runs [lo, mid) and [mid, hi) of buf (if
// fromBuf) or data into [lo, hi) of the other array, in parallel.
func (c *msCtx[E]) mergeHalves(w *core.Worker, lo, mid, hi int, fromBuf bool) {
	src, dst := c.data, c.buf
	if fromBuf {
		src, dst = dst, src
	}
	c.merge.task(w, mergeJob[E]{c.merge, dst[lo:hi], src[lo:mid], src[mid:hi]})
}

// lowerBound returns the first index k in [lo, hi) with !(src[k] < v), or hi.
func lowerBound[E any](src []E, lo, hi int, v E, cmp func(a, b E) int) int {
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if cmp(src[h], v) < 0 {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// upperBound returns the first index k in [lo, hi) with v < src[k], or hi.
func upperBound[E any](src []E, lo, hi int, v E, cmp func(a, b E) int) int {
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if cmp(v, src[h]) < 0 {
			hi = h
		} else {
			lo = h + 1
		}
	}
	return lo
}

// stableBlock is the length of the runs stableSerial insertion-sorts
// before merging.
const stableBlock = 24

// stableSerial sorts d stably using s (same length) as scratch and reports
// whether the result ended in s. If cmp panics, d holds a permutation of its
// elements: insertion sort only swaps, and a merge pass never writes the
// array it reads, so the source of an interrupted pass is copied back.
func stableSerial[E any](d, s []E, cmp func(a, b E) int) (inBuf bool) {
	n := len(d)
	for b := 0; b < n; b += stableBlock {
		e := min(b+stableBlock, n)
		// A strictly decreasing block (no ties, so stability is not at
		// stake) is reversed instead of insertion-sorted in quadratic time.
		desc := true
		for i := b + 1; i < e && desc; i++ {
			desc = cmp(d[i], d[i-1]) < 0
		}
		if desc {
			reverseRange(d, b, e)
		} else {
			insertionSort(d, b, e, cmp)
		}
	}
	src, dst := d, s
	ok := false
	defer func() {
		if !ok && inBuf {
			copy(d, s)
		}
	}()
	// Every step adds at most what is left up to n, so no sum passes n and
	// nothing overflows (where int has 32 bits, lo+2*width would from
	// n > 2^31/3 on, and width*2 from n > 2^30). width doubles, or becomes n
	// and ends the loop.
	for width := stableBlock; width < n; width += min(width, n-width) {
		for lo := 0; lo < n; {
			mid := lo + min(width, n-lo)
			hi := mid + min(width, n-mid)
			mergeRuns(dst[lo:hi], src[lo:mid], src[mid:hi], cmp)
			lo = hi
		}
		src, dst = dst, src
		inBuf = !inBuf
	}
	ok = true
	return inBuf
}

// insertionSort sorts data[a:b] by adjacent swaps (so a panicking cmp
// leaves a permutation).
func insertionSort[E any](data []E, a, b int, cmp func(a, b E) int) {
	for i := a + 1; i < b; i++ {
		for j := i; j > a && cmp(data[j], data[j-1]) < 0; j-- {
			data[j], data[j-1] = data[j-1], data[j]
		}
	}
}

// reverseRange reverses data[a:b].
func reverseRange[E any](data []E, a, b int) {
	for i, j := a, b-1; i < j; i, j = i+1, j-1 {
		data[i], data[j] = data[j], data[i]
	}
}
