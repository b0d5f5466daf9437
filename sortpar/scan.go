package sortpar

import (
	"cmp"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// forRange is the argument of parForTask: run body(i) for i in [lo, hi).
type forRange struct {
	lo, hi int
	body   func(w *core.Worker, i int)
}

// parForTask runs body over [lo, hi) as a balanced tree of Joins. It is a
// top-level function with its state in the argument, so a fork allocates
// nothing.
func parForTask(w *core.Worker, r forRange) struct{} {
	for r.hi-r.lo > 1 {
		mid := int(uint(r.lo+r.hi) >> 1)
		core.Join(w, parForTask, forRange{r.lo, mid, r.body}, parForTask, forRange{mid, r.hi, r.body})
		return struct{}{}
	}
	if r.hi > r.lo {
		w.Poll() // a poll point per chunk (see maxChunk)
		r.body(w, r.lo)
	}
	return struct{}{}
}

// parFor runs body(w, i) for i in [0, n), in parallel on w's pool.
func parFor(w *core.Worker, n int, body func(w *core.Worker, i int)) {
	parForTask(w, forRange{0, n, body})
}

// chunks returns how many pieces to cut n elements into for a parallel
// loop: about four per worker so thieves find work, none under grain, and
// none over maxChunk.
func chunks(n, grain, workers int) int {
	k := min(4*workers, n/max(grain, 1))
	return max(k, 1, (n+maxChunk-1)/maxChunk)
}

// maxChunk bounds the elements of one chunk of a parallel loop, so that a
// worker reaches a poll point (parForTask calls core.Worker.Poll before
// each chunk) every few hundred microseconds at most: a root submitted to
// the pool meanwhile waits no longer than that for a busy worker (see
// core's fair service). 128 Ki elements is ~0.1-0.5 ms of a radix pass, a
// partition or a scan.
const maxChunk = 1 << 17

// chunkBounds returns the i-th of k near-equal pieces of [0, n). i*n is taken
// in 64 bits: where int has 32 bits it overflows once n passes 2^31/k (67 M
// elements at k = 32), and the pieces would no longer tile the range.
func chunkBounds(n, k, i int) (lo, hi int) {
	n64, k64 := int64(n), int64(k)
	return int(int64(i) * n64 / k64), int(int64(i+1) * n64 / k64)
}

// scanBlock is how many neighbour pairs a scan checks between looks at the
// shared "a pair failed" flag.
const scanBlock = 1 << 10

// scanOrdered reports whether x is sorted (ascending, NaNs first as in
// slices.IsSorted) and, if it is not, whether it is reversed: non-increasing,
// or strictly decreasing when strict is set (the stable sorts may only
// reverse runs with no equal neighbours). Each scan stops at the first
// failing pair, so on unordered input both answers cost next to nothing.
func scanOrdered[E cmp.Ordered](x []E, strict bool, c *config) (sorted, reversed bool) {
	// The loops range over x[lo-1:hi] keeping the previous element, so they
	// carry no bounds checks.
	sorted = allPairs(len(x), c, func(lo, hi int) bool {
		s := x[lo-1 : hi]
		prev := s[0]
		for _, v := range s[1:] {
			if cmp.Less(v, prev) {
				return false
			}
			prev = v
		}
		return true
	})
	if sorted {
		return true, false
	}
	reversed = allPairs(len(x), c, func(lo, hi int) bool {
		s := x[lo-1 : hi]
		prev := s[0]
		for _, v := range s[1:] {
			if cmp.Less(prev, v) || (strict && !cmp.Less(v, prev)) {
				return false
			}
			prev = v
		}
		return true
	})
	return false, reversed
}

// scanFunc is scanOrdered for a comparison function.
func scanFunc[E any](x []E, cmpf func(a, b E) int, strict bool, c *config) (sorted, reversed bool) {
	sorted = allPairs(len(x), c, func(lo, hi int) bool {
		s := x[lo-1 : hi]
		for i := 1; i < len(s); i++ {
			if cmpf(s[i], s[i-1]) < 0 {
				return false
			}
		}
		return true
	})
	if sorted {
		return true, false
	}
	reversed = allPairs(len(x), c, func(lo, hi int) bool {
		s := x[lo-1 : hi]
		for i := 1; i < len(s); i++ {
			if r := cmpf(s[i], s[i-1]); r > 0 || (strict && r == 0) {
				return false
			}
		}
		return true
	})
	return false, reversed
}

// allPairs reports whether check(lo, hi) holds for every block of the
// neighbour pairs (x[i-1], x[i]), i in [1, n). Chunks run in parallel and
// stop early once any block failed.
func allPairs(n int, c *config, check func(lo, hi int) bool) bool {
	if n < 2 {
		return true
	}
	// failed is only ever set (Store(true)) by a chunk that found a bad
	// pair; other chunks Load it between blocks to stop early. Join orders
	// every Store before the final Load.
	var failed atomic.Bool
	k := chunks(n, c.grain, c.pool.Workers())
	c.pool.Run(func(w *core.Worker) {
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(n, k, i)
			for b := max(lo, 1); b < hi; b += scanBlock {
				if failed.Load() {
					return
				}
				if !check(b, min(b+scanBlock, hi)) {
					failed.Store(true) // seen by the Loads above and below
					return
				}
			}
		})
	})
	return !failed.Load()
}

// reverse reverses x in parallel.
func reverse[E any](x []E, c *config) {
	n := len(x)
	half := n / 2
	k := chunks(half, c.grain, c.pool.Workers())
	c.pool.Run(func(w *core.Worker) {
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(half, k, i)
			for j := lo; j < hi; j++ {
				x[j], x[n-1-j] = x[n-1-j], x[j]
			}
		})
	})
}
