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
// elements. Invariant: when msSort for [lo, hi) stops by a panic,
// data[lo:hi] holds a permutation of what it held on entry. A merge never
// writes to the array it reads, so the source runs are intact while it
// runs; a finished half whose result lies in buf is copied back by the
// parent's deferred fix-up. This relies on core.Join returning (normally or
// by panic) only once both of its tasks are done.

// msCtx is shared, read-only, by every task of one mergesort.
type msCtx[E any] struct {
	data, buf []E
	cmp       func(a, b E) int
	leaf      int // segments this short are sorted serially
	grain     int // merges this short are done serially
	// sort and merge are msSort[E] and msMerge[E], made once so that a
	// fork allocates no closure.
	sort  func(*core.Worker, msTask[E]) struct{}
	merge func(*core.Worker, mergeTask[E]) struct{}
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

// mergeTask merges the sorted runs src[a0:a1] and src[b0:b1] into dst from
// index d on, where src is buf if fromBuf and data otherwise.
type mergeTask[E any] struct {
	c              *msCtx[E]
	a0, a1, b0, b1 int
	d              int
	fromBuf        bool
}

// mergesort sorts x stably in parallel.
func mergesort[E any](x []E, cmp func(a, b E) int, c *config) {
	ctx := &msCtx[E]{
		data:  x,
		buf:   make([]E, len(x)),
		cmp:   cmp,
		leaf:  max(c.cutoff, 2),
		grain: max(c.grain, 16), // >= 16 so every merge split makes progress
		sort:  msSort[E],
		merge: msMerge[E],
	}
	core.Run(c.pool, func(w *core.Worker) struct{} {
		return msSort(w, msTask[E]{c: ctx, lo: 0, hi: len(x)})
	})
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
		ok := false
		defer func() {
			if ok {
				return
			}
			if done[0] {
				copy(c.data[t.lo:mid], c.buf[t.lo:mid])
			}
			if done[1] {
				copy(c.data[mid:t.hi], c.buf[mid:t.hi])
			}
		}()
		core.Join(w, c.sort, left, c.sort, right)
		msMerge(w, mergeTask[E]{c: c, a0: t.lo, a1: mid, b0: mid, b1: t.hi, d: t.lo, fromBuf: true})
		ok = true
	} else {
		// Halves in data, merged into buf: data is never half-written.
		core.Join(w, c.sort, left, c.sort, right)
		msMerge(w, mergeTask[E]{c: c, a0: t.lo, a1: mid, b0: mid, b1: t.hi, d: t.lo, fromBuf: false})
	}
	if t.done != nil {
		*t.done = true
	}
	return struct{}{}
}

// msMerge runs one mergeTask, forking while it is longer than grain.
func msMerge[E any](w *core.Worker, m mergeTask[E]) struct{} {
	c := m.c
	src, dst := c.data, c.buf
	if m.fromBuf {
		src, dst = dst, src
	}
	na, nb := m.a1-m.a0, m.b1-m.b0
	if na+nb <= c.grain {
		w.Poll() // a poll point per serial merge
		mergeSerial(src, m.a0, m.a1, m.b0, m.b1, dst, m.d, c.cmp)
		return struct{}{}
	}
	// Cut the longer run at its middle; everything before both cuts
	// precedes everything after them in the stable merged order.
	var i, j int
	if na >= nb {
		i = m.a0 + na/2
		j = lowerBound(src, m.b0, m.b1, src[i], c.cmp) // b-elements < src[i] go first
	} else {
		j = m.b0 + nb/2
		i = upperBound(src, m.a0, m.a1, src[j], c.cmp) // a-elements <= src[j] go first
	}
	d2 := m.d + (i - m.a0) + (j - m.b0)
	core.Join(w,
		c.merge, mergeTask[E]{c: c, a0: m.a0, a1: i, b0: m.b0, b1: j, d: m.d, fromBuf: m.fromBuf},
		c.merge, mergeTask[E]{c: c, a0: i, a1: m.a1, b0: j, b1: m.b1, d: d2, fromBuf: m.fromBuf})
	return struct{}{}
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

// mergeSerial merges src[a0:a1] and src[b0:b1] into dst[d:], taking from
// the first run on ties (stable).
func mergeSerial[E any](src []E, a0, a1, b0, b1 int, dst []E, d int, cmp func(a, b E) int) {
	// Runs already in order, or in reverse order with no ties between
	// them, are just copied: presorted inputs merge in O(n).
	if a0 < a1 && b0 < b1 {
		if !(cmp(src[b0], src[a1-1]) < 0) {
			copy(dst[d+copy(dst[d:], src[a0:a1]):], src[b0:b1])
			return
		}
		if cmp(src[b1-1], src[a0]) < 0 {
			copy(dst[d+copy(dst[d:], src[b0:b1]):], src[a0:a1])
			return
		}
	}
	i, j, k := a0, b0, d
	for i < a1 && j < b1 {
		if cmp(src[j], src[i]) < 0 {
			dst[k] = src[j]
			j++
		} else {
			dst[k] = src[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], src[i:a1])
	copy(dst[k:], src[j:b1])
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
			mergeSerial(src, lo, mid, mid, hi, dst, lo, cmp)
			lo = hi
		}
		src, dst = dst, src
		inBuf = !inBuf
	}
	ok = true
	return inBuf
}
