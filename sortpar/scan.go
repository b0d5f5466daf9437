package sortpar

import (
	"cmp"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// scanBlock is how many neighbour pairs a scan checks between looks at the
// shared "a pair failed" flag.
const scanBlock = 1 << 10

// scanOrdered reports whether x is sorted (ascending, NaNs first as in
// slices.IsSorted) and, if it is not, whether it is reversed: non-increasing,
// or strictly decreasing when strict is set (the stable sorts may only
// reverse runs with no equal neighbours). Each scan stops at the first
// failing pair, so on unordered input both answers cost next to nothing.
func scanOrdered[E cmp.Ordered](w *core.Worker, x []E, strict bool, c *config) (sorted, reversed bool) {
	// The loops range over x[lo-1:hi] keeping the previous element, so they
	// carry no bounds checks.
	sorted = allPairs(w, len(x), c, func(lo, hi int) bool {
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
	reversed = allPairs(w, len(x), c, func(lo, hi int) bool {
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
func scanFunc[E any](w *core.Worker, x []E, cmpf func(a, b E) int, strict bool, c *config) (sorted, reversed bool) {
	sorted = allPairs(w, len(x), c, func(lo, hi int) bool {
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
	reversed = allPairs(w, len(x), c, func(lo, hi int) bool {
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
func allPairs(w *core.Worker, n int, c *config, check func(lo, hi int) bool) bool {
	if n < 2 {
		return true
	}
	// failed is only ever set (Store(true)) by a chunk that found a bad
	// pair; other chunks Load it between blocks to stop early. Join orders
	// every Store before the final Load.
	var failed atomic.Bool
	k := chunks(n, c.grain, c.pool.Workers())
	forChunks(w, n, k, func(_, lo, hi int) {
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
	return !failed.Load()
}
