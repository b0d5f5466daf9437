// Package pack holds the kernels of gofork's packing primitives (par.Filter,
// par.DeleteFunc, sortpar.Compact): marking the elements to keep in a bit
// mask, gathering the marked elements, and packing a slice in place round by
// round. The parallel loops come from the caller, as a Runner, so that each
// package runs them on its own pool with its own options.
package pack

import (
	"math/bits"
	"unsafe"
)

// BlockLen is the number of elements in a block, the unit of every parallel
// loop here: a block's marks are BlockLen/64 words.
const BlockLen = 1024

// roundBytes is the size of the part of the slice InPlace packs at a time:
// small enough to stay in the caches between the marking and the moving.
const roundBytes = 1 << 20

// Runner runs body(lo, hi) over disjoint subranges covering [0, n),
// possibly in parallel, and returns when every call has returned.
type Runner func(n int, body func(lo, hi int))

// Blocks returns the number of blocks of n elements.
func Blocks(n int) int { return (n + BlockLen - 1) / BlockLen }

// Words returns the number of mask words for n elements.
func Words(n int) int { return (n + 63) / 64 }

// MarkFunc sets bit j%64 of words[j/64] for each element s[j] with
// keep(s[j]) == want and clears the others, and returns how many it set.
// keep is called once per element, in order.
func MarkFunc[E any](s []E, words []uint64, keep func(E) bool, want bool) int {
	n := 0
	for w := range words[:Words(len(s))] {
		chunk := s[w*64 : min(w*64+64, len(s))]
		var m uint64
		for j, v := range chunk {
			if keep(v) == want {
				m |= 1 << j
			}
		}
		words[w] = m
		n += bits.OnesCount64(m)
	}
	return n
}

// MarkRuns sets the bit of each element v of s that is not equal to the
// one before it, prev, by eq(v, prev) (prev stands before s[0]; if first,
// s[0] is the first element of all and is marked), clears the others and
// returns how many it set: the marks of slices.CompactFunc, which calls eq
// the same way.
func MarkRuns[E any](s []E, prev E, first bool, words []uint64, eq func(a, b E) bool) int {
	n := 0
	for w := range words[:Words(len(s))] {
		chunk := s[w*64 : min(w*64+64, len(s))]
		var m uint64
		j := 0
		if first && w == 0 {
			m, prev, j = 1, chunk[0], 1
		}
		for ; j < len(chunk); j++ {
			v := chunk[j]
			if !eq(v, prev) {
				m |= 1 << j
			}
			prev = v
		}
		words[w] = m
		n += bits.OnesCount64(m)
	}
	return n
}

// MarkChanges is MarkRuns for comparable elements and ==, without a call per
// element.
func MarkChanges[E comparable](s []E, prev E, first bool, words []uint64) int {
	n := 0
	for w := range words[:Words(len(s))] {
		chunk := s[w*64 : min(w*64+64, len(s))]
		var m uint64
		j := 0
		if first && w == 0 {
			m, prev, j = 1, chunk[0], 1
		}
		for ; j < len(chunk); j++ {
			v := chunk[j]
			m |= b2u(v != prev) << j
			prev = v
		}
		words[w] = m
		n += bits.OnesCount64(m)
	}
	return n
}

// b2u is 1 for true and 0 for false, without a branch.
func b2u(b bool) uint64 {
	return uint64(*(*uint8)(unsafe.Pointer(&b)))
}

// Gather copies the elements src[j] whose bit is set in words to dst, in
// order, and returns how many it copied.
func Gather[E any](dst, src []E, words []uint64) int {
	k := 0
	for w, m := range words[:Words(len(src))] {
		base := w * 64
		if m == ^uint64(0) {
			k += copy(dst[k:], src[base:base+64])
			continue
		}
		for m != 0 {
			dst[k] = src[base+bits.TrailingZeros64(m)]
			k++
			m &= m - 1
		}
	}
	return k
}

// InPlace packs s: the elements marked by mark move to the front, in order,
// the rest of s is zeroed, and the number kept is returned. mark(lo, hi,
// words) must mark the kept elements of s[lo:hi] in words (as MarkFunc does,
// bit j-lo for element j) and return how many it marked; lo is a multiple of
// BlockLen. It may read s[lo-1], which holds its original value then.
//
// The slice is packed round after round: the blocks of a round are marked,
// in parallel, while nothing of the round has moved; then each block copies
// its kept elements to their final place, directly when that place lies
// before the round, or else through scratch space the size of a round, since
// a block's destination may then hold another block's kept elements not yet
// copied. Marking reads each element once from memory; the moves read it
// from the cache.
func InPlace[E any](s []E, mark func(lo, hi int, words []uint64) int, run Runner) int {
	n := len(s)
	round := BlockLen
	if size := int(unsafe.Sizeof(*new(E))); size > 0 {
		round = max(roundBytes/size/BlockLen*BlockLen, BlockLen)
	}
	round = min(round, Blocks(n)*BlockLen)
	words := make([]uint64, round/64)
	starts := make([]int, round/BlockLen) // count, then start, of each block's kept elements
	var scratch []E
	var r0, r1, out int // the round [r0, r1); elements kept before it
	// The loop bodies are made once; they read the round from the
	// variables above.
	markBlocks := func(lo, hi int) {
		for b := lo; b < hi; b++ {
			a := r0 + b*BlockLen
			starts[b] = mark(a, min(a+BlockLen, r1), words[b*BlockLen/64:])
		}
	}
	var dst []E // where gatherBlocks writes: s from out, or scratch
	gatherBlocks := func(lo, hi int) {
		for b := lo; b < hi; b++ {
			a := r0 + b*BlockLen
			Gather(dst[starts[b]:], s[a:min(a+BlockLen, r1)], words[b*BlockLen/64:])
		}
	}
	var kept int // in the round
	copyBack := func(lo, hi int) {
		lo, hi = lo*BlockLen, min(hi*BlockLen, kept)
		copy(s[out+lo:out+hi], scratch[lo:hi])
	}
	clearTail := func(lo, hi int) {
		clear(s[out+lo*BlockLen : min(out+hi*BlockLen, n)])
	}
	for r0 = 0; r0 < n; r0 += round {
		r1 = min(r0+round, n)
		nb := Blocks(r1 - r0)
		run(nb, markBlocks)
		kept = 0
		for b, c := range starts[:nb] {
			starts[b] = kept
			kept += c
		}
		switch {
		case out == r0 && kept == r1-r0:
			// Nothing deleted so far: nothing moves.
		case out+kept <= r0:
			dst = s[out:]
			run(nb, gatherBlocks)
		default:
			if scratch == nil {
				scratch = make([]E, round)
			}
			dst = scratch
			run(nb, gatherBlocks)
			run(Blocks(kept), copyBack)
		}
		out += kept
	}
	run(Blocks(n-out), clearTail)
	return out
}
