package sortpar

import (
	"math/bits"
	"unsafe"

	"github.com/gofork/gofork/core"
)

// Parallel radix sort for integer and float keys: one MSD pass over main
// memory, then LSD inside the cache.
//
// Keys. Unsigned integers are their own keys. Signed integers are too,
// except that the top byte's digit has its top bit flipped (topFlip), which
// orders negative values first without touching the data. Floats are mapped
// in place to unsigned keys that order like the values: the usual IEEE-754
// map (negative: all bits flipped, positive: sign bit set) followed by
// adding 2^m-1 (m mantissa bits) modulo 2^w, which rotates the positive NaNs
// below the negative NaNs and both below -Inf. Every NaN then sorts first,
// as in slices.Sort. The map is a bijection; each finished range is mapped
// back while it is still in cache (unmap), so undoing it costs no extra
// trip to memory. The first pass also ORs together key ^ key[0], so bytes
// that are equal in every key are known and never sorted on.
//
// Sorting. A range longer than lsdMax is split on its most significant
// byte that is not the same everywhere: count (per chunk, in parallel), an
// exclusive prefix sum bucket-major and chunk-minor, and a scatter of every
// chunk into its own slots of the other array (parallel, stable). The 256
// buckets are then sorted independently, in parallel, on the next byte
// down. Ranges of at most lsdMax elements fit in the L2 cache with their
// scratch space and are sorted by LSD radix on the remaining bytes: one
// pass counts every byte, then one scatter pass per byte that is not
// constant in the range.
//
// The element array and one buffer of the same length ping-pong: radixIn
// sorts a range in place using the buffer, radixTo sorts a range into the
// buffer (clobbering the source), and each calls the other for its buckets,
// so no level copies. A split on byte 0 needs no scatter at all: every key
// in a bucket is then the same, so the bucket is filled in by counting.

// radixKey is an unsigned key of one to eight bytes.
type radixKey interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// radixCtx is shared, read-only, by every task of one radix sort.
type radixCtx[K radixKey] struct {
	kind     keyKind
	sign     K     // the top bit
	nanShift K     // 2^mantissa - 1, for floats
	diff     K     // OR of key ^ key[0] over all keys: bit set = bit varies
	topShift uint  // shift of the most significant byte
	topFlip  uint8 // XORed into that byte's digit: 0x80 for signed integers
	signFlip K     // XORed into keys before comparing them whole: sign for signed
	lsdMax   int   // ranges this short are LSD sorted by one worker
	parMin   int   // ranges this long count and scatter in parallel
	grain    int
	workers  int
}

// toKey maps an element's bits to its key (floats only change).
func (rc *radixCtx[K]) toKey(v K) K {
	if rc.kind == keyFloat {
		if v&rc.sign != 0 {
			v = ^v
		} else {
			v |= rc.sign
		}
		return v + rc.nanShift
	}
	return v
}

// unmap turns the keys of s back into elements (floats only change). The
// sorts call it on each finished range while the range is still in cache.
func (rc *radixCtx[K]) unmap(s []K) {
	if rc.kind == keyFloat {
		sign, shift := rc.sign, rc.nanShift
		for j, v := range s {
			v -= shift
			if v&sign != 0 {
				s[j] = v &^ sign
			} else {
				s[j] = ^v
			}
		}
	}
}

// flip returns what to XOR into the digit of the byte at shift.
func (rc *radixCtx[K]) flip(shift uint) uint8 {
	if shift == rc.topShift {
		return rc.topFlip
	}
	return 0
}

// lsdMaxBytes bounds a range for the in-cache LSD sort: range plus
// scratch must sit in a 2 MiB share of L2.
const lsdMaxBytes = 1 << 20

// radixSort sorts the keys of x (an integer or float slice seen through
// unsafe as unsigned words of the same size, interpreted according to kind).
func radixSort[K radixKey](x []K, kind keyKind, c *config) {
	n := len(x)
	width := uint(unsafe.Sizeof(x[0])) * 8
	mantissa := uint64(23)
	if width == 64 {
		mantissa = 52
	}
	rc := &radixCtx[K]{
		kind:     kind,
		sign:     K(1) << (width - 1),
		nanShift: K(uint64(1)<<mantissa - 1), // only used for floats (32 or 64 bits)
		lsdMax:   max(lsdMaxBytes/int(unsafe.Sizeof(x[0])), c.cutoff),
		parMin:   max(4*c.grain, 2),
		grain:    c.grain,
		workers:  c.pool.Workers(),
		topShift: width - 8,
	}
	if kind == keySigned {
		rc.topFlip = 0x80
		rc.signFlip = rc.sign
	}
	if c.radixMin < defaultRadixMin { // tests: make the MSD levels reachable
		rc.lsdMax = max(c.radixMin, 2)
	}
	buf := make([]K, n)
	k := chunks(n, c.grain, rc.workers)
	diffs := make([]K, k)
	c.pool.Run(func(w *core.Worker) {
		first := rc.toKey(x[0])
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(n, k, i)
			s := x[lo:hi]
			var diff K
			if kind != keyFloat {
				for _, v := range s {
					diff |= v ^ first
				}
			} else {
				for j, v := range s {
					v = rc.toKey(v)
					s[j] = v
					diff |= v ^ first
				}
			}
			diffs[i] = diff
		})
		var diff K
		for _, d := range diffs {
			diff |= d
		}
		if diff == 0 { // cannot happen after the sortedness scan; keep it right
			parFor(w, k, func(_ *core.Worker, i int) {
				lo, hi := chunkBounds(n, k, i)
				rc.unmap(x[lo:hi])
			})
			return
		}
		rc.diff = diff
		radixIn(w, rc, x, buf, (bits.Len64(uint64(diff))-1)/8)
	})
}

// radixIn sorts data on bytes d..0 in place, using scratch (same length).
func radixIn[K radixKey](w *core.Worker, rc *radixCtx[K], data, scratch []K, d int) {
	if len(data) <= rc.lsdMax {
		lsd(w, rc, data, scratch, d, true)
		return
	}
	d, starts, filled := msdSplit(w, rc, data, scratch, data, d)
	if d < 0 { // all keys equal on the bytes left
		rc.unmap(data)
		return
	}
	if filled {
		return
	}
	radixBuckets(w, starts, func(w *core.Worker, lo, hi int) {
		radixTo(w, rc, scratch[lo:hi], data[lo:hi], d-1)
	})
}

// radixTo sorts the elements of src on bytes d..0 into dst (same length);
// src is clobbered.
func radixTo[K radixKey](w *core.Worker, rc *radixCtx[K], src, dst []K, d int) {
	if len(src) <= rc.lsdMax {
		lsd(w, rc, src, dst, d, false)
		return
	}
	d, starts, filled := msdSplit(w, rc, src, dst, dst, d)
	if d < 0 {
		rc.unmap(dst[:copy(dst, src)])
		return
	}
	if filled {
		return
	}
	radixBuckets(w, starts, func(w *core.Worker, lo, hi int) {
		radixIn(w, rc, dst[lo:hi], src[lo:hi], d-1)
	})
}

// radixBuckets runs sort on every non-empty bucket [starts[b], starts[b+1]),
// in parallel.
func radixBuckets(w *core.Worker, starts *[257]int, sort func(w *core.Worker, lo, hi int)) {
	parFor(w, 256, func(w *core.Worker, b int) {
		if lo, hi := starts[b], starts[b+1]; lo < hi {
			sort(w, lo, hi)
		}
	})
}

// msdSplit finds the highest byte at or below d on which src's keys
// differ, and scatters src into dst by that byte, stably. It returns the
// byte (-1 if the keys are all equal; dst is then untouched) and the
// bucket starts. If no lower byte varies anywhere in the slice, the keys of
// a bucket are all the same (the bytes above d are equal in this range: they
// were split on, or are equal everywhere): instead of scattering, msdSplit
// then fills target (src or dst) with them by counting, maps them back to
// elements, and reports filled.
func msdSplit[K radixKey](w *core.Worker, rc *radixCtx[K], src, dst, target []K, d int) (byte int, starts *[257]int, filled bool) {
	n := len(src)
	k := 1
	if n >= rc.parMin {
		k = chunks(n, rc.grain, rc.workers)
	}
	counts := make([][256]int, k)
	for ; d >= 0; d-- {
		shift := uint(d) * 8
		if uint8(rc.diff>>shift) == 0 {
			continue // the same in every key of the whole slice
		}
		fx := rc.flip(shift)
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(n, k, i)
			cnt := &counts[i]
			*cnt = [256]int{}
			for _, v := range src[lo:hi] {
				cnt[uint8(v>>shift)^fx]++
			}
		})
		if bucketTotal(counts, uint8(src[0]>>shift)^fx) < n {
			break
		}
	}
	if d < 0 {
		return d, nil, false
	}
	shift := uint(d) * 8
	fx := rc.flip(shift)
	starts = bucketOffsets(counts)
	if low := K(1)<<shift - 1; rc.diff&low == 0 {
		rest := src[0] &^ (0xff << shift) // every byte but d, the same in all keys
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(n, k, i)
			b := sortSearch256(starts, lo)
			for j := lo; j < hi; j++ {
				for j >= starts[b+1] {
					b++
				}
				target[j] = rest | K(uint8(b)^fx)<<shift
			}
			rc.unmap(target[lo:hi])
		})
		return d, starts, true
	}
	parFor(w, k, func(_ *core.Worker, i int) {
		lo, hi := chunkBounds(n, k, i)
		off := &counts[i]
		for _, v := range src[lo:hi] {
			b := uint8(v>>shift) ^ fx
			dst[off[b]] = v
			off[b]++
		}
	})
	return d, starts, false
}

// bucketTotal returns how many keys the chunks counted in bucket b.
func bucketTotal(counts [][256]int, b uint8) int {
	total := 0
	for i := range counts {
		total += counts[i][b]
	}
	return total
}

// bucketOffsets turns per-chunk bucket counts into each chunk's first slot
// per bucket, in place (bucket by bucket, chunk by chunk, so that a scatter
// from each chunk's offsets is stable), and returns where each bucket
// starts, with the total at index 256.
func bucketOffsets(counts [][256]int) *[257]int {
	starts := new([257]int)
	sum := 0
	for b := range 256 {
		starts[b] = sum
		for i := range counts {
			c := counts[i][b]
			counts[i][b] = sum
			sum += c
		}
	}
	starts[256] = sum
	return starts
}

// sortSearch256 returns the bucket b with starts[b] <= j < starts[b+1].
func sortSearch256(starts *[257]int, j int) int {
	lo, hi := 0, 256 // starts[lo] <= j < starts[hi]
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if starts[m] <= j {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// lsdInsertion is the length up to which lsd insertion-sorts instead.
const lsdInsertion = 32

// lsd sorts the keys of a on bytes d..0 by the worker w, leaving the result
// in a if inA, else in b (a is then clobbered).
func lsd[K radixKey](w *core.Worker, rc *radixCtx[K], a, b []K, d int, inA bool) {
	n := len(a)
	if n <= lsdInsertion {
		sf := rc.signFlip
		for i := 1; i < n; i++ {
			for j := i; j > 0 && a[j]^sf < a[j-1]^sf; j-- {
				a[j], a[j-1] = a[j-1], a[j]
			}
		}
		if !inA {
			a = b[:copy(b, a)]
		}
		rc.unmap(a)
		return
	}
	// One pass counts every byte.
	// Bytes that vary somewhere in the whole slice; one pass counts them.
	var pass [8]uint
	var fxs [8]uint8
	np := 0
	for p := 0; p <= d; p++ {
		if shift := uint(p) * 8; uint8(rc.diff>>shift) != 0 {
			pass[np], fxs[np] = shift, rc.flip(shift)
			np++
		}
	}
	var hist [8][256]int
	for _, v := range a {
		for i, shift := range pass[:np] {
			hist[i][uint8(v>>shift)^fxs[i]]++
		}
	}
	src, dst := a, b
	for i, shift := range pass[:np] {
		w.Poll() // a poll point per pass (~0.1 ms on lsdMax keys)
		h, fx := &hist[i], fxs[i]
		if h[uint8(src[0]>>shift)^fx] == n {
			continue // the same byte everywhere in this range
		}
		sum := 0
		for i, c := range h {
			h[i] = sum
			sum += c
		}
		for _, v := range src {
			by := uint8(v>>shift) ^ fx
			dst[h[by]] = v
			h[by]++
		}
		src, dst = dst, src
	}
	if inSrcA := &src[0] == &a[0]; inSrcA != inA {
		src = dst[:copy(dst, src)]
	}
	rc.unmap(src)
}
