package openblas

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/gofork/gofork/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/netlib/blas/netlib"
)

func TestMain(m *testing.M) {
	fmt.Printf("openblas: core %s, %d threads; GOMAXPROCS %d; GODEBUG=%q\n",
		CoreName(), Threads(), runtime.GOMAXPROCS(0), os.Getenv("GODEBUG"))
	os.Exit(m.Run())
}

// impls are the three BLAS implementations compared: gonum's own (its Dgemm
// runs one goroutine per block), gofork's and OpenBLAS.
var impls = []struct {
	name string
	impl blas.Float64
}{
	{"gonum", gonum.Implementation{}},
	{"linalg", linalg.BLAS{}},
	{"openblas", netlib.Implementation{}},
}

func randSlice(rng *rand.Rand, n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = rng.Float64()*2 - 1
	}
	return d
}

func gflops(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// sizes are the orders of the square benchmarks; BENCH_N overrides them.
func sizes() []int {
	if s := os.Getenv("BENCH_N"); s != "" {
		var n int
		fmt.Sscan(s, &n)
		return []int{n}
	}
	return []int{1024, 2048}
}

// BenchmarkDgemm: C = A*B, all n×n.
func BenchmarkDgemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range sizes() {
		a, x, c := randSlice(rng, n*n), randSlice(rng, n*n), make([]float64, n*n)
		for _, im := range impls {
			b.Run(fmt.Sprintf("n=%d/%s", n, im.name), func(b *testing.B) {
				for b.Loop() {
					im.impl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, x, n, 0, c, n)
				}
				gflops(b, 2*float64(n)*float64(n)*float64(n))
			})
		}
	}
}

// BenchmarkDtrsm: solve L*X = B, L lower triangular n×n (well
// conditioned), B n×n.
func BenchmarkDtrsm(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range sizes() {
		l := randSlice(rng, n*n)
		for i := range n {
			l[i*n+i] = float64(n)
		}
		x0 := randSlice(rng, n*n)
		x := make([]float64, n*n)
		for _, im := range impls {
			b.Run(fmt.Sprintf("n=%d/%s", n, im.name), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					copy(x, x0)
					b.StartTimer()
					im.impl.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, n, n, 1, l, n, x, n)
				}
				gflops(b, float64(n)*float64(n)*float64(n))
			})
		}
	}
}

// BenchmarkDsyrk: the lower triangle of C = A*Aᵀ, A and C n×n.
func BenchmarkDsyrk(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range sizes() {
		a, c := randSlice(rng, n*n), make([]float64, n*n)
		for _, im := range impls {
			b.Run(fmt.Sprintf("n=%d/%s", n, im.name), func(b *testing.B) {
				for b.Loop() {
					im.impl.Dsyrk(blas.Lower, blas.NoTrans, n, n, 1, a, n, 0, c, n)
				}
				gflops(b, float64(n)*float64(n)*float64(n))
			})
		}
	}
}

// use installs impl in blas64 for the length of a benchmark.
func use(b *testing.B, impl blas.Float64) {
	prev := blas64.Implementation()
	blas64.Use(impl)
	b.Cleanup(func() { blas64.Use(prev) })
}

// BenchmarkCholesky factorizes an n×n symmetric positive definite matrix
// with mat.Cholesky (gonum's lapack, Level 3 through blas64).
func BenchmarkCholesky(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range sizes() {
		s := spd(rng, n)
		for _, im := range impls {
			b.Run(fmt.Sprintf("n=%d/%s", n, im.name), func(b *testing.B) {
				use(b, im.impl)
				var ch mat.Cholesky
				for b.Loop() {
					if !ch.Factorize(s) {
						b.Fatal("not positive definite")
					}
				}
				gflops(b, float64(n)*float64(n)*float64(n)/3)
			})
		}
	}
}

// BenchmarkLU factorizes a random n×n matrix with mat.LU.
func BenchmarkLU(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range sizes() {
		x := mat.NewDense(n, n, randSlice(rng, n*n))
		for _, im := range impls {
			b.Run(fmt.Sprintf("n=%d/%s", n, im.name), func(b *testing.B) {
				use(b, im.impl)
				var lu mat.LU
				for b.Loop() {
					lu.Factorize(x)
				}
				gflops(b, 2*float64(n)*float64(n)*float64(n)/3)
			})
		}
	}
}

// BenchmarkDpotrf is BenchmarkCholesky without what mat.Cholesky adds to
// the factorization (a copy, and the condition number estimate, which is
// Level 1 and 2 work): gonum's lapack Dpotrf alone, on the upper triangle.
func BenchmarkDpotrf(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range sizes() {
		s := spd(rng, n)
		a := s.RawSymmetric()
		work := make([]float64, len(a.Data))
		for _, im := range impls {
			b.Run(fmt.Sprintf("n=%d/%s", n, im.name), func(b *testing.B) {
				use(b, im.impl)
				for b.Loop() {
					b.StopTimer()
					copy(work, a.Data)
					b.StartTimer()
					if _, ok := lapack64.Potrf(blas64.Symmetric{N: n, Stride: a.Stride, Uplo: blas.Upper, Data: work}); !ok {
						b.Fatal("not positive definite")
					}
				}
				gflops(b, float64(n)*float64(n)*float64(n)/3)
			})
		}
	}
}

// BenchmarkDgetrf is BenchmarkLU without the condition number estimate
// that mat.LU adds: gonum's lapack Dgetrf alone.
func BenchmarkDgetrf(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range sizes() {
		a := randSlice(rng, n*n)
		work := make([]float64, n*n)
		ipiv := make([]int, n)
		for _, im := range impls {
			b.Run(fmt.Sprintf("n=%d/%s", n, im.name), func(b *testing.B) {
				use(b, im.impl)
				for b.Loop() {
					b.StopTimer()
					copy(work, a)
					b.StartTimer()
					lapack64.Getrf(blas64.General{Rows: n, Cols: n, Stride: n, Data: work}, ipiv)
				}
				gflops(b, 2*float64(n)*float64(n)*float64(n)/3)
			})
		}
	}
}

// spd returns a random symmetric positive definite n×n matrix, xxᵀ + n·I.
func spd(rng *rand.Rand, n int) *mat.SymDense {
	x := mat.NewDense(n, n, randSlice(rng, n*n))
	var s mat.SymDense
	s.SymOuterK(1, x)
	for i := range n {
		s.SetSym(i, i, s.At(i, i)+float64(n))
	}
	return &s
}
