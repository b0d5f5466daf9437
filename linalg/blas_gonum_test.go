package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gofork/gofork/core"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/testlapack"
	"gonum.org/v1/gonum/mat"
)

// installed runs f with impl installed as blas64's implementation and puts
// the previous one back. blas64's implementation is global to the process:
// no test of this package runs in parallel with another.
func installed(impl BLAS, f func()) {
	prev := blas64.Implementation()
	blas64.Use(impl)
	defer blas64.Use(prev)
	f()
}

// lapackVariants are the BLAS values the lapack and mat tests install: the
// zero value, and small cutoffs (not 1: the factorizations make thousands
// of Level 3 calls) on a pool of 2 workers, so that the sizes of gonum's
// tests reach the recursions.
func lapackVariants(t *testing.T) []struct {
	name string
	impl BLAS
} {
	p := core.New(core.WithWorkers(2))
	t.Cleanup(p.Close)
	return []struct {
		name string
		impl BLAS
	}{
		{"zero", BLAS{}},
		{"small", BLAS{tune: &tuning{pool: p, grain: 8 * 8 * 8, triLeaf: 4, symLeaf: 8, stripMin: 8}}},
	}
}

// TestGonumLapack runs gonum's own tests of the blocked Cholesky, LU and
// QR factorizations and of the condition estimates
// (gonum.org/v1/gonum/lapack/testlapack) with BLAS installed: they reach it
// through blas64 for Dsyrk, Dgemm, Dtrsm and Dtrmm, and for Ddot, Daxpy,
// Dscal, Dasum and Idamax.
func TestGonumLapack(t *testing.T) {
	impl := gonum.Implementation{}
	for _, v := range lapackVariants(t) {
		t.Run(v.name, func(t *testing.T) {
			installed(v.impl, func() {
				t.Run("Dpotrf", func(t *testing.T) { testlapack.DpotrfTest(t, impl) })
				t.Run("Dgetrf", func(t *testing.T) { testlapack.DgetrfTest(t, impl) })
				t.Run("Dgeqrf", func(t *testing.T) { testlapack.DgeqrfTest(t, impl) })
				// The panel and the condition estimates, which call the
				// Level 1 routines BLAS replaces.
				t.Run("Dgetf2", func(t *testing.T) { testlapack.Dgetf2Test(t, impl) })
				t.Run("Dlatrs", func(t *testing.T) { testlapack.DlatrsTest(t, impl) })
				t.Run("Dpocon", func(t *testing.T) { testlapack.DpoconTest(t, impl) })
				t.Run("Dgecon", func(t *testing.T) { testlapack.DgeconTest(t, impl) })
			})
		})
	}
}

// TestGonumMat is the part of gonum's mat tests that reaches Level 3:
// (*mat.Dense).Mul, Cholesky, LU and QR, with BLAS installed, on random
// matrices of sizes around the cutoffs and on transposed views, compared
// with the same calls on gonum's own implementation, and each
// factorization checked by multiplying it back.
func TestGonumMat(t *testing.T) {
	sizes := []int{1, 5, 31, 64, 97, 150}
	if !testing.Short() {
		sizes = append(sizes, 257, 400)
	}
	for _, v := range lapackVariants(t) {
		t.Run(v.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 1))
			for _, n := range sizes {
				m := n + rng.IntN(20)
				a := randDense(rng, m, n)
				b := randDense(rng, n, m)
				spd := spdMatrix(rng, n)
				// Reference results from gonum's own BLAS.
				var mulWant, mulTWant mat.Dense
				mulWant.Mul(a, b)
				mulTWant.Mul(b.T(), a.T())
				var cholWant mat.Cholesky
				cholWant.Factorize(spd)
				var luWant mat.LU
				luWant.Factorize(a.Slice(0, n, 0, n))
				var qrWant mat.QR
				qrWant.Factorize(a)

				installed(v.impl, func() {
					var got mat.Dense
					got.Mul(a, b)
					denseClose(t, "Mul", n, &got, &mulWant)
					got.Reset()
					got.Mul(b.T(), a.T())
					denseClose(t, "Mul of transposes", n, &got, &mulTWant)

					var chol mat.Cholesky
					if !chol.Factorize(spd) {
						t.Fatalf("n=%d: Cholesky failed on a positive definite matrix", n)
					}
					var u, uWant mat.TriDense
					chol.UTo(&u)
					cholWant.UTo(&uWant)
					denseClose(t, "Cholesky factor", n, mat.DenseCopyOf(&u), mat.DenseCopyOf(&uWant))
					var back mat.SymDense
					chol.ToSym(&back)
					denseClose(t, "Cholesky product", n, mat.DenseCopyOf(&back), mat.DenseCopyOf(spd))

					var lu mat.LU
					lu.Factorize(a.Slice(0, n, 0, n))
					denseClose(t, "LU product", n, mat.DenseCopyOf(&lu), mat.DenseCopyOf(a.Slice(0, n, 0, n)))
					var x, xWant mat.Dense
					if err := lu.SolveTo(&x, false, b.Slice(0, n, 0, m)); err == nil {
						if err := luWant.SolveTo(&xWant, false, b.Slice(0, n, 0, m)); err == nil {
							denseClose(t, "LU solve", n, &x, &xWant)
						}
					}

					var qr mat.QR
					qr.Factorize(a)
					var q, r, qrBack mat.Dense
					qr.QTo(&q)
					qr.RTo(&r)
					qrBack.Mul(&q, &r)
					denseClose(t, "QR product", n, &qrBack, a)
					var qWant, rWant mat.Dense
					qrWant.QTo(&qWant)
					qrWant.RTo(&rWant)
					denseClose(t, "QR factor R", n, &r, &rWant)
				})
			}
		})
	}
}

// spdMatrix returns a random symmetric positive definite n×n matrix with
// a condition number around n.
func spdMatrix(rng *rand.Rand, n int) *mat.SymDense {
	x := randDense(rng, n, n)
	var s mat.SymDense
	s.SymOuterK(1, x)
	for i := range n {
		s.SetSym(i, i, s.At(i, i)+float64(n))
	}
	return &s
}

// denseClose fails unless got and want agree within a tolerance that grows
// with the order n of the computation and the size of want's entries.
func denseClose(t *testing.T, what string, n int, got, want *mat.Dense) {
	t.Helper()
	r, c := want.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s, n=%d: result is %dx%d, want %dx%d", what, n, gr, gc, r, c)
	}
	scale := mat.Norm(want, math.Inf(1)) + 1
	tol := 1e-13 * float64(n+1) * scale
	for i := range r {
		for j := range c {
			if d := math.Abs(got.At(i, j) - want.At(i, j)); !(d <= tol) {
				t.Fatalf("%s, n=%d: element (%d,%d) = %v, want %v (diff %g > %g)", what, n, i, j, got.At(i, j), want.At(i, j), d, tol)
			}
		}
	}
}
