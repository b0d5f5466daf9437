package sortpar

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// SortStableByKey sorts s by key(e), in ascending order of the keys,
// keeping elements with equal keys in their original order, in parallel:
// the order of slices.SortStableFunc with cmp.Compare on the keys (floats:
// NaNs first, -0 equal to +0; strings: lexicographic by bytes). For
// integer and float keys it is a radix sort (the integer sort of PBBS and
// ParlayLib) and never compares elements; string keys are sorted by the
// stable mergesort of SortStableFunc. It takes Sort's options.
//
// key is called exactly once per element, from several workers at once,
// before anything moves: if it panics, the panic reaches the caller and s is
// unchanged. For integer and float keys the sort allocates 16 bytes plus
// one element per element of s: the keys and a buffer for each; for string
// keys, 48 bytes (the keys with their positions, twice) plus one element.
func SortStableByKey[S ~[]E, E any, K cmp.Ordered](s S, key func(E) K, opts ...par.Option) {
	if key == nil {
		panic("sortpar: SortStableByKey with a nil key")
	}
	c := newConfig("sortpar.SortStableByKey", opts)
	n := len(s)
	if n < 2 {
		return
	}
	kw := newKeyWords[K]()
	if kw.strings() {
		c.pool.Run(func(w *core.Worker) { sortStableByStringKey(w, []E(s), key, &c) })
		return
	}
	// Keys are mapped to uint64 words that order as unsigned numbers the
	// way cmp.Compare orders the keys (keyWords.word): equal keys, and
	// only those, get equal words.
	keys := make([]uint64, n)
	extract := func(lo, hi int) (first, diff uint64) {
		for i, e := range s[lo:hi] {
			keys[lo+i] = kw.word(key(e), 0)
		}
		first = keys[lo]
		for _, k := range keys[lo+1 : hi] {
			diff |= k ^ first
		}
		return first, diff
	}
	r := &kvSort[E]{
		grain:   c.grain,
		workers: c.pool.Workers(),
		parMin:  max(4*c.grain, 2),
	}
	r.keys[0], r.elems[0] = keys, s
	if n < c.cutoff || r.workers == 1 {
		_, diff := extract(0, n)
		if diff == 0 {
			return // every key equal: already sorted, stably
		}
		r.alloc(n, n > kvInsertion)
		r.sortSerial(0, n, 0, (bits.Len64(diff)-1)/8)
		return
	}
	c.pool.Run(func(w *core.Worker) {
		k := chunks(n, c.grain, r.workers)
		firsts, diffs := make([]uint64, k), make([]uint64, k)
		forChunks(w, n, k, func(i, lo, hi int) {
			firsts[i], diffs[i] = extract(lo, hi)
		})
		var diff uint64
		for i := range k {
			diff |= diffs[i] | (firsts[i] ^ firsts[0])
		}
		if diff != 0 {
			r.alloc(n, true)
			r.sortPar(w, 0, n, 0, (bits.Len64(diff)-1)/8)
		}
	})
}

// kvInsertion is the length up to which a range is insertion sorted instead
// of split on a byte.
const kvInsertion = 32

// kvSort is shared by every task of one SortStableByKey. The keys and the
// elements live in two sides, ping-ponged between by the radix passes:
// side 0 is the keys array and the slice being sorted, side 1 the buffers.
// A range is sorted, in whichever side it lies, on the bytes d..0 of its
// keys (the bytes above d being equal across the range), and its elements
// end in side 0.
type kvSort[E any] struct {
	keys    [2][]uint64
	elems   [2][]E
	parMin  int // ranges this long count and scatter in parallel
	grain   int
	workers int
}

// alloc makes the buffers of side 1, if any range will be split.
func (r *kvSort[E]) alloc(n int, split bool) {
	if split {
		r.keys[1], r.elems[1] = make([]uint64, n), make([]E, n)
	}
}

// sortPar sorts [lo, hi) of side on bytes d..0: split on the highest byte
// that varies, counting and scattering in parallel if the range is long,
// then each bucket in parallel.
func (r *kvSort[E]) sortPar(w *core.Worker, lo, hi, side, d int) {
	if hi-lo < r.parMin {
		r.sortSerial(lo, hi, side, d)
		return
	}
	d, starts := r.splitPar(w, lo, hi, side, d)
	if d < 0 {
		r.done(lo, hi, side)
		return
	}
	forEach(w, 256, func(w *core.Worker, b int) {
		if blo, bhi := lo+starts[b], lo+starts[b+1]; blo < bhi {
			r.sortPar(w, blo, bhi, 1-side, d-1)
		}
	})
}

// sortSerial is sortPar on one worker.
func (r *kvSort[E]) sortSerial(lo, hi, side, d int) {
	if hi-lo <= kvInsertion {
		if d >= 0 {
			insertionKV(r.keys[side][lo:hi], r.elems[side][lo:hi])
		}
		r.done(lo, hi, side)
		return
	}
	var starts [257]int
	d = r.split(lo, hi, side, d, &starts)
	if d < 0 {
		r.done(lo, hi, side)
		return
	}
	for b := range 256 {
		if blo, bhi := lo+starts[b], lo+starts[b+1]; blo < bhi {
			r.sortSerial(blo, bhi, 1-side, d-1)
		}
	}
}

// done moves the sorted elements of [lo, hi) to side 0 if they are in side 1.
func (r *kvSort[E]) done(lo, hi, side int) {
	if side == 1 {
		copy(r.elems[0][lo:hi], r.elems[1][lo:hi])
	}
}

// split scatters [lo, hi) of side, stably, into the other side by the
// highest byte at or below d that varies in the range, fills starts with the
// bucket starts (relative to lo, starts[256] = hi-lo) and returns that byte,
// or -1 (moving nothing) if every key of the range is the same.
func (r *kvSort[E]) split(lo, hi, side, d int, starts *[257]int) int {
	ks, es := r.keys[side][lo:hi], r.elems[side][lo:hi]
	kd, ed := r.keys[1-side][lo:hi], r.elems[1-side][lo:hi]
	var cnt [256]int
	shift := uint(d) * 8
	k0 := ks[0]
	var diff uint64
	for _, k := range ks {
		cnt[uint8(k>>shift)]++
		diff |= k ^ k0
	}
	if cnt[uint8(k0>>shift)] == len(ks) { // byte d is the same everywhere
		if diff == 0 {
			return -1
		}
		d = (bits.Len64(diff) - 1) / 8
		shift = uint(d) * 8
		cnt = [256]int{}
		for _, k := range ks {
			cnt[uint8(k>>shift)]++
		}
	}
	sum := 0
	for b, c := range cnt {
		starts[b] = sum
		cnt[b] = sum
		sum += c
	}
	starts[256] = sum
	ed = ed[:len(es)]
	for i, k := range ks {
		b := uint8(k >> shift)
		j := cnt[b]
		kd[j] = k
		ed[j] = es[i]
		cnt[b] = j + 1
	}
	return d
}

// splitPar is split with the counting and the scatter cut into chunks run in
// parallel: each chunk counts its keys per bucket, the counts are summed
// bucket by bucket, chunk by chunk, and each chunk scatters its elements to
// its own slots (so the scatter stays stable).
func (r *kvSort[E]) splitPar(w *core.Worker, lo, hi, side, d int) (int, *[257]int) {
	n := hi - lo
	ks, es := r.keys[side][lo:hi], r.elems[side][lo:hi]
	kd, ed := r.keys[1-side][lo:hi], r.elems[1-side][lo:hi]
	k := chunks(n, r.grain, r.workers)
	counts := make([][256]int, k)
	diffs := make([]uint64, k)
	k0 := ks[0]
	count := func(shift uint) {
		forChunks(w, n, k, func(i, clo, chi int) {
			cnt := &counts[i]
			*cnt = [256]int{}
			var diff uint64
			for _, key := range ks[clo:chi] {
				cnt[uint8(key>>shift)]++
				diff |= key ^ k0
			}
			diffs[i] = diff
		})
	}
	shift := uint(d) * 8
	count(shift)
	if bucketTotal(counts, uint8(k0>>shift)) == n { // byte d is the same everywhere
		var diff uint64
		for _, df := range diffs {
			diff |= df
		}
		if diff == 0 {
			return -1, nil
		}
		d = (bits.Len64(diff) - 1) / 8
		shift = uint(d) * 8
		count(shift)
	}
	starts := bucketOffsets(counts)
	forChunks(w, n, k, func(i, clo, chi int) {
		off := &counts[i]
		for j, key := range ks[clo:chi] {
			b := uint8(key >> shift)
			p := off[b]
			kd[p] = key
			ed[p] = es[clo+j]
			off[b] = p + 1
		}
	})
	return d, starts
}

// insertionKV sorts keys, moving elems alike, stably.
func insertionKV[E any](keys []uint64, elems []E) {
	elems = elems[:len(keys)]
	for i := 1; i < len(keys); i++ {
		k, e := keys[i], elems[i]
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j] = keys[j-1]
			elems[j] = elems[j-1]
		}
		keys[j], elems[j] = k, e
	}
}

// sortStableByStringKey is SortStableByKey for string keys: the keys are
// read once, in parallel, with their positions; the (key, position) pairs
// are sorted stably by key; the elements are gathered in that order into a
// buffer and copied back.
func sortStableByStringKey[E any, K cmp.Ordered](w *core.Worker, s []E, key func(E) K, c *config) {
	n := len(s)
	pairs := make([]keyIndex[K], n)
	buf := make([]E, n)
	k := chunks(n, c.grain, c.pool.Workers())
	forChunks(w, n, k, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			pairs[j] = keyIndex[K]{key(s[j]), j}
		}
	})
	byKey := func(a, b keyIndex[K]) int { return cmp.Compare(a.k, b.k) }
	if n < c.stableMin || c.pool.Workers() == 1 {
		slices.SortStableFunc(pairs, byKey)
	} else {
		sortStableFuncOn(w, pairs, byKey, c)
	}
	forChunks(w, n, k, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			buf[j] = s[pairs[j].i]
		}
	})
	copy(s, buf)
}
