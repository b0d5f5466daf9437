package sortpar

import (
	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
)

// forEach runs body(w, i) for i in [0, k) on w's pool, from w: one index
// per leaf of a balanced tree of Joins, each leaf starting at a poll point
// (loop.Each).
func forEach(w *core.Worker, k int, body func(w *core.Worker, i int)) {
	loop.Each(w, k, body)
}

// forChunks cuts [0, n) into k near-equal chunks and runs body(i, lo, hi)
// for chunk i = [lo, hi), in parallel on w's pool, from w, as forEach runs
// its indices (loop.Chunks).
func forChunks(w *core.Worker, n, k int, body func(i, lo, hi int)) {
	loop.Chunks(w, n, k, body)
}

// chunks returns how many pieces to cut n elements into for a parallel
// loop: about four per worker so thieves find work, none under grain, and
// none over maxChunk.
func chunks(n, grain, workers int) int {
	k := min(4*workers, n/max(grain, 1))
	return max(k, 1, (n+maxChunk-1)/maxChunk)
}

// maxChunk bounds the elements of one chunk of a parallel loop, so that a
// worker reaches a poll point (one before each chunk) every few hundred
// microseconds at most: a root submitted to the pool meanwhile waits no
// longer than that for a busy worker.
const maxChunk = 1 << 17
