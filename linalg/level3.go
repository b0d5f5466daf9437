package linalg

import (
	"sync"

	"github.com/gofork/gofork/core"
)

// Cutoffs of the Level 3 routines other than Dgemm, which recurse on the
// triangle or the symmetric matrix and hand their rectangular blocks to
// the multiply.
const (
	// triLeaf is the order of the diagonal blocks that Dtrsm and Dtrmm
	// solve or multiply with gonum's serial code (a share triLeaf/m of
	// the flops); the blocks off the diagonal go to the multiply, whose
	// depth halves with each level, so the shallow ones carry little work.
	triLeaf = 32
	// symLeaf is the order of the diagonal blocks that Dsyrk, Dsyr2k and
	// Dsymm compute as full squares into a scratch matrix (Dsyrk and
	// Dsyr2k then compute symLeaf/n more flops than they need).
	symLeaf = 96
	// stripMin is the narrowest strip of columns (or rows) of B or C that
	// is made a task of its own.
	stripMin = 64
	// parMinVol is the smallest m*n*k that goes through the pool; a
	// smaller call runs serially on the calling goroutine.
	parMinVol = 64 * 64 * 64
	// smallVol is the largest m*n*k that gonum's own serial code takes
	// whole: below it packing costs more than it saves.
	smallVol = 16 * 16 * 16
)

// level3 is what one Level 3 call runs with.
type level3 struct {
	config
	spread    int // parallel tasks the call should be cut into
	triLeaf   int
	symLeaf   int
	stripMin  int
	parMinVol int64
	smallVol  int64
}

// newLevel3 resolves b's settings: the calling task's pool or
// core.Default(), the fastest kernel, and the package's cutoffs, unless a
// test set its own.
func newLevel3(b BLAS) *level3 {
	lv := &level3{
		config:    newConfig("linalg.BLAS", nil),
		triLeaf:   triLeaf,
		symLeaf:   symLeaf,
		stripMin:  stripMin,
		parMinVol: parMinVol,
		smallVol:  smallVol,
	}
	if t := b.tune; t != nil {
		if t.pool != nil {
			lv.pool = t.pool
		}
		if t.kern.tile != nil {
			lv.kern = t.kern
		}
		lv.grain = t.grain
		lv.triLeaf, lv.symLeaf, lv.stripMin = t.triLeaf, t.symLeaf, t.stripMin
		lv.parMinVol, lv.smallVol = t.parMinVol, t.smallVol
	}
	lv.spread = 1
	if p := lv.pool.Workers(); p > 1 {
		lv.spread = p * tasksPerWorker
	}
	return lv
}

// run calls f on a worker of the pool when the call's volume warrants it
// and on the calling goroutine (w == nil: everything serial) otherwise.
func (lv *level3) run(vol int64, f func(w *core.Worker)) {
	if vol < lv.parMinVol {
		f(nil)
		return
	}
	core.RunValue(lv.pool, func(w *core.Worker) struct{} {
		f(w)
		return struct{}{}
	})
}

// gemm sets c = alpha*a*b + beta*c for an m x k view a and a k x n view b,
// on w (nil: serially), cut into at most spread parallel blocks.
func (lv *level3) gemm(w *core.Worker, spread, m, n, k int, alpha float64, a, b operand, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleSerial(m, n, beta, c, ldc)
		return
	}
	g := lv.newGemm(alpha, a, b, beta, c, ldc)
	t := block{g: g, m: m, n: n, k: k, first: true, spread: spread}
	if w == nil || t.volume() <= int64(g.grain) && !t.spreads() {
		leaf(w, t)
		return
	}
	mulBlock(w, t)
}

// span is a range [lo, lo+n) of columns or rows and the number of tasks it
// should still be cut into.
type span struct{ lo, n, spread int }

// strips cuts [0, n) into strips at least stripMin wide, one per worker,
// and runs f on each, in parallel where w is not nil. Each strip packs the
// whole triangular or symmetric matrix again (a share of about 35/n of the
// time per strip at n columns), so there are no more strips than workers;
// the multiplies inside a strip fork further, and an idle worker steals
// from those.
func (lv *level3) strips(w *core.Worker, n int, f func(w *core.Worker, lo, n int)) {
	var cut func(w *core.Worker, s span) struct{}
	cut = func(w *core.Worker, s span) struct{} {
		if w == nil || s.spread <= 1 || s.n < 2*max(lv.stripMin, 1) {
			f(w, s.lo, s.n)
			return struct{}{}
		}
		h := splitPoint(s.n, nr)
		core.Join(w, cut, span{s.lo, h, (s.spread + 1) / 2}, cut, span{s.lo + h, s.n - h, s.spread / 2})
		return struct{}{}
	}
	cut(w, span{0, n, lv.pool.Workers()})
}

// at returns the view of op whose element (0, 0) is op's element (i, j).
func (op operand) at(i, j int) operand {
	if op.trans {
		i, j = j, i
	}
	op.data = op.data[i*op.stride+j:]
	return op
}

// t returns the transpose of op.
func (op operand) t() operand {
	op.trans = !op.trans
	return op
}

// scratch is a square matrix for a diagonal block, reused through
// scratchPool.
type scratch struct{ data []float64 }

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch(n int) *scratch {
	s := scratchPool.Get().(*scratch)
	if cap(s.data) < n {
		s.data = make([]float64, n)
	}
	s.data = s.data[:n]
	return s
}
