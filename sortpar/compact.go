package sortpar

import (
	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/pack"
)

// Compact replaces each run of equal consecutive elements of s by its first
// element, in place, zeroes the elements between the new length and the old
// one and returns s up to the new length, like slices.Compact, in parallel on
// core.Default().
//
// Long slices are packed round by round (rounds of about 1 MiB): the blocks
// of a round mark the elements that differ from the one before them, in
// parallel, then copy them to their final place (see DeleteFunc in package
// par, which packs the same way).
func Compact[S ~[]E, E comparable](s S) S {
	return CompactWith(s)
}

// CompactWith is Compact with options (WithPool, WithCutoff).
func CompactWith[S ~[]E, E comparable](s S, opts ...Option) S {
	c := newConfig(opts)
	if len(s) < c.cutoff || c.pool.Workers() == 1 {
		return compactSerial(s)
	}
	return s[:packInPlace(s, c, func(lo, hi int, words []uint64) int {
		if lo == 0 {
			return pack.MarkChanges(s[:hi], s[0], true, words)
		}
		return pack.MarkChanges(s[lo:hi], s[lo-1], false, words)
	})]
}

// CompactFunc is Compact with eq telling which elements are equal, like
// slices.CompactFunc: of each run of elements where eq(s[i], s[i-1]) holds
// for every neighbour pair, the first is kept. eq is called once for each
// pair of neighbours, as eq(s[i], s[i-1]) on the original elements, from
// several workers at once; if it panics, the panic reaches the caller and s
// holds a mix of its old elements and of moved ones.
func CompactFunc[S ~[]E, E any](s S, eq func(a, b E) bool) S {
	return CompactFuncWith(s, eq)
}

// CompactFuncWith is CompactFunc with options (WithPool, WithCutoff).
func CompactFuncWith[S ~[]E, E any](s S, eq func(a, b E) bool, opts ...Option) S {
	if eq == nil {
		panic("sortpar: CompactFunc with a nil eq")
	}
	c := newConfig(opts)
	var zero E
	if len(s) < c.cutoff || c.pool.Workers() == 1 {
		words := make([]uint64, pack.Words(len(s)))
		k := 0
		if len(s) > 0 {
			pack.MarkRuns(s, zero, true, words, eq)
			k = pack.Gather(s, s, words) // in place: each element moves left or stays
		}
		clear(s[k:])
		return s[:k]
	}
	return s[:packInPlace(s, c, func(lo, hi int, words []uint64) int {
		if lo == 0 {
			return pack.MarkRuns(s[:hi], zero, true, words, eq)
		}
		return pack.MarkRuns(s[lo:hi], s[lo-1], false, words, eq)
	})]
}

// compactSerial is Compact on the calling goroutine. Every element is
// stored at the next free place and the place advances only if it differs
// from the one before: no branch on the comparison, which a run of a few
// equal elements would mispredict at each of its ends.
func compactSerial[S ~[]E, E comparable](s S) S {
	if len(s) < 2 {
		return s
	}
	k, prev := 1, s[0]
	for i := 1; i < len(s); i++ {
		v := s[i]
		s[k] = v
		if v != prev {
			k++
		}
		prev = v
	}
	clear(s[k:])
	return s[:k]
}

// packInPlace packs s in place with pack.InPlace on c's pool.
func packInPlace[E any](s []E, c config, mark func(lo, hi int, words []uint64) int) int {
	return core.Run(c.pool, func(w *core.Worker) int {
		return pack.InPlace(s, mark, func(n int, body func(lo, hi int)) {
			k := chunks(n, 1, c.pool.Workers())
			parFor(w, k, func(_ *core.Worker, i int) {
				lo, hi := chunkBounds(n, k, i)
				body(lo, hi)
			})
		})
	})
}
