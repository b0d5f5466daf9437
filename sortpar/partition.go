package sortpar

import "github.com/gofork/gofork/core"

// Parallel partition: the block-based scheme of Tsigas and Zhang ("A simple,
// fast parallel implementation of quicksort", 2003) in its simplest form.
//
//  1. Cut data[a+1:b] into k chunks; partition every chunk on its own around
//     the pivot value, in parallel. Chunk i ends as [lo_i, m_i) < p and
//     [m_i, hi_i) >= p.
//  2. The number of elements < p, L, fixes the global split s = a+1+L.
//     Elements >= p that lie left of s and elements < p that lie right of s
//     are "misplaced"; there are equally many of each. Listing them as spans
//     in index order, the j-th misplaced element on the left is swapped with
//     the j-th on the right, in parallel over ranges of j.
//  3. The pivot is swapped from data[a] to data[s-1].
//
// partitionEqualParallel runs steps 1 and 2 with "not greater than p" as
// the left predicate, for ranges with many copies of the pivot.
//
// Every move is a swap, so a panicking cmp leaves a permutation.

// span is the index range [lo, hi).
type span struct{ lo, hi int }

// partitionParallel partitions data[a:b] around data[pivot] with all
// workers and returns the pivot's final index, like partitionSerial.
func partitionParallel[E any](w *core.Worker, c *qsCtx[E], a, b, pivot int) (newpivot int, alreadyPartitioned bool) {
	s, already := partitionBlocks(w, c, a, b, pivot, false)
	// Step 3.
	newpivot = s - 1
	c.data[a], c.data[newpivot] = c.data[newpivot], c.data[a]
	return newpivot, already
}

// partitionEqualParallel is partitionEqual with all workers: data[a:b]
// holds nothing less than p = data[pivot]; the elements equal to p are
// moved to the front and the index of the first greater one is returned.
func partitionEqualParallel[E any](w *core.Worker, c *qsCtx[E], a, b, pivot int) (newpivot int) {
	s, _ := partitionBlocks(w, c, a, b, pivot, true)
	return s
}

// partitionBlocks swaps the pivot to data[a] and does steps 1 and 2 on
// data[a+1:b] with the left predicate x < p, or x <= p (that is !(p < x))
// if equal is set. It returns the split s (data[a+1:s] is left, data[s:b]
// right) and whether nothing moved.
func partitionBlocks[E any](w *core.Worker, c *qsCtx[E], a, b, pivot int, equal bool) (s int, alreadyPartitioned bool) {
	data, cmp := c.data, c.cmp
	data[a], data[pivot] = data[pivot], data[a]
	p := data[a] // read-only copy for the chunk tasks
	lo, n := a+1, b-(a+1)
	k := chunks(n, c.grain, c.workers)
	splits := make([]int, k)
	moved := make([]bool, k)
	// Step 1: every chunk task writes only its own splits[i], moved[i] and
	// chunk; Join orders those writes before the reads below.
	parFor(w, k, func(_ *core.Worker, i int) {
		clo, chi := chunkBounds(n, k, i)
		if equal {
			splits[i], moved[i] = partitionChunkEqual(data, lo+clo, lo+chi, p, cmp)
		} else {
			splits[i], moved[i] = partitionChunk(data, lo+clo, lo+chi, p, cmp)
		}
	})
	less := 0
	for i := range k {
		clo, _ := chunkBounds(n, k, i)
		less += splits[i] - (lo + clo)
	}
	s = lo + less
	// Step 2: list the misplaced spans.
	var left, right []span
	misplaced := 0
	anyMoved := false
	for i := range k {
		clo, chi := chunkBounds(n, k, i)
		clo, chi = lo+clo, lo+chi
		m := splits[i]
		anyMoved = anyMoved || moved[i]
		if x, y := max(m, clo), min(chi, s); x < y { // right kind, left of s
			left = append(left, span{x, y})
			misplaced += y - x
		}
		if x, y := max(clo, s), min(m, b); x < y { // left kind, right of s
			right = append(right, span{x, y})
		}
	}
	if misplaced > 0 {
		pieces := chunks(misplaced, c.grain, c.workers)
		parFor(w, pieces, func(_ *core.Worker, i int) {
			from, to := chunkBounds(misplaced, pieces, i)
			swapSpans(data, left, right, from, to)
		})
	}
	return s, !anyMoved && misplaced == 0
}

// partitionChunk partitions data[lo:hi] around the value p: afterwards
// data[lo:m] < p <= data[m:hi]. moved reports whether anything was swapped.
func partitionChunk[E any](data []E, lo, hi int, p E, cmp func(a, b E) int) (m int, moved bool) {
	i, j := lo, hi-1
	for {
		for i <= j && cmp(data[i], p) < 0 {
			i++
		}
		for i <= j && !(cmp(data[j], p) < 0) {
			j--
		}
		if i > j {
			return i, moved
		}
		data[i], data[j] = data[j], data[i]
		moved = true
		i++
		j--
	}
}

// partitionChunkEqual partitions data[lo:hi] into the elements not greater
// than p, then the greater ones, and returns where the greater ones start.
// It is partitionChunk with the predicate mirrored, written out: one loop
// taking the predicate as a flag tested per element ran 10% slower on 1M
// ints (BenchmarkZZChunk, a scratch benchmark, 7.2 against 8.0 ms).
func partitionChunkEqual[E any](data []E, lo, hi int, p E, cmp func(a, b E) int) (m int, moved bool) {
	i, j := lo, hi-1
	for {
		for i <= j && !(cmp(p, data[i]) < 0) {
			i++
		}
		for i <= j && cmp(p, data[j]) < 0 {
			j--
		}
		if i > j {
			return i, moved
		}
		data[i], data[j] = data[j], data[i]
		moved = true
		i++
		j--
	}
}

// swapSpans swaps the misplaced elements with ordinals [from, to): the
// j-th element of the concatenated left spans with the j-th of the right.
func swapSpans[E any](data []E, left, right []span, from, to int) {
	li, lpos := seekSpan(left, from)
	ri, rpos := seekSpan(right, from)
	for n := to - from; n > 0; {
		// Swap the longest run both current spans allow.
		run := min(n, left[li].hi-lpos, right[ri].hi-rpos)
		for j := range run {
			data[lpos+j], data[rpos+j] = data[rpos+j], data[lpos+j]
		}
		n -= run
		lpos += run
		rpos += run
		if n > 0 {
			if lpos == left[li].hi {
				li++
				lpos = left[li].lo
			}
			if rpos == right[ri].hi {
				ri++
				rpos = right[ri].lo
			}
		}
	}
}

// seekSpan returns the span index and the data index of ordinal ord in the
// concatenation of spans.
func seekSpan(spans []span, ord int) (int, int) {
	for i, sp := range spans {
		if l := sp.hi - sp.lo; ord < l {
			return i, sp.lo + ord
		} else {
			ord -= l
		}
	}
	last := len(spans) - 1
	return last, spans[last].hi
}
