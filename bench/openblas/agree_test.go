package openblas

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestAgree checks that the three implementations give the same Dgemm,
// Dtrsm and Dsyrk results on one 300×300 problem, so that the kernel
// OpenBLAS picked on this CPU (see OPENBLAS_CORETYPE in README.md) is
// measured computing right answers.
func TestAgree(t *testing.T) {
	const n = 300
	rng := rand.New(rand.NewPCG(1, 1))
	a, x := randSlice(rng, n*n), randSlice(rng, n*n)
	l := randSlice(rng, n*n)
	for i := range n {
		l[i*n+i] = n
	}
	calls := map[string]func(impl blas.Float64, c []float64){
		"Dgemm": func(impl blas.Float64, c []float64) {
			impl.Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1, a, n, x, n, 0, c, n)
		},
		"Dtrsm": func(impl blas.Float64, c []float64) {
			copy(c, x)
			impl.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, n, n, 1, l, n, c, n)
		},
		"Dsyrk": func(impl blas.Float64, c []float64) {
			clear(c)
			impl.Dsyrk(blas.Lower, blas.NoTrans, n, n, 1, a, n, 0, c, n)
		},
	}
	for name, call := range calls {
		want := make([]float64, n*n)
		call(impls[0].impl, want)
		for _, im := range impls[1:] {
			got := make([]float64, n*n)
			call(im.impl, got)
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-10*(1+math.Abs(want[i])) {
					t.Fatalf("%s: %s differs from gonum at %d: %v, want %v", name, im.name, i, got[i], want[i])
				}
			}
		}
	}
}
