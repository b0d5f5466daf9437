package linalg

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gofork/gofork/core"
	"gonum.org/v1/gonum/blas"
)

// BenchmarkBLAS measures the Level 3 routines at n = 2048 (512 with
// -short) on pools of 1 and 2 workers with each kernel set this CPU runs,
// beside gonum's own code. GFLOP/s counts 2n³ for Dgemm and n³ for Dtrsm
// and Dsyrk. bench/openblas runs the same calls beside OpenBLAS.
func BenchmarkBLAS(b *testing.B) {
	n := 2048
	if testing.Short() {
		n = 512
	}
	rng := rand.New(rand.NewPCG(1, 1))
	a, x, c := randSlice(rng, n*n), randSlice(rng, n*n), make([]float64, n*n)
	l := randSlice(rng, n*n)
	for i := range n {
		l[i*n+i] = float64(n)
	}
	nn := float64(n) * float64(n) * float64(n)
	routines := []struct {
		name  string
		flops float64
		call  func(impl blas.Float64)
	}{
		{"Dgemm", 2 * nn, func(impl blas.Float64) {
			impl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, x, n, 0, c, n)
		}},
		{"Dtrsm", nn, func(impl blas.Float64) {
			copy(c, x)
			impl.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, n, n, 1, l, n, c, n)
		}},
		{"Dsyrk", nn, func(impl blas.Float64) {
			impl.Dsyrk(blas.Lower, blas.NoTrans, n, n, 1, a, n, 0, c, n)
		}},
	}
	for _, r := range routines {
		b.Run(fmt.Sprintf("%s/n=%d/gonum", r.name, n), func(b *testing.B) {
			for b.Loop() {
				r.call(native)
			}
			b.ReportMetric(r.flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		for _, kn := range kernels()[1:] {
			for _, p := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/n=%d/kernel=%s/p=%d", r.name, n, kn.name, p), func(b *testing.B) {
					pool := core.New(core.WithWorkers(p))
					defer pool.Close()
					impl := BLAS{tune: &tuning{pool: pool, kern: kn, triLeaf: triLeaf, symLeaf: symLeaf,
						stripMin: stripMin, parMinVol: parMinVol, smallVol: smallVol}}
					for b.Loop() {
						r.call(impl)
					}
					b.ReportMetric(r.flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}

func randSlice(rng *rand.Rand, n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = rng.Float64()*2 - 1
	}
	return d
}

// BenchmarkColumnSweeps sweeps an n×n row-major matrix with the Level 1
// calls gonum's lapack makes on its columns, beside gonum's own code:
// Ddot, Daxpy and Dasum down each column of the upper triangle and Idamax
// over the growing solution (Dlatrs, in the condition estimates), and
// Dscal down 64 full columns (Dgetf2, the LU panel). n = 64 shows the
// short calls; lda = 2056 the same calls on rows padded off a power of
// two, whose columns do not collide in the caches.
func BenchmarkColumnSweeps(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, sz := range []struct{ n, lda int }{{64, 64}, {2048, 2048}, {2048, 2056}} {
		n, lda := sz.n, sz.lda
		a, x := randSlice(rng, n*lda), randSlice(rng, n)
		sweeps := []struct {
			name string
			call func(impl blas.Float64)
		}{
			{"Ddot", func(impl blas.Float64) {
				for j := range n {
					x[j] = impl.Ddot(j, a[j:], lda, x, 1) * 1e-3
				}
			}},
			{"Daxpy", func(impl blas.Float64) {
				for j := n - 1; j >= 0; j-- {
					impl.Daxpy(j, 1e-3, a[j:], lda, x, 1)
				}
			}},
			{"Dasum", func(impl blas.Float64) {
				for j := range n {
					x[j] = impl.Dasum(j, a[j:], lda) * 1e-3
				}
			}},
			{"Idamax", func(impl blas.Float64) {
				for j := n - 1; j >= 0; j-- {
					x[j] += float64(impl.Idamax(j, x, 1)) * 1e-9
				}
			}},
			{"Dscal", func(impl blas.Float64) {
				for j := range min(n, 64) {
					impl.Dscal(n, 1, a[j:], lda)
				}
			}},
		}
		for _, s := range sweeps {
			for _, im := range []struct {
				name string
				impl blas.Float64
			}{{"gonum", native}, {"linalg", BLAS{}}} {
				b.Run(fmt.Sprintf("%s/n=%d/lda=%d/%s", s.name, n, lda, im.name), func(b *testing.B) {
					for b.Loop() {
						s.call(im.impl)
					}
				})
			}
		}
	}
}
