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
// small enough to stay in the last-level cache between the marking and the
// copying, large enough that the loops it costs are few.
const roundBytes = 1 << 22

// Runner runs body(lo, hi) over disjoint subranges covering [0, n),
// possibly in parallel, and returns when every call has returned.
type Runner func(n int, body func(lo, hi int))

// Blocks returns the number of blocks of n elements, without the n+BlockLen-1
// that would pass a 32-bit int's range for n near its top.
func Blocks(n int) int { return n/BlockLen + min(n%BlockLen, 1) }

// Words returns the number of mask words for n elements.
func Words(n int) int { return (n + 63) / 64 }

// MarkFunc sets bit j%64 of words[j/64] for each element s[j] with
// keep(s[j]) true and clears the others, and returns how many it set.
// keep is called once per element, in order.
func MarkFunc[E any](s []E, words []uint64, keep func(E) bool) int {
	n := 0
	for w := range words[:Words(len(s))] {
		chunk := s[w*64 : min(w*64+64, len(s))]
		var m uint64
		for j, v := range chunk {
			var bit uint64
			if keep(v) {
				bit = 1
			}
			m |= bit << j
		}
		words[w] = m
		n += bits.OnesCount64(m)
	}
	return n
}

// Gather copies the elements src[j] whose bit is set in words to dst, in
// order, and returns how many it copied. dst may be src: each element then
// moves to an index no greater than its own, and a full word's elements are
// moved with copy, which allows the overlap.
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

// A Packer packs one block of a slice: it moves the elements to keep to
// the front of the block, in order, and returns their number. first tells
// whether block starts the slice; before is the original element just
// before the block (the zero value for the first block).
type Packer[E any] interface {
	Pack(block []E, first bool, before E) int
}

// InPlace packs s: the elements p keeps move to the front, in order, the
// rest of s is zeroed, and the number kept is returned.
//
// The slice is packed round after round (rounds of 4 MiB). The blocks of a
// round are packed, in parallel, each within itself; then each block's kept
// elements are copied to their final place: in parallel when every such
// place lies before the round (the usual case once the first rounds have
// dropped some elements), or else block after block, left to right, since a
// block's place may then hold another block's kept elements not yet
// copied. Packing reads each element once from memory and the copying reads
// the kept ones from the cache. A round is one or two parallel loops, each
// of which may have to wake a sleeping worker, so rounds are large.
func InPlace[E any](s []E, p Packer[E], run Runner) int {
	return inPlace(s, func(block []E, _ int, first bool, before E) int {
		return p.Pack(block, first, before)
	}, run)
}

// MarkRuns sets, for each j in [lo, hi), bit j%64 of words[j/64] when s[j]
// starts a run of elements equal by eq: j == 0, or !eq(s[j], s[j-1]). lo
// is a multiple of 64 and hi is lo's block end or len(s), so that calls on
// disjoint blocks write disjoint words. It only reads s: eq sees the
// original elements, and a panicking eq leaves s as it was.
func MarkRuns[E any](s []E, words []uint64, lo, hi int, eq func(a, b E) bool) {
	for w := lo / 64; w*64 < hi; w++ {
		base := w * 64
		chunk := s[base:min(base+64, hi)]
		var m uint64
		j := 0
		var prev E
		if base == 0 {
			m, j, prev = 1, 1, chunk[0]
		} else {
			prev = s[base-1]
		}
		for ; j < len(chunk); j++ {
			v := chunk[j]
			var bit uint64 // 0 or 1 without a branch (eq's bool, flipped): runs of a few equal elements would mispredict one
			if !eq(v, prev) {
				bit = 1
			}
			m |= bit << j
			prev = v
		}
		words[w] = m
	}
}

// InPlaceMarked packs s as InPlace does, keeping the elements whose bit is
// set in words (MarkRuns): every call of the user's function has returned
// before anything moves, so the elements move by copying, and a panic can
// only have happened while s was untouched.
func InPlaceMarked[E any](s []E, words []uint64, run Runner) int {
	return inPlace(s, func(block []E, lo int, _ bool, _ E) int {
		return Gather(block, block, words[lo/64:])
	}, run)
}

// inPlace is InPlace with the function that packs one block, given its
// offset in s.
func inPlace[E any](s []E, pack func(block []E, lo int, first bool, before E) int, run Runner) int {
	n := len(s)
	round := BlockLen
	if size := int(unsafe.Sizeof(*new(E))); size > 0 {
		round = max(roundBytes/size/BlockLen*BlockLen, BlockLen)
	}
	round = min(round, Blocks(n)*BlockLen)
	nbr := round / BlockLen
	counts := make([]int, nbr) // kept elements of each block of the round
	starts := make([]int, nbr) // where they go, from out
	befores := make([]E, nbr)  // the element before each block, read before any moves
	var r0, r1, out int        // the round [r0, r1); elements kept before it
	// The loop bodies are made once; they read the round from the
	// variables above.
	block := func(b int) []E {
		lo := r0 + b*BlockLen
		return s[lo:min(lo+BlockLen, r1)]
	}
	packBlocks := func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			counts[b] = pack(block(b), r0+b*BlockLen, r0 == 0 && b == 0, befores[b])
		}
	}
	moveBlocks := func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			copy(s[out+starts[b]:], block(b)[:counts[b]])
		}
	}
	var last E // the round's last element, read before the round moves anything
	for r0 = 0; r0 < n; r0 += round {
		r1 = min(r0+round, n)
		nb := Blocks(r1 - r0)
		befores[0] = last // the element before the round, as it was
		for b := 1; b < nb; b++ {
			befores[b] = s[r0+b*BlockLen-1] // this round's: as yet unmoved
		}
		last = s[r1-1]
		run(nb, packBlocks)
		kept := 0
		for b, c := range counts[:nb] {
			starts[b] = kept
			kept += c
		}
		switch {
		case out == r0 && kept == r1-r0:
			// Nothing dropped so far: nothing moves.
		case out+kept <= r0:
			run(nb, moveBlocks)
		default:
			moveBlocks(0, nb)
		}
		out += kept
	}
	clearRest(s[out:], run, streamBytes)
	return out
}

// streamBytes is the size from which the runtime's clear streams past the
// cache (non-temporal stores in memclrNoHeapPointers on amd64, which a clear
// of memory with pointers also ends in): it then writes each line once,
// where ordinary stores read it first.
const streamBytes = 32 << 20

// clearRest zeroes tail, in pieces of at least stream bytes (streamBytes)
// where it is that large: one worker's streaming clear is faster than two
// workers' ordinary ones, which read every line they write (72 MB on the
// README's VM: 0.84 ms in one piece or two, 2.1 ms in eight). A smaller tail
// is cleared by blocks, in parallel.
func clearRest[E any](tail []E, run Runner, stream int) {
	size := int(unsafe.Sizeof(*new(E)))
	if size == 0 || len(tail) == 0 {
		return
	}
	if pieces := len(tail) / max(stream/size, 1); pieces >= 1 {
		run(pieces, func(lo, hi int) {
			clear(tail[lo*len(tail)/pieces : hi*len(tail)/pieces])
		})
		return
	}
	run(Blocks(len(tail)), func(lo, hi int) {
		clear(tail[lo*BlockLen : min(hi*BlockLen, len(tail))])
	})
}

// Func keeps the elements e with Keep(e) == Want, calling Keep once per
// element (par.DeleteFunc).
type Func[E any] struct {
	Keep func(E) bool
	Want bool
}

// Pack keeps the elements of block whose Keep is Want; it needs no
// neighbour, so first and before are unused.
func (f Func[E]) Pack(block []E, _ bool, _ E) int {
	k := 0
	for _, v := range block {
		if f.Keep(v) == f.Want {
			block[k] = v
			k++
		}
	}
	return k
}

// Runs keeps the first element of each run of elements equal by Eq, calling
// Eq(e, the element before e) once per element but the first
// (sortpar.CompactFunc on one worker, the calls of slices.CompactFunc).
type Runs[E any] struct {
	Eq func(a, b E) bool
}

// Pack only swaps (the dropped elements go to the block's end), so that a
// panicking Eq leaves the block a permutation of itself. It is meant for a
// whole slice packed as one block; across blocks, MarkRuns and
// InPlaceMarked keep that promise without moving anything before Eq is
// done.
func (r Runs[E]) Pack(block []E, first bool, before E) int {
	k, i, prev := 0, 0, before
	if first {
		k, i, prev = 1, 1, block[0]
	}
	for ; i < len(block); i++ {
		v := block[i]
		if !r.Eq(v, prev) {
			block[k], block[i] = v, block[k] // block[k] was dropped, or is v
			k++
		}
		prev = v
	}
	return k
}

// Changes keeps the first element of each run of equal elements
// (sortpar.Compact). Every element is stored at the next free place, which
// advances past a kept one: no branch on the comparison, which runs of a
// few equal elements would mispredict at each end.
type Changes[E comparable] struct{}

// Pack keeps each element of block that differs from the one before it;
// block[0] is kept if first, and else compared with before.
func (Changes[E]) Pack(block []E, first bool, before E) int {
	k, i, prev := 0, 0, before
	if first {
		k, i, prev = 1, 1, block[0]
	}
	for ; i < len(block); i++ {
		v := block[i]
		block[k] = v
		var step int // 0 or 1 without a branch (SETNE)
		if v != prev {
			step = 1
		}
		k += step
		prev = v
	}
	return k
}
