package sortpar

import (
	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
)

// forEach runs body(w, i) for i in [0, k) on w's pool, from w: a split
// loop of internal/loop under the Simple partitioner with one index per
// leaf, so that the indices form a balanced tree of Joins and each starts
// at a poll point (the loop shares the worker's frames before every leaf).
func forEach(w *core.Worker, k int, body func(w *core.Worker, i int)) {
	splitOn(w, k, func(w *core.Worker, a, b uint64, acc struct{}) struct{} {
		for i := a; i < b; i++ {
			body(w, int(i))
		}
		return acc
	})
}

// forChunks cuts [0, n) into k near-equal chunks and runs body(i, lo, hi)
// for chunk i = [lo, hi), in parallel on w's pool, from w, as forEach runs
// its indices.
func forChunks(w *core.Worker, n, k int, body func(i, lo, hi int)) {
	splitOn(w, k, func(_ *core.Worker, a, b uint64, acc struct{}) struct{} {
		for i := a; i < b; i++ {
			lo := loop.ChunkBound(i, uint64(k), uint64(n))
			hi := loop.ChunkBound(i+1, uint64(k), uint64(n))
			body(int(i), int(lo), int(hi))
		}
		return acc
	})
}

// splitOn runs leaf over [0, k) from w, one index per leaf.
func splitOn(w *core.Worker, k int, leaf func(w *core.Worker, a, b uint64, acc struct{}) struct{}) {
	loop.SplitOn(w, uint64(k), struct{}{}, loop.Ops[struct{}]{LeafOn: leaf},
		loop.Config{Pool: w.Pool(), Kind: loop.Simple, Simple: 1})
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
