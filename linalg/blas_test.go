package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gofork/gofork/core"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/testblas"
)

// tinyCutoffs returns a BLAS on pool p (nil: the default) with kernel
// kern (zero: the best) whose every cutoff is 1, so that the smallest
// matrices go through each split of the recursions, the strips, the joins
// and the multiply instead of gonum's serial code.
func tinyCutoffs(p *core.Pool, kern microKernel) BLAS {
	return BLAS{tune: &tuning{pool: p, kern: kern, grain: 1, triLeaf: 1, symLeaf: 1, stripMin: 1}}
}

// blasVariants lists the BLAS values the tests check: the zero value, and
// tiny cutoffs with each kernel on pools of 1 and 2 workers and on 3
// HelpFirst workers. The caller closes the pools.
func blasVariants() ([]struct {
	name string
	impl BLAS
}, []*core.Pool) {
	pools := testPools()
	vs := []struct {
		name string
		impl BLAS
	}{{"zero", BLAS{}}}
	for _, kn := range kernels() {
		for _, p := range pools {
			vs = append(vs, struct {
				name string
				impl BLAS
			}{fmt.Sprintf("tiny/kernel=%s/p=%d", kn.name, p.Workers()), tinyCutoffs(p, kn)})
		}
	}
	return vs, pools
}

// TestGonumSuites runs gonum's own conformance tests of the six Level 3
// routines (gonum.org/v1/gonum/blas/testblas).
func TestGonumSuites(t *testing.T) {
	vs, pools := blasVariants()
	defer closePools(pools)
	for _, v := range vs {
		t.Run(v.name, func(t *testing.T) {
			t.Run("Dgemm", func(t *testing.T) { testblas.TestDgemm(t, v.impl) })
			t.Run("Dsymm", func(t *testing.T) { testblas.DsymmTest(t, v.impl) })
			t.Run("Dsyrk", func(t *testing.T) { testblas.DsyrkTest(t, v.impl) })
			t.Run("Dsyr2k", func(t *testing.T) { testblas.Dsyr2kTest(t, v.impl) })
			t.Run("Dtrmm", func(t *testing.T) { testblas.DtrmmTest(t, v.impl) })
			t.Run("Dtrsm", func(t *testing.T) { testblas.DtrsmTest(t, v.impl) })
		})
	}
}

// level3Case is one random call: the flags, the sizes, the leading
// dimensions (each at least its minimum, some padded) and the scalars.
type level3Case struct {
	side        blas.Side
	ul          blas.Uplo
	tA, tB      blas.Transpose
	diag        blas.Diag
	m, n, k     int
	pad         int
	alpha, beta float64
}

func (c level3Case) String() string {
	return fmt.Sprintf("side=%c/ul=%c/tA=%c/tB=%c/diag=%c/m=%d/n=%d/k=%d/pad=%d/alpha=%g/beta=%g",
		c.side, c.ul, c.tA, c.tB, c.diag, c.m, c.n, c.k, c.pad, c.alpha, c.beta)
}

// randMat returns r rows of c values with leading dimension ld; entries
// past column c hold a sentinel that must survive untouched.
func randMat(rng *rand.Rand, r, c, ld int) []float64 {
	d := make([]float64, max(0, (r-1)*ld+c))
	for i := range d {
		if i%ld < c {
			d[i] = rng.Float64()*2 - 1
		} else {
			d[i] = 12345
		}
	}
	return d
}

// triangularMat is randMat with a diagonal of magnitude about n, so that
// triangular solves are well conditioned.
func triangularMat(rng *rand.Rand, n, ld int) []float64 {
	d := randMat(rng, n, n, ld)
	for i := range n {
		d[i*ld+i] = float64(n) + 1 + rng.Float64()
		if rng.IntN(2) == 0 {
			d[i*ld+i] = -d[i*ld+i]
		}
	}
	return d
}

// sameWithin fails unless got and want agree within tol·(1+|want|) in
// every element; a NaN in want must be a NaN in got.
func sameWithin(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		g, w := got[i], want[i]
		if math.IsNaN(w) && math.IsNaN(g) {
			continue
		}
		if !(math.Abs(g-w) <= tol*(1+math.Abs(w))) {
			t.Fatalf("%s: element %d = %v, want %v", what, i, g, w)
		}
	}
}

var (
	sides      = []blas.Side{blas.Left, blas.Right}
	uplos      = []blas.Uplo{blas.Lower, blas.Upper}
	transposes = []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}
	diags      = []blas.Diag{blas.NonUnit, blas.Unit}
)

// level3Sizes are the orders the random tests use: around the micro-tile,
// the strips and the leaves of the recursions (larger ones without -short).
func level3Sizes() []int {
	if testing.Short() {
		return []int{1, 2, 7, 33, 97}
	}
	return []int{1, 2, 7, 33, 97, 130, 200}
}

// TestLevel3AgainstGonum compares every routine with gonum's serial
// implementation on random matrices, for every flag combination, padded
// leading dimensions, beta = 0 over a NaN-filled C, and alpha = 0. The
// sentinels past each row and the triangle a routine must not write are
// checked exactly.
func TestLevel3AgainstGonum(t *testing.T) {
	vs, pools := blasVariants()
	defer closePools(pools)
	rng := rand.New(rand.NewPCG(1, 1))
	sizes := level3Sizes()
	scalars := [][2]float64{{1.5, 0}, {-0.5, 2}, {0, 0.5}}
	for _, v := range vs {
		if testing.Short() && v.name != "zero" && v.impl.tune.pool.Workers() == 1 {
			continue
		}
		t.Run(v.name, func(t *testing.T) {
			for _, m := range sizes {
				n := sizes[rng.IntN(len(sizes))]
				k := sizes[rng.IntN(len(sizes))]
				sc := scalars[rng.IntN(len(scalars))]
				base := level3Case{m: m, n: n, k: k, pad: rng.IntN(3) * 5, alpha: sc[0], beta: sc[1]}
				for _, tA := range transposes {
					for _, tB := range transposes {
						c := base
						c.tA, c.tB = tA, tB
						checkGemmCase(t, v.impl, rng, c)
					}
					for _, ul := range uplos {
						c := base
						c.tA, c.ul = tA, ul
						checkRankKCase(t, v.impl, rng, c, false)
						checkRankKCase(t, v.impl, rng, c, true)
						for _, s := range sides {
							for _, d := range diags {
								c.side, c.diag = s, d
								checkTriangularCase(t, v.impl, rng, c, false)
								checkTriangularCase(t, v.impl, rng, c, true)
							}
							if tA == blas.NoTrans {
								c.side = s
								checkSymmCase(t, v.impl, rng, c)
							}
						}
					}
				}
			}
		})
	}
}

// cPair returns C for a call with the given beta, and the copy that
// gonum's serial code gets. When beta is zero the elements the routine
// writes (those for which written reports true) are NaN in C, which must
// not be read, and zero in the copy (gonum reads C in some paths even then).
func cPair(rng *rand.Rand, r, c, ld int, beta float64, written func(i, j int) bool) (got, want []float64) {
	got = randMat(rng, r, c, ld)
	want = append([]float64(nil), got...)
	if beta == 0 {
		for i := range got {
			if row, col := i/ld, i%ld; col < c && written(row, col) {
				got[i], want[i] = math.NaN(), 0
			}
		}
	}
	return got, want
}

func everywhere(i, j int) bool { return true }

func checkGemmCase(t *testing.T, impl BLAS, rng *rand.Rand, tc level3Case) {
	t.Helper()
	m, n, k := tc.m, tc.n, tc.k
	ar, ac := m, k
	if isTrans(tc.tA) {
		ar, ac = k, m
	}
	br, bc := k, n
	if isTrans(tc.tB) {
		br, bc = n, k
	}
	lda, ldb, ldc := ac+tc.pad, bc+tc.pad, n+tc.pad
	a, b := randMat(rng, ar, ac, lda), randMat(rng, br, bc, ldb)
	c, want := cPair(rng, m, n, ldc, tc.beta, everywhere)
	native.Dgemm(tc.tA, tc.tB, m, n, k, tc.alpha, a, lda, b, ldb, tc.beta, want, ldc)
	impl.Dgemm(tc.tA, tc.tB, m, n, k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
	sameWithin(t, "Dgemm/"+tc.String(), c, want, 1e-12*float64(k+1))
}

func checkRankKCase(t *testing.T, impl BLAS, rng *rand.Rand, tc level3Case, two bool) {
	t.Helper()
	n, k := tc.m, tc.k
	ar, ac := n, k
	if isTrans(tc.tA) {
		ar, ac = k, n
	}
	lda, ldc := ac+tc.pad, n+tc.pad
	a, b := randMat(rng, ar, ac, lda), randMat(rng, ar, ac, lda)
	c, want := cPair(rng, n, n, ldc, tc.beta, func(i, j int) bool { return (i >= j) == (tc.ul == blas.Lower) || i == j })
	if two {
		native.Dsyr2k(tc.ul, tc.tA, n, k, tc.alpha, a, lda, b, lda, tc.beta, want, ldc)
		impl.Dsyr2k(tc.ul, tc.tA, n, k, tc.alpha, a, lda, b, lda, tc.beta, c, ldc)
		sameWithin(t, "Dsyr2k/"+tc.String(), c, want, 1e-12*float64(k+1))
		return
	}
	native.Dsyrk(tc.ul, tc.tA, n, k, tc.alpha, a, lda, tc.beta, want, ldc)
	impl.Dsyrk(tc.ul, tc.tA, n, k, tc.alpha, a, lda, tc.beta, c, ldc)
	sameWithin(t, "Dsyrk/"+tc.String(), c, want, 1e-12*float64(k+1))
}

func checkSymmCase(t *testing.T, impl BLAS, rng *rand.Rand, tc level3Case) {
	t.Helper()
	m, n := tc.m, tc.n
	order := m
	if tc.side == blas.Right {
		order = n
	}
	lda, ldb, ldc := order+tc.pad, n+tc.pad, n+tc.pad
	a := randMat(rng, order, order, lda)
	// The triangle of A that is not read holds NaNs.
	for i := range order {
		for j := range order {
			if (i > j && tc.ul == blas.Upper) || (i < j && tc.ul == blas.Lower) {
				a[i*lda+j] = math.NaN()
			}
		}
	}
	b := randMat(rng, m, n, ldb)
	c, want := cPair(rng, m, n, ldc, tc.beta, everywhere)
	native.Dsymm(tc.side, tc.ul, m, n, tc.alpha, a, lda, b, ldb, tc.beta, want, ldc)
	impl.Dsymm(tc.side, tc.ul, m, n, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
	sameWithin(t, "Dsymm/"+tc.String(), c, want, 1e-12*float64(order+1))
}

func checkTriangularCase(t *testing.T, impl BLAS, rng *rand.Rand, tc level3Case, solve bool) {
	t.Helper()
	m, n := tc.m, tc.n
	order := m
	if tc.side == blas.Right {
		order = n
	}
	lda, ldb := order+tc.pad, n+tc.pad
	a := triangularMat(rng, order, lda)
	// The triangle that is not read, and a unit diagonal, hold NaNs.
	for i := range order {
		for j := range order {
			if (i > j && tc.ul == blas.Upper) || (i < j && tc.ul == blas.Lower) || (i == j && tc.diag == blas.Unit) {
				a[i*lda+j] = math.NaN()
			}
		}
	}
	b := randMat(rng, m, n, ldb)
	want := append([]float64(nil), b...)
	name := "Dtrmm/"
	if solve {
		name = "Dtrsm/"
		native.Dtrsm(tc.side, tc.ul, tc.tA, tc.diag, m, n, tc.alpha, a, lda, want, ldb)
		impl.Dtrsm(tc.side, tc.ul, tc.tA, tc.diag, m, n, tc.alpha, a, lda, b, ldb)
	} else {
		native.Dtrmm(tc.side, tc.ul, tc.tA, tc.diag, m, n, tc.alpha, a, lda, want, ldb)
		impl.Dtrmm(tc.side, tc.ul, tc.tA, tc.diag, m, n, tc.alpha, a, lda, b, ldb)
	}
	// A unit diagonal makes the solve with a random triangle grow like
	// 2^order; compare relative to the largest entry.
	scale := 0.0
	for _, v := range want {
		if v != 12345 {
			scale = max(scale, math.Abs(v))
		}
	}
	sameWithin(t, name+tc.String(), b, want, 1e-12*float64(order+1)*max(1, scale))
}
