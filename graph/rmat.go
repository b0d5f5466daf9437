package graph

import (
	"fmt"

	"github.com/gofork/gofork/par"
)

// The R-MAT quadrant probabilities of Ligra's and PBBS's rMatGraph
// generator (0.5, 0.1, 0.1, 0.3), as cumulative thresholds for a 16-bit
// draw d: an edge falls in the top-left quarter of the adjacency matrix if
// d < rmatCutA, top-right if d < rmatCutAB, bottom-left if d < rmatCutABC,
// else bottom-right, and so on recursively.
const (
	rmatCutA   uint64 = 32768 // 0.5 · 2^16
	rmatCutAB  uint64 = 39322 // 0.6 · 2^16, rounded
	rmatCutABC uint64 = 45875 // 0.7 · 2^16, rounded
)

// RMat returns a symmetric R-MAT graph (Chakrabarti, Zhan and Faloutsos,
// "R-MAT: A Recursive Model for Graph Mining", SDM 2004), the generator of
// Graph500, PBBS and Ligra: 2^scale vertices and edgesPerVertex·2^scale
// edges drawn by recursive descent into the quadrants of the adjacency
// matrix with Ligra's probabilities (0.5, 0.1, 0.1, 0.3), then symmetrized,
// with duplicates and self-loops dropped. Edge i is drawn from a hash of
// (seed, i), so the graph depends on the arguments only, not on the number
// of workers. Edges are drawn in parallel on the pool of the calling task,
// or core.Default().
//
// It panics if scale is outside [0, 30] or edgesPerVertex is negative.
func RMat(scale, edgesPerVertex int, seed uint64) *Graph {
	if scale < 0 || scale > 30 {
		panic(fmt.Sprintf("graph: RMat: scale %d: want 0 to 30", scale))
	}
	if edgesPerVertex < 0 {
		panic(fmt.Sprintf("graph: RMat: edgesPerVertex %d: want at least 0", edgesPerVertex))
	}
	pool := poolOf("graph.RMat", nil)
	n := 1 << scale
	m := edgesPerVertex * n
	keys := make([]uint64, 2*m)
	par.ForRange(0, m, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			u, v := rmatEdge(scale, seed, uint64(i))
			keys[2*i] = edgeKey(u, v)
			keys[2*i+1] = edgeKey(v, u)
		}
	}, par.WithPool(pool))
	return fromKeys(n, keys, true, pool)
}

// rmatEdge draws edge i: one 16-bit draw per level, four per 64-bit hash.
// The quadrant's two bits are computed without branches, which a random
// draw would mispredict.
func rmatEdge(scale int, seed, i uint64) (u, v int32) {
	var r uint64
	for level := 0; level < scale; level++ {
		if level&3 == 0 {
			r = mix64(seed ^ mix64(i<<8|uint64(level>>2)))
		}
		d := r & 0xffff
		r >>= 16
		shift := uint(scale - 1 - level)
		// atLeast(c) is 1 if d >= c, else 0 (d and c are below 2^16).
		atLeastA := (rmatCutA - 1 - d) >> 63
		atLeastAB := (rmatCutAB - 1 - d) >> 63
		atLeastABC := (rmatCutABC - 1 - d) >> 63
		u |= int32(atLeastAB) << shift                     // bottom half: quadrants c and d
		v |= int32(atLeastA-atLeastAB+atLeastABC) << shift // right half: quadrants b and d
	}
	return u, v
}

// mix64 is SplitMix64's finalizer (Steele, Lea and Flood, OOPSLA 2014): a
// bijection of uint64 whose outputs pass as independent uniform draws.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
