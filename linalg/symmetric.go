package linalg

import (
	"github.com/gofork/gofork/core"
	"gonum.org/v1/gonum/blas"
)

// rankK is one Dsyrk or Dsyr2k call: C's triangle ul is set to
// alpha*P*Rᵀ + beta*C (Dsyrk, R = P) or to alpha*(P*Rᵀ + R*Pᵀ) + beta*C
// (Dsyr2k), with P = op(A) and R = op(B), both n×k.
//
// The recursion halves C's order: the two triangles on the diagonal are
// smaller problems of the same kind and the rectangle beside them is a
// matrix multiply, all three independent, so they run as a Join. A diagonal
// block of order at most symLeaf is computed whole into a scratch square by
// the multiply, and its triangle is copied out.
type rankK struct {
	lower bool
	two   bool
	n, k  int
	alpha float64
	beta  float64
	p, r  operand
	c     []float64
	ldc   int
	lv    *level3
}

// Dsyrk computes the triangle ul of C = alpha*A*Aᵀ + beta*C (tA is
// blas.NoTrans, A is n×k) or C = alpha*Aᵀ*A + beta*C (A is k×n), with C
// symmetric n×n; the other triangle of C is not touched. When beta is zero
// C is not read.
func (b BLAS) Dsyrk(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if !checkRankK(ul, tA, n, k, a, lda, nil, 0, c, ldc, false) {
		return
	}
	lv := newLevel3(b)
	vol := int64(n) * int64(n) * int64(k)
	if alpha == 0 || k == 0 || vol <= lv.smallVol {
		clearTriangle(ul, n, beta, c, ldc)
		native.Dsyrk(ul, tA, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	p := operand{data: a, stride: lda, trans: isTrans(tA)}
	rk := &rankK{lower: ul == blas.Lower, n: n, k: k, alpha: alpha, beta: beta, p: p, r: p, c: c, ldc: ldc, lv: lv}
	lv.run(vol/2, func(w *core.Worker) { rk.block(w, 0, n, lv.spread) })
}

// Dsyr2k computes the triangle ul of C = alpha*(A*Bᵀ + B*Aᵀ) + beta*C (tA
// is blas.NoTrans, A and B are n×k) or C = alpha*(Aᵀ*B + Bᵀ*A) + beta*C (A
// and B are k×n), with C symmetric n×n; the other triangle of C is not
// touched. When beta is zero C is not read.
func (b BLAS) Dsyr2k(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, bm []float64, ldb int, beta float64, c []float64, ldc int) {
	if !checkRankK(ul, tA, n, k, a, lda, bm, ldb, c, ldc, true) {
		return
	}
	lv := newLevel3(b)
	vol := int64(n) * int64(n) * int64(k)
	if alpha == 0 || k == 0 || vol <= lv.smallVol {
		clearTriangle(ul, n, beta, c, ldc)
		native.Dsyr2k(ul, tA, n, k, alpha, a, lda, bm, ldb, beta, c, ldc)
		return
	}
	tr := isTrans(tA)
	rk := &rankK{
		lower: ul == blas.Lower, two: true, n: n, k: k, alpha: alpha, beta: beta,
		p: operand{data: a, stride: lda, trans: tr}, r: operand{data: bm, stride: ldb, trans: tr},
		c: c, ldc: ldc, lv: lv,
	}
	lv.run(vol, func(w *core.Worker) { rk.block(w, 0, n, lv.spread) })
}

// clearTriangle zeroes the triangle ul of the n×n matrix c when beta is
// zero: gonum's serial Dsyrk and Dsyr2k scale C by beta in some cases,
// which would carry a NaN in C into the result.
func clearTriangle(ul blas.Uplo, n int, beta float64, c []float64, ldc int) {
	if beta != 0 {
		return
	}
	for i := range n {
		if ul == blas.Lower {
			clear(c[i*ldc : i*ldc+i+1])
		} else {
			clear(c[i*ldc+i : i*ldc+n])
		}
	}
}

// block computes the triangle of C[d:d+s, d:d+s], cut into about spread
// parallel tasks.
func (rk *rankK) block(w *core.Worker, d, s, spread int) struct{} {
	if s <= max(rk.lv.symLeaf, 1) {
		rk.diagonal(w, d, s, spread)
		return struct{}{}
	}
	h := half(s)
	pair := func(w *core.Worker, sp int) struct{} {
		if w == nil {
			rk.block(w, d, h, sp)
			rk.block(w, d+h, s-h, sp)
			return struct{}{}
		}
		core.Join(w, func(w *core.Worker, sp int) struct{} { return rk.block(w, d, h, sp) }, sp,
			func(w *core.Worker, sp int) struct{} { return rk.block(w, d+h, s-h, sp) }, sp)
		return struct{}{}
	}
	// The rectangle: rows [d+h, d+s) x columns [d, d+h) of the lower
	// triangle, or its mirror in the upper one.
	rect := func(w *core.Worker, sp int) struct{} {
		i, j, m, n := d+h, d, s-h, h
		if !rk.lower {
			i, j, m, n = d, d+h, h, s-h
		}
		c := rk.c[i*rk.ldc+j:]
		rk.lv.gemm(w, sp, m, n, rk.k, rk.alpha, rk.p.at(i, 0), rk.r.at(j, 0).t(), rk.beta, c, rk.ldc)
		if rk.two {
			rk.lv.gemm(w, sp, m, n, rk.k, rk.alpha, rk.r.at(i, 0), rk.p.at(j, 0).t(), 1, c, rk.ldc)
		}
		return struct{}{}
	}
	if w == nil {
		pair(w, 1)
		rect(w, 1)
		return struct{}{}
	}
	core.Join(w, pair, max(spread/4, 1), rect, max(spread/2, 1))
	return struct{}{}
}

// diagonal computes the triangle of the diagonal block C[d:d+s, d:d+s]: the
// whole square P_d*R_dᵀ goes into scratch, and the triangle is copied out.
func (rk *rankK) diagonal(w *core.Worker, d, s, spread int) {
	sc := getScratch(s * s)
	t := sc.data
	rk.lv.gemm(w, spread, s, s, rk.k, 1, rk.p.at(d, 0), rk.r.at(d, 0).t(), 0, t, s)
	for i := range s {
		lo, hi := 0, i+1
		if !rk.lower {
			lo, hi = i, s
		}
		row := rk.c[(d+i)*rk.ldc+d:][lo:hi]
		for jj := range row {
			j := lo + jj
			v := t[i*s+j]
			if rk.two {
				v += t[j*s+i]
			}
			v *= rk.alpha
			if rk.beta != 0 {
				v += rk.beta * row[jj]
			}
			row[jj] = v
		}
	}
	scratchPool.Put(sc)
}

// Dsymm computes C = alpha*A*B + beta*C (side blas.Left, A is m×m) or
// C = alpha*B*A + beta*C (blas.Right, A is n×n), where A is symmetric and
// only its triangle ul is read, and B and C are m×n. When beta is zero C is
// not read.
//
// The recursion halves A's order: each half of C is the symmetric product
// with A's diagonal block plus a plain multiply with the block beside it,
// which is the stored block or the transpose of the stored one. The two
// halves of C are independent and run as a Join; a diagonal block of order
// at most symLeaf is copied out to a full square and multiplied.
func (b BLAS) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, bm []float64, ldb int, beta float64, c []float64, ldc int) {
	if !checkSymm(s, ul, m, n, a, lda, bm, ldb, c, ldc) {
		return
	}
	if alpha == 0 && beta == 1 {
		return
	}
	lv := newLevel3(b)
	vol := int64(m) * int64(n) * int64(sideOrder(s, m, n))
	if alpha == 0 || vol <= lv.smallVol {
		native.Dsymm(s, ul, m, n, alpha, a, lda, bm, ldb, beta, c, ldc)
		return
	}
	sy := &symmetric{lower: ul == blas.Lower, a: operand{data: a, stride: lda}, alpha: alpha, beta: beta, lv: lv}
	lv.run(vol, func(w *core.Worker) {
		if s == blas.Left {
			lv.strips(w, n, func(w *core.Worker, j, nj int) {
				sy.left(w, 0, m, operand{data: bm[j:], stride: ldb}, c[j:], ldc, nj)
			})
			return
		}
		lv.strips(w, m, func(w *core.Worker, i, mi int) {
			sy.right(w, 0, n, operand{data: bm[i*ldb:], stride: ldb}, c[i*ldc:], ldc, mi)
		})
	})
}

// symmetric is the symmetric matrix of one Dsymm call.
type symmetric struct {
	lower bool
	a     operand // A as stored
	alpha float64
	beta  float64
	lv    *level3
}

// off returns the view of A's block at (i, j), which lies off the diagonal:
// the stored block, or the transpose of the stored block at (j, i).
func (sy *symmetric) off(i, j int) operand {
	if (i > j) == sy.lower {
		return sy.a.at(i, j)
	}
	return sy.a.t().at(i, j)
}

// full copies the diagonal block A[d:d+s, d:d+s] into sc as a full s×s
// matrix.
func (sy *symmetric) full(d, s int) *scratch {
	sc := getScratch(s * s)
	t := sc.data
	a, lda := sy.a.data, sy.a.stride
	for i := range s {
		for j := range s {
			r, c := i, j
			if (r < c) == sy.lower {
				r, c = c, r
			}
			t[i*s+j] = a[(d+r)*lda+d+c]
		}
	}
	return sc
}

// left sets C[d:d+s, :nb] = alpha*(A*B)[d:d+s, :nb] + beta*C[d:d+s, :nb],
// where b and c start at row 0.
func (sy *symmetric) left(w *core.Worker, d, s int, b operand, c []float64, ldc, nb int) struct{} {
	if s <= max(sy.lv.symLeaf, 1) {
		sc := sy.full(d, s)
		sy.lv.gemm(w, 1, s, nb, s, sy.alpha, operand{data: sc.data, stride: s}, b.at(d, 0), sy.beta, c[d*ldc:], ldc)
		scratchPool.Put(sc)
		return struct{}{}
	}
	h := half(s)
	top := func(w *core.Worker, _ struct{}) struct{} {
		sy.left(w, d, h, b, c, ldc, nb)
		sy.lv.gemm(w, 1, h, nb, s-h, sy.alpha, sy.off(d, d+h), b.at(d+h, 0), 1, c[d*ldc:], ldc)
		return struct{}{}
	}
	bottom := func(w *core.Worker, _ struct{}) struct{} {
		sy.left(w, d+h, s-h, b, c, ldc, nb)
		sy.lv.gemm(w, 1, s-h, nb, h, sy.alpha, sy.off(d+h, d), b.at(d, 0), 1, c[(d+h)*ldc:], ldc)
		return struct{}{}
	}
	if w == nil {
		top(w, struct{}{})
		bottom(w, struct{}{})
		return struct{}{}
	}
	core.Join(w, top, struct{}{}, bottom, struct{}{})
	return struct{}{}
}

// right sets C[:mb, d:d+s] = alpha*(B*A)[:mb, d:d+s] + beta*C[:mb, d:d+s],
// where b and c start at column 0.
func (sy *symmetric) right(w *core.Worker, d, s int, b operand, c []float64, ldc, mb int) struct{} {
	if s <= max(sy.lv.symLeaf, 1) {
		sc := sy.full(d, s)
		sy.lv.gemm(w, 1, mb, s, s, sy.alpha, b.at(0, d), operand{data: sc.data, stride: s}, sy.beta, c[d:], ldc)
		scratchPool.Put(sc)
		return struct{}{}
	}
	h := half(s)
	lo := func(w *core.Worker, _ struct{}) struct{} {
		sy.right(w, d, h, b, c, ldc, mb)
		sy.lv.gemm(w, 1, mb, h, s-h, sy.alpha, b.at(0, d+h), sy.off(d+h, d), 1, c[d:], ldc)
		return struct{}{}
	}
	hi := func(w *core.Worker, _ struct{}) struct{} {
		sy.right(w, d+h, s-h, b, c, ldc, mb)
		sy.lv.gemm(w, 1, mb, s-h, h, sy.alpha, b.at(0, d), sy.off(d, d+h), 1, c[d+h:], ldc)
		return struct{}{}
	}
	if w == nil {
		lo(w, struct{}{})
		hi(w, struct{}{})
		return struct{}{}
	}
	core.Join(w, lo, struct{}{}, hi, struct{}{})
	return struct{}{}
}
