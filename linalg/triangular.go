package linalg

import (
	"github.com/gofork/gofork/core"
	"gonum.org/v1/gonum/blas"
)

// triangle is the triangular matrix of one Dtrsm or Dtrmm call: A as
// stored, with the flags that say which triangle of it is used and
// whether it is transposed, and op, the view of op(A).
//
// Both routines recurse on op(A) (Elmroth, Gustavson, Jonsson and Kågström,
// "Recursive blocked algorithms and hybrid data structures for dense
// matrix library software", SIAM Review 2004): halving the order of op(A)
// leaves two triangles on the diagonal and one rectangle beside them, and
// the rectangle's part of the work is a matrix multiply. The diagonal
// blocks of order at most triLeaf go to gonum's serial routine, which is
// called with A's own flags on the block's place in A.
type triangle struct {
	a     []float64
	lda   int
	side  blas.Side
	ul    blas.Uplo
	tA    blas.Transpose
	diag  blas.Diag
	lower bool    // op(A) is lower triangular
	op    operand // op(A)
	lv    *level3
}

func newTriangle(lv *level3, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a []float64, lda int) *triangle {
	tr := isTrans(tA)
	return &triangle{
		a: a, lda: lda, side: s, ul: ul, tA: tA, diag: d,
		lower: (ul == blas.Lower) != tr,
		op:    operand{data: a, stride: lda, trans: tr},
		lv:    lv,
	}
}

// diagBlock returns A from its diagonal element (d, d) on.
func (t *triangle) diagBlock(d int) []float64 { return t.a[d*t.lda+d:] }

// half returns where the recursion cuts a diagonal block of order s.
func half(s int) int { return splitPoint(s, 2*mr) }

// Dtrsm solves op(A)*X = alpha*B (side blas.Left) or X*op(A) = alpha*B
// (blas.Right) for X, which overwrites B. A is triangular, of order m on
// the left and n on the right, upper or lower as ul says, with a unit
// diagonal that is not read when d is blas.Unit; B is m×n. When alpha is
// zero B is set to zero and A is not read.
func (b BLAS) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, bm []float64, ldb int) {
	if !checkTriangular(s, ul, tA, d, m, n, a, lda, bm, ldb) {
		return
	}
	b.triangular(s, ul, tA, d, m, n, alpha, a, lda, bm, ldb, native.Dtrsm, (*triangle).solveLeft, (*triangle).solveRight)
}

// triangular runs Dtrsm or Dtrmm, whose arguments are checked: serially in
// gonum's code (serial) when the call is small, and otherwise as strips of
// B, each a problem of its own, that left or right recurse on. Dtrsm's
// flops are counted as half of m*n*order.
func (b BLAS) triangular(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, bm []float64, ldb int,
	serial func(blas.Side, blas.Uplo, blas.Transpose, blas.Diag, int, int, float64, []float64, int, []float64, int),
	left, right func(t *triangle, w *core.Worker, d, s int, alpha float64, b []float64, ldb, nb int)) {
	lv := newLevel3(b)
	order := sideOrder(s, m, n)
	vol := int64(m) * int64(n) * int64(order)
	if alpha == 0 || order <= lv.triLeaf || vol <= lv.smallVol {
		serial(s, ul, tA, d, m, n, alpha, a, lda, bm, ldb)
		return
	}
	t := newTriangle(lv, s, ul, tA, d, a, lda)
	lv.run(vol/2, func(w *core.Worker) {
		if s == blas.Left {
			lv.strips(w, n, func(w *core.Worker, j, nj int) { left(t, w, 0, m, alpha, bm[j:], ldb, nj) })
			return
		}
		lv.strips(w, m, func(w *core.Worker, i, mi int) { right(t, w, 0, n, alpha, bm[i*ldb:], ldb, mi) })
	})
}

// sideOrder returns the order of A in a call with side s: m on the left,
// n on the right.
func sideOrder(s blas.Side, m, n int) int {
	if s == blas.Left {
		return m
	}
	return n
}

// solveLeft solves op(A)[d:d+s, d:d+s]*X = alpha*B[d:d+s, :nb] in place,
// where b is B's first row and column.
func (t *triangle) solveLeft(w *core.Worker, d, s int, alpha float64, b []float64, ldb, nb int) {
	if s <= t.lv.triLeaf {
		native.Dtrsm(blas.Left, t.ul, t.tA, t.diag, s, nb, alpha, t.diagBlock(d), t.lda, b[d*ldb:], ldb)
		return
	}
	h := half(s)
	if t.lower {
		// X1 = A11⁻¹ alpha B1, then B2 = alpha B2 - A21 X1 and X2 = A22⁻¹ B2.
		t.solveLeft(w, d, h, alpha, b, ldb, nb)
		x1 := operand{data: b[d*ldb:], stride: ldb}
		t.lv.gemm(w, 1, s-h, nb, h, -1, t.op.at(d+h, d), x1, alpha, b[(d+h)*ldb:], ldb)
		t.solveLeft(w, d+h, s-h, 1, b, ldb, nb)
		return
	}
	// X2 = A22⁻¹ alpha B2, then B1 = alpha B1 - A12 X2 and X1 = A11⁻¹ B1.
	t.solveLeft(w, d+h, s-h, alpha, b, ldb, nb)
	x2 := operand{data: b[(d+h)*ldb:], stride: ldb}
	t.lv.gemm(w, 1, h, nb, s-h, -1, t.op.at(d, d+h), x2, alpha, b[d*ldb:], ldb)
	t.solveLeft(w, d, h, 1, b, ldb, nb)
}

// solveRight solves X*op(A)[d:d+s, d:d+s] = alpha*B[:mb, d:d+s] in place.
func (t *triangle) solveRight(w *core.Worker, d, s int, alpha float64, b []float64, ldb, mb int) {
	if s <= t.lv.triLeaf {
		native.Dtrsm(blas.Right, t.ul, t.tA, t.diag, mb, s, alpha, t.diagBlock(d), t.lda, b[d:], ldb)
		return
	}
	h := half(s)
	if t.lower {
		// X2 = alpha B2 A22⁻¹, then B1 = alpha B1 - X2 A21 and X1 = B1 A11⁻¹.
		t.solveRight(w, d+h, s-h, alpha, b, ldb, mb)
		x2 := operand{data: b[d+h:], stride: ldb}
		t.lv.gemm(w, 1, mb, h, s-h, -1, x2, t.op.at(d+h, d), alpha, b[d:], ldb)
		t.solveRight(w, d, h, 1, b, ldb, mb)
		return
	}
	// X1 = alpha B1 A11⁻¹, then B2 = alpha B2 - X1 A12 and X2 = B2 A22⁻¹.
	t.solveRight(w, d, h, alpha, b, ldb, mb)
	x1 := operand{data: b[d:], stride: ldb}
	t.lv.gemm(w, 1, mb, s-h, h, -1, x1, t.op.at(d, d+h), alpha, b[d+h:], ldb)
	t.solveRight(w, d+h, s-h, 1, b, ldb, mb)
}

// Dtrmm computes B = alpha*op(A)*B (side blas.Left) or B = alpha*B*op(A)
// (blas.Right) in place, with A triangular as for Dtrsm. When alpha is
// zero B is set to zero and A is not read.
func (b BLAS) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, bm []float64, ldb int) {
	if !checkTriangular(s, ul, tA, d, m, n, a, lda, bm, ldb) {
		return
	}
	b.triangular(s, ul, tA, d, m, n, alpha, a, lda, bm, ldb, native.Dtrmm, (*triangle).mulLeft, (*triangle).mulRight)
}

// mulLeft sets B[d:d+s, :nb] = alpha*op(A)[d:d+s, d:d+s]*B[d:d+s, :nb].
// Each half of B is overwritten only after the other half's product has
// read it.
func (t *triangle) mulLeft(w *core.Worker, d, s int, alpha float64, b []float64, ldb, nb int) {
	if s <= t.lv.triLeaf {
		native.Dtrmm(blas.Left, t.ul, t.tA, t.diag, s, nb, alpha, t.diagBlock(d), t.lda, b[d*ldb:], ldb)
		return
	}
	h := half(s)
	if t.lower {
		// B2 = alpha (A22 B2 + A21 B1), then B1 = alpha A11 B1.
		t.mulLeft(w, d+h, s-h, alpha, b, ldb, nb)
		b1 := operand{data: b[d*ldb:], stride: ldb}
		t.lv.gemm(w, 1, s-h, nb, h, alpha, t.op.at(d+h, d), b1, 1, b[(d+h)*ldb:], ldb)
		t.mulLeft(w, d, h, alpha, b, ldb, nb)
		return
	}
	// B1 = alpha (A11 B1 + A12 B2), then B2 = alpha A22 B2.
	t.mulLeft(w, d, h, alpha, b, ldb, nb)
	b2 := operand{data: b[(d+h)*ldb:], stride: ldb}
	t.lv.gemm(w, 1, h, nb, s-h, alpha, t.op.at(d, d+h), b2, 1, b[d*ldb:], ldb)
	t.mulLeft(w, d+h, s-h, alpha, b, ldb, nb)
}

// mulRight sets B[:mb, d:d+s] = alpha*B[:mb, d:d+s]*op(A)[d:d+s, d:d+s].
func (t *triangle) mulRight(w *core.Worker, d, s int, alpha float64, b []float64, ldb, mb int) {
	if s <= t.lv.triLeaf {
		native.Dtrmm(blas.Right, t.ul, t.tA, t.diag, mb, s, alpha, t.diagBlock(d), t.lda, b[d:], ldb)
		return
	}
	h := half(s)
	if t.lower {
		// B1 = alpha (B1 A11 + B2 A21), then B2 = alpha B2 A22.
		t.mulRight(w, d, h, alpha, b, ldb, mb)
		b2 := operand{data: b[d+h:], stride: ldb}
		t.lv.gemm(w, 1, mb, h, s-h, alpha, b2, t.op.at(d+h, d), 1, b[d:], ldb)
		t.mulRight(w, d+h, s-h, alpha, b, ldb, mb)
		return
	}
	// B2 = alpha (B1 A12 + B2 A22), then B1 = alpha B1 A11.
	t.mulRight(w, d+h, s-h, alpha, b, ldb, mb)
	b1 := operand{data: b[d:], stride: ldb}
	t.lv.gemm(w, 1, mb, s-h, h, alpha, b1, t.op.at(d, d+h), 1, b[d+h:], ldb)
	t.mulRight(w, d, h, alpha, b, ldb, mb)
}
