package sortpar

import (
	"unsafe"

	"github.com/gofork/gofork/core"
)

// Parallel LSD radix sort for integer and float keys.
//
// The elements are first mapped in place to unsigned keys that order like
// the values (keyKind): the sign bit flipped for signed integers; for floats
// the usual IEEE-754 map (negative: all bits flipped, positive: sign bit
// set) followed by adding 2^m-1 (m mantissa bits) modulo 2^w, which rotates
// the positive NaNs below the negative NaNs and both below -Inf. Every NaN
// then sorts first, as in slices.Sort; the maps are bijections and are
// undone at the end.
//
// Each pass sorts stably by one byte, least significant first, from src into
// dst (ping-pong with one buffer of len(x) elements). A pass is two parallel
// loops over k chunks: count the chunk's bytes, then (after a serial prefix
// sum over bucket-major, chunk-minor counts) scatter each chunk into its own
// disjoint slots of dst. A pass whose byte is the same in every element is
// skipped.

// radixKey is an unsigned key of one to eight bytes.
type radixKey interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// radixSort sorts the keys of x (an integer or float slice seen through
// unsafe as unsigned words of the same size, interpreted according to kind).
func radixSort[K radixKey](x []K, kind keyKind, c *config) {
	n := len(x)
	width := uint(unsafe.Sizeof(x[0])) * 8
	sign := K(1) << (width - 1)
	mantissa := uint64(23)
	if width == 64 {
		mantissa = 52
	}
	nanShift := K(uint64(1)<<mantissa - 1) // only used for floats (32 or 64 bits)
	buf := make([]K, n)
	k := chunks(n, c.grain, c.pool.Workers())
	counts := make([][256]int, k)

	// mapKeys applies f to every element of x in parallel.
	mapKeys := func(w *core.Worker, f func(v K) K) {
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(n, k, i)
			s := x[lo:hi]
			for j, v := range s {
				s[j] = f(v)
			}
		})
	}

	core.Run(c.pool, func(w *core.Worker) struct{} {
		switch kind {
		case keySigned:
			mapKeys(w, func(v K) K { return v ^ sign })
		case keyFloat:
			mapKeys(w, func(v K) K {
				if v&sign != 0 {
					v = ^v
				} else {
					v |= sign
				}
				return v + nanShift
			})
		}
		src, dst := x, buf
		for shift := uint(0); shift < width; shift += 8 {
			// Count.
			parFor(w, k, func(_ *core.Worker, i int) {
				lo, hi := chunkBounds(n, k, i)
				cnt := &counts[i]
				*cnt = [256]int{}
				for _, v := range src[lo:hi] {
					cnt[uint8(v>>shift)]++
				}
			})
			// Skip a byte every element shares.
			d := uint8(src[0] >> shift)
			total := 0
			for i := range k {
				total += counts[i][d]
			}
			if total == n {
				continue
			}
			// Starting slot of each (chunk, byte): bucket-major so the
			// pass is stable.
			sum := 0
			for b := range 256 {
				for i := range k {
					cnt := counts[i][b]
					counts[i][b] = sum
					sum += cnt
				}
			}
			// Scatter.
			parFor(w, k, func(_ *core.Worker, i int) {
				lo, hi := chunkBounds(n, k, i)
				off := &counts[i]
				for _, v := range src[lo:hi] {
					b := uint8(v >> shift)
					dst[off[b]] = v
					off[b]++
				}
			})
			src, dst = dst, src
		}
		if &src[0] != &x[0] {
			parFor(w, k, func(_ *core.Worker, i int) {
				lo, hi := chunkBounds(n, k, i)
				copy(x[lo:hi], src[lo:hi])
			})
		}
		switch kind {
		case keySigned:
			mapKeys(w, func(v K) K { return v ^ sign })
		case keyFloat:
			mapKeys(w, func(v K) K {
				v -= nanShift
				if v&sign != 0 {
					return v &^ sign
				}
				return ^v
			})
		}
		return struct{}{}
	})
}
