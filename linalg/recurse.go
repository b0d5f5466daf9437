package linalg

import "github.com/gofork/gofork/core"

// Recursion cutoffs. The recursion halves blocks until their volume m*n*k is
// at most the grain: leafVolMax on one worker and, with more workers, about
// 1/tasksPerWorker of a worker's share of the work (never below leafVolMin),
// so that thieves find enough blocks to balance.
//
// Measured on a 2-core Zen 4 (thread CPU time, best of 5, one worker; the
// micro-kernel alone runs at ~54 GFLOP/s from L1):
//
//	leaf          n=512  n=1024  n=2048  GFLOP/s
//	128x256x256    38     44      44
//	256^3          45     45      45
//	512x256x512    50     49      48
//	512^3          50     50      50
//	1024x256x1024  53     51      50
//
// Every leaf packs its own panels of a and b, so a recursion with small
// leaves packs each element of a n/leafN times and of b m/leafM times;
// with a packed copy costing ~0.4 ns per element (BenchmarkPack) that is
// ~10% of the time at 256^3 leaves. Inside a leaf the BLIS loops (mc, kc,
// nc in leaf.go) keep the cache footprint fixed whatever the leaf size, so
// big leaves cost nothing in locality; 512^3 is the largest that still gives
// 8 blocks at n=1024. Below leafVolMin (~96x96x128) packing and the ragged
// micro-tiles at the block edges cost more than the balance gains.
const (
	leafVolMax = 512 * 512 * 512
	leafVolMin = 96 * 96 * 128
	// kSplitMin is the depth below which k is not split: the leaf walks k
	// in kc-deep steps itself, and a k split adds no parallelism.
	kSplitMin = kc
	// tasksPerWorker is how many leaves each worker should get at least,
	// so that an unlucky split or a busy core does not leave one idle.
	tasksPerWorker = 8
)

// gemm is the state shared by every block of one multiply.
type gemm struct {
	a, b  operand
	c     []float64
	ldc   int
	alpha float64
	beta  float64
	kern  kernel
	grain int
}

// block is the task argument: the product of rows [i, i+m) of a and columns
// [j, j+n) of b over the inner range [p, p+k), added into dst. first says
// that this block is the first k-step to touch its part of dst, so beta
// applies; later k-steps accumulate.
type block struct {
	g       *gemm
	i, j, p int
	m, n, k int
	first   bool
}

func multiply(cfg config, m, n, k int, alpha float64, a, b operand, beta float64, c []float64, ldc int) {
	if alpha == 0 || k == 0 {
		scaleSerial(m, n, beta, c, ldc)
		return
	}
	g := &gemm{a: a, b: b, c: c, ldc: ldc, alpha: alpha, beta: beta, kern: cfg.kern, grain: leafVolMax}
	if p := cfg.pool.Workers(); p > 1 {
		share := m * n * k / (p * tasksPerWorker)
		g.grain = max(leafVolMin, min(leafVolMax, share))
	}
	if cfg.grain > 0 {
		g.grain = cfg.grain
	}
	root := block{g: g, m: m, n: n, k: k, first: true}
	if m*n*k <= g.grain {
		// Small products skip the trip through the pool.
		leaf(root)
		return
	}
	core.Run(cfg.pool, func(w *core.Worker) struct{} { return mulBlock(w, root) })
}

// mulBlock computes block t: it halves the largest of m, n and k until the
// block is at most the grain, then runs the serial leaf. m and n halves are
// disjoint blocks of dst and run as a Join; k halves update the same block
// and run in order.
func mulBlock(w *core.Worker, t block) struct{} {
	for {
		if t.m*t.n*t.k <= t.g.grain {
			leaf(t)
			return struct{}{}
		}
		switch {
		case t.k > kSplitMin && t.k >= t.m && t.k >= t.n:
			h := splitPoint(t.k, kc)
			lo, hi := t, t
			lo.k = h
			hi.p, hi.k, hi.first = t.p+h, t.k-h, false
			mulBlock(w, lo)
			t = hi
		case t.m >= t.n && t.m >= 2*mr:
			h := splitPoint(t.m, mr)
			lo, hi := t, t
			lo.m = h
			hi.i, hi.m = t.i+h, t.m-h
			core.Join(w, mulBlock, lo, mulBlock, hi)
			return struct{}{}
		case t.n >= 2*nr:
			h := splitPoint(t.n, nr)
			lo, hi := t, t
			lo.n = h
			hi.j, hi.n = t.j+h, t.n-h
			core.Join(w, mulBlock, lo, mulBlock, hi)
			return struct{}{}
		case t.m >= 2*mr:
			h := splitPoint(t.m, mr)
			lo, hi := t, t
			lo.m = h
			hi.i, hi.m = t.i+h, t.m-h
			core.Join(w, mulBlock, lo, mulBlock, hi)
			return struct{}{}
		default:
			// Too thin to split m or n and too shallow to split k:
			// the leaf takes it whole.
			leaf(t)
			return struct{}{}
		}
	}
}

// splitPoint returns about half of x, rounded up to a multiple of unit when
// that leaves both halves non-empty, so that fewer leaves end in a ragged
// micro-tile.
func splitPoint(x, unit int) int {
	h := (x/2 + unit - 1) / unit * unit
	if h <= 0 || h >= x {
		h = x / 2
	}
	return h
}

// scaleSerial sets c = beta*c, or c = 0 without reading c when beta is 0.
func scaleSerial(m, n int, beta float64, c []float64, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}
