package linalg

import (
	"github.com/gofork/gofork/core"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BLAS is an implementation of gonum's blas.Float64 whose Level 3 routines
// run in parallel on gofork. Installing it,
//
//	blas64.Use(linalg.BLAS{})
//
// makes every gonum program that multiplies or factorizes through blas64
// (mat.Dense.Mul, mat.Cholesky, mat.LU, mat.QR, the lapack routines) use
// it. The zero value is ready to use.
//
// Dgemm, Dsymm, Dsyrk, Dsyr2k, Dtrmm and Dtrsm run as fork-join tasks on
// the pool of the task that calls them, or on core.Default() when called
// from an ordinary goroutine; calls too small to be worth a task run
// serially on the caller. Ddot, Dscal and Dasum with a stride other than
// 1, Daxpy with a stride that is a multiple of 4 KiB, and Idamax with
// stride 1 run serially on the caller with their loads kept independent of
// each other: gonum's lapack calls them on the
// columns of row-major matrices, one call after another, in the condition
// estimates of mat.Cholesky and mat.LU and in the LU panel. The rest of
// Level 1 and Level 2, and the float32 and complex routines, are gonum's own
// (the embedded gonum.Implementation).
//
// Every transpose, side, triangle and diagonal case is supported. Arguments
// are checked as gonum checks them, in the same order, and a bad one panics
// with gonum's own message (such as "blas: bad leading dimension of A")
// before anything is written. As in BLAS, the matrices of one call must not
// overlap except where a routine updates one in place.
//
// Results differ from gonum's in the last bits, because sums are taken in a
// different order (Ddot and Dasum keep four partial sums); Dtrsm and Dtrmm compute the products off the diagonal
// blocks as matrix multiplies and the diagonal blocks as gonum does.
type BLAS struct {
	gonum.Implementation
	tune *tuning // nil: the defaults; tests set small cutoffs
}

// tuning overrides BLAS's pool, kernel and cutoffs; tests use it to reach
// every split of the recursions on small matrices. A zero field of pool or
// kern means the default; the cutoffs are taken as they are.
type tuning struct {
	pool      *core.Pool
	kern      microKernel
	grain     int
	triLeaf   int
	symLeaf   int
	stripMin  int
	parMinVol int64
	smallVol  int64
}

var _ blas.Float64 = BLAS{}

// native is gonum's serial implementation, which takes the calls too small
// to pack and the diagonal blocks of the triangular routines.
var native gonum.Implementation

// Dgemm computes C = alpha*op(A)*op(B) + beta*C, where op(X) is X or Xᵀ as
// tA and tB say, A is m×k (or k×m), B is k×n (or n×k) and C is m×n. When
// beta is zero C is not read.
func (b BLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, bm []float64, ldb int, beta float64, c []float64, ldc int) {
	if !checkGemm(tA, tB, m, n, k, a, lda, bm, ldb, c, ldc) {
		return
	}
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	lv := newLevel3(b)
	if int64(m)*int64(n)*int64(k) <= lv.smallVol {
		native.Dgemm(tA, tB, m, n, k, alpha, a, lda, bm, ldb, beta, c, ldc)
		return
	}
	ao := operand{data: a, stride: lda, trans: isTrans(tA)}
	bo := operand{data: bm, stride: ldb, trans: isTrans(tB)}
	multiply(lv.config, m, n, k, alpha, ao, bo, beta, c, ldc)
}
