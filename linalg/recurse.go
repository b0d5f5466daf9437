package linalg

import "github.com/gofork/gofork/core"

// Recursion cutoffs. The recursion first spreads the work: while a block
// is still meant to feed more than one task (block.spread > 1) it halves the
// larger of m and n, so that a pool of P workers gets about
// P*tasksPerWorker independent blocks whatever the shape, even when k is the
// longest side (a k split adds no parallelism). Then it halves the largest of
// m, n and k until a block's volume m*n*k is at most leafVolMax.
//
// Every leaf packs its own panels of a and b, so a leaf of mb x nb x kb
// repacks each element of a n/nb times and of b m/mb times: the smaller the
// leaves, the larger the share of packing in the time, which is why the
// leaves are as big as leafVolMax allows while every worker still gets
// some (the leaf sizes measured are in docs/BENCHMARKS.md). Inside a leaf the BLIS loops (mc, kc,
// nc in leaf.go) keep the cache footprint fixed whatever the leaf size, so
// big leaves lose nothing in locality.
const (
	leafVolMax = 512 * 512 * 1024
	// leafVolMin is the smallest block that spreading makes; below it a
	// block repacks more than it computes (see above).
	leafVolMin = 128 * 128 * 128
	// Spreading halves the larger of m and n only while it is at least
	// spreadMinMN and the halves keep an m x n face of at least
	// spreadMinArea: smaller blocks repack long panels of a and b for too
	// little work. At 64x4096x64 on two workers one split (two 32x64
	// blocks, each packing its panels over all of k) ran 54-56 GFLOP/s
	// against 36-39 unsplit; four 32x32 blocks ran slower than one.
	spreadMinMN   = 64
	spreadMinArea = 32 * 64
	// kSplitMin is the depth below which k is not split: the leaf walks k
	// in kc-deep steps itself.
	kSplitMin = kc
	// tasksPerWorker is how many blocks each worker should get, so that an
	// unlucky split or a busy core does not leave one idle. On two workers,
	// 4 per worker (8 blocks of 64x128x256 at n=256) ran 62-74 GFLOP/s at
	// n=256 and 74-95 at n=1024; 2 per worker ran 62-65 and 74-80.
	tasksPerWorker = 4
)

// gemm is the state shared by every block of one multiply.
type gemm struct {
	a, b  operand
	c     []float64
	ldc   int
	alpha float64
	beta  float64
	kern  microKernel
	grain int
}

// block is the task argument: the product of rows [i, i+m) of a and columns
// [j, j+n) of b over the inner range [p, p+k), added into dst. first says
// that this block is the first k-step to touch its part of dst, so beta
// applies; later k-steps accumulate. spread is how many parallel tasks the
// block should still be cut into.
type block struct {
	g       *gemm
	i, j, p int
	m, n, k int
	spread  int
	first   bool
}

// newGemm returns the state of one multiply c = alpha*a*b + beta*c with
// cfg's kernel and leaf volume.
func (cfg config) newGemm(alpha float64, a, b operand, beta float64, c []float64, ldc int) *gemm {
	g := &gemm{a: a, b: b, c: c, ldc: ldc, alpha: alpha, beta: beta, kern: cfg.kern, grain: leafVolMax}
	if cfg.grain > 0 {
		g.grain = cfg.grain
	}
	return g
}

func multiply(cfg config, m, n, k int, alpha float64, a, b operand, beta float64, c []float64, ldc int) {
	if alpha == 0 || k == 0 {
		scaleSerial(m, n, beta, c, ldc)
		return
	}
	g := cfg.newGemm(alpha, a, b, beta, c, ldc)
	root := block{g: g, m: m, n: n, k: k, first: true, spread: cfg.pool.Workers() * tasksPerWorker}
	if cfg.pool.Workers() == 1 {
		root.spread = 1
	}
	if root.volume() <= int64(g.grain) && !root.spreads() {
		// Small products skip the trip through the pool.
		leaf(nil, root)
		return
	}
	cfg.pool.Run(func(w *core.Worker) { mulBlock(w, root) })
}

// volume returns m*n*k in 64 bits: where int has 32 bits the product
// overflows from 1291^3 on, and a wrapped volume would send a big product to
// one serial leaf. m*n, a part of dst, always fits.
func (t *block) volume() int64 { return int64(t.m) * int64(t.n) * int64(t.k) }

// spreads reports whether t should be halved in m or n for parallelism.
func (t *block) spreads() bool {
	return t.spread > 1 && t.volume() >= 2*leafVolMin &&
		max(t.m, t.n) >= spreadMinMN && t.m*t.n >= 2*spreadMinArea
}

// mulBlock computes block t. m and n halves are disjoint blocks of dst and
// run as a Join; k halves update the same block and run in order, so no two
// tasks ever write the same element.
func mulBlock(w *core.Worker, t block) struct{} {
	for {
		switch {
		case t.spreads():
			if t.m >= t.n {
				return splitM(w, t)
			}
			return splitN(w, t)
		case t.volume() <= int64(t.g.grain):
			leaf(w, t)
			return struct{}{}
		case t.k > kSplitMin && t.k >= t.m && t.k >= t.n:
			h := splitPoint(t.k, kc)
			lo, hi := t, t
			lo.k = h
			hi.p, hi.k, hi.first = t.p+h, t.k-h, false
			mulBlock(w, lo)
			t = hi
		case t.m >= t.n && t.m >= 2*mr:
			return splitM(w, t)
		case t.n >= 2*nr:
			return splitN(w, t)
		case t.m >= 2*mr:
			return splitM(w, t)
		default:
			// Too thin to split m or n and too shallow to split k:
			// the leaf takes it whole.
			leaf(w, t)
			return struct{}{}
		}
	}
}

// splitM runs the top and bottom halves of t (by rows) as a Join.
func splitM(w *core.Worker, t block) struct{} {
	h := splitPoint(t.m, 2*mr) // whole wide tiles where it can
	lo, hi := t, t
	lo.m = h
	hi.i, hi.m = t.i+h, t.m-h
	lo.spread, hi.spread = (t.spread+1)/2, t.spread/2
	core.Join(w, mulBlock, lo, mulBlock, hi)
	return struct{}{}
}

// splitN runs the left and right halves of t (by columns) as a Join.
func splitN(w *core.Worker, t block) struct{} {
	h := splitPoint(t.n, 2*nr)
	lo, hi := t, t
	lo.n = h
	hi.j, hi.n = t.j+h, t.n-h
	lo.spread, hi.spread = (t.spread+1)/2, t.spread/2
	core.Join(w, mulBlock, lo, mulBlock, hi)
	return struct{}{}
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
