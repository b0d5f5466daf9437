package linalg

import "math"

// The Level 1 routines below replace gonum's where gonum's lapack calls them
// in long sequences on a column of a row-major matrix (incX = lda): the
// condition estimates of mat.Cholesky and mat.LU (lapack Dlatrs, through
// Dpocon and Dgecon) and the panel of the LU factorization (lapack Dgetf2).
// Such a column is one element per row, each in its own cache line, and
// with a power-of-two lda all of them fall in a few sets of the caches, so
// the loads come from the shared cache or memory and their latency, not
// arithmetic, sets the speed. The loops keep four (Ddot, Dasum) or eight
// (Daxpy, Dscal) loads independent of each other, so that the processor
// overlaps their misses; gonum's strided dot product chains each pair of
// loads to the sum before it. Idamax, which Dlatrs calls on a contiguous
// vector after each Daxpy, compares in four independent lanes.
//
// Each call is a few microseconds of work and each one depends on the
// result of the one before, so the routines run serially on the caller:
// handing half of one to another worker costs more than it saves, and far
// more when other programs hold the cores the pool's workers need.
//
// Each routine takes only the cases it speeds up: every other call, and
// every call with a bad argument, goes to gonum's code, which panics with
// its own message. So the checks here only decide which code runs.

// collidingStride is 4 KiB in elements: vector elements (or matrix rows) a
// multiple of it apart fall in the same set of an L1 cache, and in a few
// sets of the larger ones, so that a long column of a matrix with such an
// lda (2048, say) cannot stay in cache and each element is a miss.
const collidingStride = 512

// collides reports whether elements inc apart collide in the caches.
func collides(inc int) bool { return inc%collidingStride == 0 }

// minStrided is the shortest vector the strided loops take; a shorter one
// goes to gonum's code, whose set-up is as cheap.
const minStrided = 8

// first returns the index of the first element of an n-vector with
// increment inc in BLAS's convention: for a negative inc the vector runs
// backwards from its last element.
func first(n, inc int) int {
	if inc < 0 {
		return (1 - n) * inc
	}
	return 0
}

// fits reports whether an n-vector with nonzero increment inc starting at
// index first(n, inc) lies within a slice of length l.
func fits(n, inc, l int) bool {
	if inc > 0 {
		return (n-1)*inc < l
	}
	return (1-n)*inc < l
}

// Ddot returns the dot product of the n-vectors x and y, with increments
// incX and incY.
func (b BLAS) Ddot(n int, x []float64, incX int, y []float64, incY int) float64 {
	if n < minStrided || incX == 0 || incY == 0 || incX == 1 && incY == 1 ||
		!fits(n, incX, len(x)) || !fits(n, incY, len(y)) {
		return native.Ddot(n, x, incX, y, incY)
	}
	return dotStrided(n, x, first(n, incX), incX, y, first(n, incY), incY)
}

// dotStrided sums x[ix+i*incX]*y[iy+i*incY] over i < n in four partial
// sums, so that four loads of x are in flight at once.
func dotStrided(n int, x []float64, ix, incX int, y []float64, iy, incY int) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += x[ix] * y[iy]
		s1 += x[ix+incX] * y[iy+incY]
		s2 += x[ix+2*incX] * y[iy+2*incY]
		s3 += x[ix+3*incX] * y[iy+3*incY]
		ix += 4 * incX
		iy += 4 * incY
	}
	for ; i < n; i++ {
		s0 += x[ix] * y[iy]
		ix += incX
		iy += incY
	}
	return (s0 + s1) + (s2 + s3)
}

// Dasum returns the sum of the absolute values of the n-vector x with
// increment incX (0 for a negative incX, as in gonum). Dlatrs sums each
// column of the triangle this way once per solve.
func (b BLAS) Dasum(n int, x []float64, incX int) float64 {
	if n < minStrided || incX < 1 || !fits(n, incX, len(x)) {
		return native.Dasum(n, x, incX)
	}
	var s0, s1, s2, s3 float64
	i, ix := 0, 0
	for ; i+4 <= n; i += 4 {
		s0 += math.Abs(x[ix])
		s1 += math.Abs(x[ix+incX])
		s2 += math.Abs(x[ix+2*incX])
		s3 += math.Abs(x[ix+3*incX])
		ix += 4 * incX
	}
	for ; i < n; i++ {
		s0 += math.Abs(x[ix])
		ix += incX
	}
	return (s0 + s1) + (s2 + s3)
}

// Daxpy adds alpha*x to y, n-vectors with increments incX and incY. Its
// own loop takes the vectors whose elements collide in the caches; where
// they stay in cache gonum's is as fast or faster.
func (b BLAS) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	if n < minStrided || alpha == 0 || incX == 0 || incY == 0 || !collides(incX) && !collides(incY) ||
		!fits(n, incX, len(x)) || !fits(n, incY, len(y)) {
		native.Daxpy(n, alpha, x, incX, y, incY)
		return
	}
	axpyStrided(n, alpha, x, first(n, incX), incX, y, first(n, incY), incY)
}

// axpyStrided adds alpha*x[ix+i*incX] to y[iy+i*incY] for i < n, loading
// eight elements of x before it stores any of y, so that the eight loads
// overlap (a store to y could otherwise alias a later load of x).
func axpyStrided(n int, alpha float64, x []float64, ix, incX int, y []float64, iy, incY int) {
	i := 0
	for ; i+8 <= n; i += 8 {
		x0, x1, x2, x3 := x[ix], x[ix+incX], x[ix+2*incX], x[ix+3*incX]
		x4, x5, x6, x7 := x[ix+4*incX], x[ix+5*incX], x[ix+6*incX], x[ix+7*incX]
		y[iy] += alpha * x0
		y[iy+incY] += alpha * x1
		y[iy+2*incY] += alpha * x2
		y[iy+3*incY] += alpha * x3
		y[iy+4*incY] += alpha * x4
		y[iy+5*incY] += alpha * x5
		y[iy+6*incY] += alpha * x6
		y[iy+7*incY] += alpha * x7
		ix += 8 * incX
		iy += 8 * incY
	}
	for ; i < n; i++ {
		y[iy] += alpha * x[ix]
		ix += incX
		iy += incY
	}
}

// Dscal multiplies the n-vector x, with increment incX, by alpha.
func (b BLAS) Dscal(n int, alpha float64, x []float64, incX int) {
	if n < minStrided || alpha == 0 || incX <= 1 || !fits(n, incX, len(x)) {
		native.Dscal(n, alpha, x, incX)
		return
	}
	i, ix := 0, 0
	for ; i+8 <= n; i += 8 {
		x0, x1, x2, x3 := x[ix], x[ix+incX], x[ix+2*incX], x[ix+3*incX]
		x4, x5, x6, x7 := x[ix+4*incX], x[ix+5*incX], x[ix+6*incX], x[ix+7*incX]
		x[ix] = alpha * x0
		x[ix+incX] = alpha * x1
		x[ix+2*incX] = alpha * x2
		x[ix+3*incX] = alpha * x3
		x[ix+4*incX] = alpha * x4
		x[ix+5*incX] = alpha * x5
		x[ix+6*incX] = alpha * x6
		x[ix+7*incX] = alpha * x7
		ix += 8 * incX
	}
	for ; i < n; i++ {
		x[ix] *= alpha
		ix += incX
	}
}

// Idamax returns the index of the first element of largest absolute value
// of the n-vector x with increment incX, as gonum does: -1 for n = 0 or a
// negative incX, and NaNs are passed over, except that a NaN first element
// is the answer. Contiguous vectors (incX = 1) take the four-lane loop; a
// strided one waits on its loads whichever loop runs, and goes to gonum.
func (b BLAS) Idamax(n int, x []float64, incX int) int {
	if n < minStrided || incX != 1 || len(x) < n {
		return native.Idamax(n, x, incX)
	}
	if math.IsNaN(x[0]) {
		// gonum starts from |x[0]|, and nothing compares greater than NaN.
		return 0
	}
	return idamax(x[:n])
}

// idamax finds the first largest |x[i]|, ignoring NaNs, in four lanes
// (lane l sees the i with i%4 == l, in order), each keeping the first
// index of its largest value; the answer is the largest of the four, the
// smallest index on a tie. A lane that saw only NaNs keeps m = -1, which
// any other value beats.
func idamax(x []float64) int {
	m := [4]float64{-1, -1, -1, -1}
	at := [4]int{}
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		a0, a1, a2, a3 := math.Abs(v[0]), math.Abs(v[1]), math.Abs(v[2]), math.Abs(v[3])
		if a0 > m[0] {
			m[0], at[0] = a0, i
		}
		if a1 > m[1] {
			m[1], at[1] = a1, i+1
		}
		if a2 > m[2] {
			m[2], at[2] = a2, i+2
		}
		if a3 > m[3] {
			m[3], at[3] = a3, i+3
		}
	}
	for l := 0; i < len(x); i, l = i+1, l+1 {
		if a := math.Abs(x[i]); a > m[l] {
			m[l], at[l] = a, i
		}
	}
	best := 0
	for l := 1; l < 4; l++ {
		if m[l] > m[best] || m[l] == m[best] && at[l] < at[best] {
			best = l
		}
	}
	return at[best]
}
