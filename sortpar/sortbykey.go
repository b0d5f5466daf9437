package sortpar

import (
	"cmp"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// SortByKey sorts s in ascending order of key(e), as
// slices.SortFunc(s, func(a, b E) int { return cmp.Compare(key(a), key(b)) })
// would, in parallel and in place. It never compares elements: it is a
// most-significant-digit radix sort on the keys' bytes (see the package
// doc, "Sorting by key"). Floats are ordered as cmp.Compare orders them:
// NaNs first (and equal to each other), -0 equal to +0. Strings are ordered
// lexicographically by bytes. The sort is not stable: elements with equal
// keys end in no particular order. It takes Sort's options.
//
// Besides s, the sort uses about 0.5 MiB per worker and one byte per 2 KiB
// of s, whatever the length of s; slices of at most a few hundred elements
// are sorted with a buffer of their own length.
//
// key is called from several workers at once, once per element in each
// pass over the element's range (a scan, a split, a leaf): at most w+2
// times per element for a w-byte integer or float key, at most
// 2+9·(⌊ℓ/7⌋+1) times for a string key of ℓ bytes (a scan and up to eight
// splits per seven bytes). The sort is correct whatever key returns:
// if it is not a function of the element (it answers differently from one
// call to the next), s ends as a permutation of its elements in an
// unspecified order; if key panics, the panic reaches the caller and s
// holds a permutation of its elements.
func SortByKey[S ~[]E, E any, K cmp.Ordered](s S, key func(E) K, opts ...par.Option) {
	if key == nil {
		panic("sortpar: SortByKey with a nil key")
	}
	c := newConfig("sortpar.SortByKey", opts)
	if len(s) < 2 {
		return
	}
	ks := newKeySort([]E(s), key, &c)
	ks.sort(&c)
	ks.fail.raise()
}

// keyLeaf is the default length up to which a range is sorted as a leaf:
// its words and its elements' positions are put in arrays, those are
// sorted, and the elements gathered through a buffer.
const keyLeaf = 512

// keySort is shared by every task of one SortByKey.
type keySort[E any, K cmp.Ordered] struct {
	data    []E
	key     func(E) K
	kw      keyWords[K]
	b       int // block length
	leafMax int // ranges this short are sorted as leaves
	stripe  int // partitions take one stripe per this many elements (and per worker)
	grain   int
	workers int
	scratch keyScratch[E, K]
	fail    failure
}

func newKeySort[E any, K cmp.Ordered](s []E, key func(E) K, c *config) *keySort[E, K] {
	var e E
	b := c.blockLen(unsafe.Sizeof(e))
	ks := &keySort[E, K]{
		data:    s,
		key:     key,
		kw:      newKeyWords[K](),
		b:       b,
		leafMax: keyLeaf,
		stripe:  4 * maxBuckets * b,
		grain:   c.grain,
		workers: c.pool.Workers(),
	}
	if c.cutoff != defaultCutoff { // par.Grain: make the partitions reachable on short inputs
		ks.leafMax = max(c.cutoff/4, 2)
	}
	ks.leafMax = min(ks.leafMax, maxBuckets*b)
	ks.scratch.parts = newScratch[E](b)
	ks.scratch.leafMax = ks.leafMax
	return ks
}

// word returns word d of e's key.
func (ks *keySort[E, K]) word(e E, d int) uint64 { return ks.kw.word(ks.key(e), d) }

// sort sorts ks.data; a panic of key is left in ks.fail.
func (ks *keySort[E, K]) sort(c *config) {
	n := len(ks.data)
	if n <= ks.leafMax {
		ws := &keyLeafSpace[E, K]{buf: make([]E, n)}
		if ks.kw.strings() {
			ws.pairs = make([]keyIndex[K], n)
		} else {
			ws.words, ws.packed, ws.sorted = make([]uint64, n), make([]uint64, n), make([]uint64, n)
		}
		func() {
			defer ks.fail.catch()
			ks.leaf(ws, ks.data)
		}()
		return
	}
	c.pool.Run(func(w *core.Worker) {
		sc := ks.scan(w, 0, n, 0)
		switch {
		case ks.fail.failed.Load() || sc.sorted:
			return
		case sc.reversed:
			reverse(w, ks.data, c)
			return
		}
		ks.sortRange(w, 0, n, sc.depth, sc.vary, 0)
	})
}

// scanResult is what a scan of a range learnt.
type scanResult struct {
	sorted, reversed bool   // the keys are non-decreasing, non-increasing
	depth            int    // the word to split on
	vary             uint64 // the bits of that word that may vary (0: none)
	word             uint64 // the word, if no bit varies
}

// scan reads the keys of [lo, hi), in parallel chunks if it is long: for
// numbers it finds the bits of the words that vary, for strings the
// longest prefix every key shares (from which the word and byte to split
// on follow), never looking below the word depth. It also reports whether
// the keys are sorted or reversed.
func (ks *keySort[E, K]) scan(w *core.Worker, lo, hi, depth int) scanResult {
	n := hi - lo
	data := ks.data[lo:hi]
	strs := ks.kw.strings()
	type part struct {
		first, last K
		sorted, rev bool
		and, or     uint64
		lcp         int // of the chunk's keys
	}
	k := chunks(n, ks.grain, ks.workers)
	parts := make([]part, k)
	forChunks(w, n, k, func(i, clo, chi int) {
		defer ks.fail.catch()
		pt := part{sorted: true, rev: true, and: ^uint64(0)}
		pt.first = ks.key(data[clo])
		prev, ref := pt.first, ks.kw.stringOf(pt.first)
		pt.lcp = len(ref)
		if !strs {
			pt.and = ks.kw.word(prev, 0)
			pt.or = pt.and
		}
		for _, e := range data[clo+1 : chi] {
			key := ks.key(e)
			if c := cmp.Compare(prev, key); c < 0 {
				pt.rev = false
			} else if c > 0 {
				pt.sorted = false
			}
			prev = key
			if strs {
				pt.lcp = commonPrefix(ref, ks.kw.stringOf(key), pt.lcp)
			} else {
				v := ks.kw.word(key, 0)
				pt.and &= v
				pt.or |= v
			}
		}
		pt.last = prev
		parts[i] = pt
	})
	if ks.fail.failed.Load() {
		return scanResult{}
	}
	r := scanResult{sorted: true, reversed: true}
	and, or := ^uint64(0), uint64(0)
	ref := ks.kw.stringOf(parts[0].first)
	lcp := len(ref)
	for i, pt := range parts {
		r.sorted = r.sorted && pt.sorted
		r.reversed = r.reversed && pt.rev
		if i > 0 {
			if c := cmp.Compare(parts[i-1].last, pt.first); c < 0 {
				r.reversed = false
			} else if c > 0 {
				r.sorted = false
			}
		}
		and &= pt.and
		or |= pt.or
		// The keys of chunk i share pt.lcp bytes with its first key.
		lcp = min(lcp, pt.lcp, commonPrefix(ref, ks.kw.stringOf(pt.first), lcp))
	}
	if !strs {
		r.vary, r.word = and^or, and
		return r
	}
	// Every key shares lcp bytes: the first byte that may differ is byte
	// lcp%7 of word lcp/7.
	r.depth = lcp / 7
	if r.depth < depth { // only for an inconsistent key
		r.depth, r.vary = depth, ^uint64(0)
		return r
	}
	shift := 56 - 8*uint(lcp%7)
	r.vary = uint64(1)<<(shift+8) - 1 // all ones for shift 56
	return r
}

// commonPrefix returns the length of the common prefix of a and b, at most
// limit.
func commonPrefix(a, b string, limit int) int {
	limit = min(limit, len(a), len(b))
	i := 0
	for i+8 <= limit && a[i:i+8] == b[i:i+8] {
		i += 8
	}
	for i < limit && a[i] == b[i] {
		i++
	}
	return i
}

// sortRange sorts [lo, hi) of the slice, whose keys agree on every word
// before depth and on every bit of word depth outside vary; if vary is 0,
// word is that word.
func (ks *keySort[E, K]) sortRange(w *core.Worker, lo, hi, depth int, vary, word uint64) {
	for {
		if ks.fail.failed.Load() {
			return
		}
		if vary == 0 {
			if !ks.kw.strings() || endsWord(word) {
				return // every key is the same
			}
			// Strings that go on past this word: find where they differ.
			sc := ks.scan(w, lo, hi, depth+1)
			if ks.fail.failed.Load() || sc.sorted {
				return
			}
			depth, vary = sc.depth, sc.vary
			continue
		}
		if hi-lo <= ks.leafMax {
			ls := ks.scratch.leaf()
			func() {
				defer ks.fail.catch()
				ks.leaf(ls, ks.data[lo:hi])
			}()
			ks.scratch.putLeaf(ls)
			return
		}
		break
	}
	// Split on the eight highest bits of the word from the highest that may
	// vary on (not on a byte boundary: float keys vary in few bits of their
	// top bytes).
	shift := uint(max(bits.Len64(vary)-8, 0))
	kb := ks.partition(w, lo, hi, depth, shift)
	if kb == nil {
		return
	}
	below := uint64(1)<<shift - 1
	forEach(w, maxBuckets, func(w *core.Worker, j int) {
		if blo, bhi := lo+kb.starts[j], lo+kb.starts[j+1]; bhi-blo > 1 {
			ks.sortRange(w, blo, bhi, depth, (kb.and[j]^kb.or[j])&below, kb.and[j])
		}
	})
	ks.scratch.putBuckets(kb)
}

// partition splits [lo, hi) into buckets by the byte at shift of word depth
// of its keys (the block partition's step with classifyWords), with one
// stripe per ks.stripe elements (at most one per worker). It returns the
// buckets' starts and masks, to be given back once they are sorted; or nil
// if key panicked.
func (ks *keySort[E, K]) partition(w *core.Worker, lo, hi, depth int, shift uint) *keyBuckets {
	n := hi - lo
	t := max(1, min(ks.workers, n/ks.stripe))
	data := ks.data[lo:hi]
	p := &partitionStep[E]{data: data, k: maxBuckets, b: ks.b, ws: make([]*workspace[E], t), fail: &ks.fail}
	for s := range p.ws {
		p.ws[s] = ks.scratch.parts.get()
	}
	word := func(e E) uint64 { return ks.word(e, depth) }
	ok := p.run(w, func(w *core.Worker, ws *workspace[E]) {
		classifyWords(w, ws, data, ks.b, word, shift)
	})
	var kb *keyBuckets
	if ok {
		kb = ks.scratch.bucketsRecord()
		kb.starts = p.ws[0].starts
		kb.reset()
		for _, ws := range p.ws {
			for j := range maxBuckets {
				kb.and[j] &= ws.words.and[j]
				kb.or[j] |= ws.words.or[j]
			}
		}
	}
	for _, ws := range p.ws {
		ks.scratch.parts.put(ws)
	}
	return kb
}

// leaf sorts data (at most ks.leafMax elements) by its keys, calling key
// once per element before it moves any.
func (ks *keySort[E, K]) leaf(ws *keyLeafSpace[E, K], data []E) {
	m := len(data)
	if ks.kw.strings() {
		ks.leafStrings(ws, data)
		return
	}
	if cap(ws.words) < m {
		ws.words = make([]uint64, max(m, ks.leafMax))
		ws.packed = make([]uint64, max(m, ks.leafMax))
		ws.sorted = make([]uint64, max(m, ks.leafMax))
	}
	words, packed := ws.words[:m], ws.packed[:m]
	for i, e := range data {
		words[i] = ks.word(e, 0)
	}
	var diff uint64
	for _, v := range words {
		diff |= v ^ words[0]
	}
	if diff == 0 {
		return
	}
	// Pack the bits that vary, as many as fit beside an index, above the
	// index; sort the packed words by their top byte (counting) and an
	// insertion pass, or by pdqsort if that pass would move too much; if
	// low bits had to be dropped, finish by insertion on the whole words
	// (only elements whose packed bits tie can be out of order).
	top := bits.Len64(diff)
	ib := bits.Len(uint(m - 1))
	low := max(0, top+ib-64)
	mask := ^uint64(0) >> (64 - top)
	imask := uint64(1)<<ib - 1
	for i, v := range words {
		packed[i] = (v&mask)>>low<<ib | uint64(i)
	}
	packed = sortPacked(packed, ws.sorted[:m], top-low+ib)
	if low > 0 {
		for i := 1; i < m; i++ {
			p := packed[i]
			v := words[p&imask]
			j := i
			for ; j > 0 && words[packed[j-1]&imask] > v; j-- {
				packed[j] = packed[j-1]
			}
			packed[j] = p
		}
	}
	buf := ws.buf[:m]
	for j, p := range packed {
		buf[j] = data[p&imask]
	}
	copy(data, buf)
}

// sortPacked sorts a, whose values have at most width bits, using tmp (as
// long as a) as a second array, and returns the sorted one of the two: a
// counting pass on the top byte, then insertion sort, which on keys spread
// like random ones moves little; if it would move more than 2·len(a)
// elements, pdqsort finishes.
func sortPacked(a, tmp []uint64, width int) []uint64 {
	if width <= 8 || len(a) < 32 {
		slices.Sort(a)
		return a
	}
	shift := uint(width - 8)
	var cnt [256]int
	for _, v := range a {
		cnt[uint8(v>>shift)]++
	}
	sum := 0
	for d, c := range cnt {
		cnt[d] = sum
		sum += c
	}
	for _, v := range a {
		d := uint8(v >> shift)
		tmp[cnt[d]] = v
		cnt[d]++
	}
	if !insertionKeys(tmp, 0, 2*len(tmp)) {
		slices.Sort(tmp)
	}
	return tmp
}

// leafStrings is leaf for string keys: the keys and positions are sorted
// by comparison.
func (ks *keySort[E, K]) leafStrings(ws *keyLeafSpace[E, K], data []E) {
	m := len(data)
	if cap(ws.pairs) < m {
		ws.pairs = make([]keyIndex[K], max(m, ks.leafMax))
	}
	pairs := ws.pairs[:m]
	for i, e := range data {
		pairs[i] = keyIndex[K]{ks.key(e), i}
	}
	slices.SortFunc(pairs, func(a, b keyIndex[K]) int { return cmp.Compare(a.k, b.k) })
	buf := ws.buf[:m]
	for j, p := range pairs {
		buf[j] = data[p.i]
	}
	copy(data, buf)
}
