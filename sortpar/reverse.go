package sortpar

import "github.com/gofork/gofork/core"

// reverse reverses x in parallel.
func reverse[E any](w *core.Worker, x []E, c *config) {
	n := len(x)
	half := n / 2
	k := chunks(half, c.grain, c.pool.Workers())
	forChunks(w, half, k, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			x[j], x[n-1-j] = x[n-1-j], x[j]
		}
	})
}
