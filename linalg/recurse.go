package linalg

import "github.com/gofork/gofork/core"

// Recursion cutoffs. The recursion halves blocks until their volume m*n*k is
// at most the grain, which is leafVolMax on one worker and, with more
// workers, about an eighth of a worker's share of the work (but never below
// leafVolMin), so that the pool has enough blocks to balance.
//
// The figures come from BenchmarkLeaf (leaf_test.go) on a 2-core Zen 4:
//   - a leaf of 256x256x256 runs the AVX2 kernel at ~92% of its peak; 128^3
//     loses ~5% to packing (a is packed once per leaf and reused n/nr
//     times, b once and reused m/mr times), 64^3 ~20%.
//   - Blocks bigger than 256^3 gain nothing: the packed a block (m x kc)
//     must stay in the 1 MiB L2 while b panels stream through L1.
const (
	leafVolMax = 256 * 256 * 256
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
