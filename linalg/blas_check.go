package linalg

import "gonum.org/v1/gonum/blas"

// Panic messages of BLAS's argument checks. They are gonum's own
// (gonum.org/v1/gonum/blas/gonum), word for word, so that a program that
// recovers them, or a test that expects them, sees no difference when BLAS
// is installed; they start with "blas:", not "linalg:", for that reason.
const (
	mLT0         = "blas: m < 0"
	nLT0         = "blas: n < 0"
	kLT0         = "blas: k < 0"
	badUplo      = "blas: illegal triangle"
	badTranspose = "blas: illegal transpose"
	badDiag      = "blas: illegal diagonal"
	badSide      = "blas: illegal side"
	badLdA       = "blas: bad leading dimension of A"
	badLdB       = "blas: bad leading dimension of B"
	badLdC       = "blas: bad leading dimension of C"
	shortA       = "blas: insufficient length of a"
	shortB       = "blas: insufficient length of b"
	shortC       = "blas: insufficient length of c"
)

// The checks below run in the order gonum's run in, so that a call with
// several bad arguments panics with the message gonum would give. Each
// reports whether there is any work (false: a quick return, nothing read).

func isTrans(t blas.Transpose) bool { return t == blas.Trans || t == blas.ConjTrans }

func checkTranspose(t blas.Transpose) {
	if t != blas.NoTrans && t != blas.Trans && t != blas.ConjTrans {
		panic(badTranspose)
	}
}

func checkGemm(tA, tB blas.Transpose, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) bool {
	checkTranspose(tA)
	checkTranspose(tB)
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case k < 0:
		panic(kLT0)
	}
	aRows, aCols := m, k
	if isTrans(tA) {
		aRows, aCols = k, m
	}
	bRows, bCols := k, n
	if isTrans(tB) {
		bRows, bCols = n, k
	}
	switch {
	case lda < max(1, aCols):
		panic(badLdA)
	case ldb < max(1, bCols):
		panic(badLdB)
	case ldc < max(1, n):
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return false
	}
	switch {
	case len(a) < (aRows-1)*lda+aCols:
		panic(shortA)
	case len(b) < (bRows-1)*ldb+bCols:
		panic(shortB)
	case len(c) < (m-1)*ldc+n:
		panic(shortC)
	}
	return true
}

// checkSideUplo checks the side and the triangle of Dsymm, Dtrmm and Dtrsm.
func checkSideUplo(s blas.Side, ul blas.Uplo) {
	if s != blas.Left && s != blas.Right {
		panic(badSide)
	}
	if ul != blas.Lower && ul != blas.Upper {
		panic(badUplo)
	}
}

func checkSymm(s blas.Side, ul blas.Uplo, m, n int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) bool {
	checkSideUplo(s, ul)
	if !checkSided(s, m, n, a, lda, b, ldb, func() {
		if ldc < max(1, n) {
			panic(badLdC)
		}
	}) {
		return false
	}
	if len(c) < ldc*(m-1)+n {
		panic(shortC)
	}
	return true
}

func checkTriangular(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, a []float64, lda int, b []float64, ldb int) bool {
	checkSideUplo(s, ul)
	checkTranspose(tA)
	if d != blas.NonUnit && d != blas.Unit {
		panic(badDiag)
	}
	return checkSided(s, m, n, a, lda, b, ldb, func() {})
}

// checkSided checks the sizes of Dsymm, Dtrmm and Dtrsm: m and n, A's order
// on side s, the leading dimensions of A, B and (in ldC) C, and the lengths
// of A and B. It reports false for a quick return.
func checkSided(s blas.Side, m, n int, a []float64, lda int, b []float64, ldb int, ldC func()) bool {
	if m < 0 {
		panic(mLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	k := sideOrder(s, m, n)
	switch {
	case lda < max(1, k):
		panic(badLdA)
	case ldb < max(1, n):
		panic(badLdB)
	}
	ldC()
	if m == 0 || n == 0 {
		return false
	}
	switch {
	case len(a) < lda*(k-1)+k:
		panic(shortA)
	case len(b) < ldb*(m-1)+n:
		panic(shortB)
	}
	return true
}

// checkRankK checks Dsyrk's arguments (b == nil) or Dsyr2k's.
func checkRankK(ul blas.Uplo, tA blas.Transpose, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int, two bool) bool {
	if ul != blas.Lower && ul != blas.Upper {
		panic(badUplo)
	}
	checkTranspose(tA)
	if n < 0 {
		panic(nLT0)
	}
	if k < 0 {
		panic(kLT0)
	}
	row, col := k, n
	if tA == blas.NoTrans {
		row, col = n, k
	}
	if lda < max(1, col) {
		panic(badLdA)
	}
	if two && ldb < max(1, col) {
		panic(badLdB)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if n == 0 {
		return false
	}
	if len(a) < lda*(row-1)+col {
		panic(shortA)
	}
	if two && len(b) < ldb*(row-1)+col {
		panic(shortB)
	}
	if len(c) < ldc*(n-1)+n {
		panic(shortC)
	}
	return true
}
