package sortpar

import (
	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/pack"
	"github.com/gofork/gofork/par"
)

// Compact replaces each run of equal consecutive elements of s by its first
// element, in place, zeroes the elements between the new length and the old
// one and returns s up to the new length, like slices.Compact, in parallel.
// It takes Sort's options.
//
// Long slices are packed round by round, in rounds of a fixed number of
// bytes: the blocks of a round keep, each within itself and in parallel,
// the elements that differ from the one before them, then copy them to
// their final place, as par.DeleteFunc packs. On one worker every element
// is stored at the next free place, which advances only past a change: no
// branch on the comparison.
func Compact[S ~[]E, E comparable](s S, opts ...par.Option) S {
	c := newConfig("sortpar.Compact", opts)
	if len(s) < c.cutoff || c.pool.Workers() == 1 {
		return packSerial(s, pack.Changes[E]{})
	}
	return s[:core.RunValue(c.pool, func(w *core.Worker) int {
		return packInPlace(w, s, pack.Changes[E]{})
	})]
}

// CompactFunc is Compact with eq telling which elements are equal, like
// slices.CompactFunc: of each run of elements where eq(s[i], s[i-1]) holds
// for every neighbour pair, the first is kept. eq is called once for each
// pair of neighbours, as eq(s[i], s[i-1]) on the original elements, from
// several workers at once, so the result is what eq's answers ask for even
// if eq is not an equivalence. If eq panics, the panic reaches the caller
// and s holds a permutation of its elements. On one worker CompactFunc moves
// elements only by swapping them; on several it first calls eq on every
// pair, in parallel, recording the answers in a bit per element (len(s)/8
// bytes allocated), and moves nothing until every call has returned.
func CompactFunc[S ~[]E, E any](s S, eq func(a, b E) bool, opts ...par.Option) S {
	if eq == nil {
		panic("sortpar: CompactFunc with a nil eq")
	}
	c := newConfig("sortpar.CompactFunc", opts)
	if len(s) < c.cutoff || c.pool.Workers() == 1 {
		return packSerial(s, pack.Runs[E]{Eq: eq})
	}
	return s[:core.RunValue(c.pool, func(w *core.Worker) int {
		n := len(s)
		words := make([]uint64, pack.Words(n))
		run := runner(w)
		run(pack.Blocks(n), func(b0, b1 int) {
			pack.MarkRuns(s, words, b0*pack.BlockLen, min(b1*pack.BlockLen, n), eq)
		})
		return pack.InPlaceMarked(s, words, run)
	})]
}

// packSerial packs s as one block on the calling goroutine and zeroes the
// rest.
func packSerial[S ~[]E, E any](s S, p pack.Packer[E]) S {
	if len(s) < 2 {
		return s
	}
	var zero E
	k := p.Pack(s, true, zero)
	clear(s[k:])
	return s[:k]
}

// packInPlace packs s in place with p (pack.InPlace) on w's pool.
func packInPlace[E any](w *core.Worker, s []E, p pack.Packer[E]) int {
	return pack.InPlace(s, p, runner(w))
}

// runner returns the pack.Runner that runs its loops on w's pool, from w,
// in about four chunks per worker.
func runner(w *core.Worker) pack.Runner {
	workers := w.Pool().Workers()
	return func(n int, body func(lo, hi int)) {
		forChunks(w, n, chunks(n, 1, workers), func(_, lo, hi int) { body(lo, hi) })
	}
}
