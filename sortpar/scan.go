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
		r.body(w, r.lo)
	}
	return struct{}{}
}

// parFor runs body(w, i) for i in [0, n), in parallel on w's pool.
func parFor(w *core.Worker, n int, body func(w *core.Worker, i int)) {
	parForTask(w, forRange{0, n, body})
}

// chunks returns how many pieces to cut n elements into for a parallel
// loop: about four per worker so thieves find work, none under grain.
func chunks(n, grain, workers int) int {
	k := min(4*workers, n/max(grain, 1))
	return max(k, 1)
}

// chunkBounds returns the i-th of k near-equal pieces of [0, n).
func chunkBounds(n, k, i int) (lo, hi int) {
	return i * n / k, (i + 1) * n / k
}

// scanBlock is how many elements a scan checks between looks at the shared
// "both answers known" flag.
const scanBlock = 1 << 10

// scanOrdered reports whether x is sorted (ascending, NaNs first as in
// slices.IsSorted) and whether it is reversed: non-increasing, or strictly
// decreasing when strict is set (the stable sorts may only reverse runs with
// no equal neighbours). The scan stops early once both answers are false.
func scanOrdered[E cmp.Ordered](x []E, strict bool, c *config) (sorted, reversed bool) {
	return scan(x, c, func(lo, hi int, st *scanState) {
		asc, desc := st.asc.Load(), st.desc.Load()
		for b := lo; b < hi && (asc || desc); b += scanBlock {
			e := min(b+scanBlock, hi)
			for i := max(b, 1); i < e; i++ {
				if cmp.Less(x[i], x[i-1]) {
					asc = false
				} else if strict || cmp.Less(x[i-1], x[i]) {
					desc = false
				}
			}
			asc, desc = st.update(asc, desc)
		}
	})
}

// scanFunc is scanOrdered for a comparison function.
func scanFunc[E any](x []E, cmpf func(a, b E) int, strict bool, c *config) (sorted, reversed bool) {
	return scan(x, c, func(lo, hi int, st *scanState) {
		asc, desc := st.asc.Load(), st.desc.Load()
		for b := lo; b < hi && (asc || desc); b += scanBlock {
			e := min(b+scanBlock, hi)
			for i := max(b, 1); i < e; i++ {
				r := cmpf(x[i], x[i-1])
				if r < 0 {
					asc = false
				} else if strict || r > 0 {
					desc = false
				}
			}
			asc, desc = st.update(asc, desc)
		}
	})
}

// scanState is shared by the chunks of one scan. asc and desc start true
// and are only ever cleared (Store(false)); a chunk reads them between
// blocks to stop early once both are false. Join orders every chunk's stores
// before scan reads the results.
type scanState struct {
	asc, desc atomic.Bool
}

// update publishes a chunk's findings and returns the combined view.
func (st *scanState) update(asc, desc bool) (bool, bool) {
	if !asc {
		st.asc.Store(false) // seen by other chunks' Load in update/start
	}
	if !desc {
		st.desc.Store(false)
	}
	return asc && st.asc.Load(), desc && st.desc.Load()
}

// scan runs check over chunks of x in parallel. Each chunk [lo, hi) also
// compares x[lo] with x[lo-1] so the seams are covered.
func scan[E any](x []E, c *config, check func(lo, hi int, st *scanState)) (sorted, reversed bool) {
	n := len(x)
	st := new(scanState)
	st.asc.Store(true)
	st.desc.Store(true)
	if n < 2 {
		return true, true
	}
	k := chunks(n, c.grain, c.pool.Workers())
	core.Run(c.pool, func(w *core.Worker) struct{} {
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(n, k, i)
			check(lo, hi, st)
		})
		return struct{}{}
	})
	return st.asc.Load(), st.desc.Load()
}

// reverse reverses x in parallel.
func reverse[E any](x []E, c *config) {
	n := len(x)
	half := n / 2
	k := chunks(half, c.grain, c.pool.Workers())
	core.Run(c.pool, func(w *core.Worker) struct{} {
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(half, k, i)
			for j := lo; j < hi; j++ {
				x[j], x[n-1-j] = x[n-1-j], x[j]
			}
		})
		return struct{}{}
	})
}
