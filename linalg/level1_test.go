package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas/testblas"
)

// TestGonumLevel1Suites runs gonum's own tests of the Level 1 routines BLAS
// replaces (gonum.org/v1/gonum/blas/testblas).
func TestGonumLevel1Suites(t *testing.T) {
	impl := BLAS{}
	t.Run("Ddot", func(t *testing.T) { testblas.DdotTest(t, impl) })
	t.Run("Daxpy", func(t *testing.T) { testblas.DaxpyTest(t, impl) })
	t.Run("Dscal", func(t *testing.T) { testblas.DscalTest(t, impl) })
	t.Run("Idamax", func(t *testing.T) { testblas.IdamaxTest(t, impl) })
	t.Run("Dasum", func(t *testing.T) { testblas.DasumTest(t, impl) })
}

// level1Sizes are the vector lengths of the oracle tests: empty, short
// (gonum's code), around minStrided and the unrolling, and long.
var level1Sizes = []int{0, 1, 2, 3, minStrided - 1, minStrided, minStrided + 1, 11, 12, 15, 16, 17, 31, 64, 257}

var level1Incs = []int{1, 2, 3, 7, -1, -2, -5}

// vecLen returns a slice length that holds an n-vector with increment inc,
// plus extra elements.
func vecLen(n, inc, extra int) int {
	if n == 0 {
		return extra
	}
	return (n-1)*max(inc, -inc) + 1 + extra
}

func randVec(rng *rand.Rand, l int) []float64 {
	v := make([]float64, l)
	for i := range v {
		v[i] = rng.Float64()*2 - 1
	}
	return v
}

// closeTo reports whether got and want agree to a few ulps of the scale
// of the terms summed.
func closeTo(got, want, scale float64) bool {
	return math.Abs(got-want) <= 1e-13*(scale+1)
}

// TestLevel1AgainstGonum compares Ddot, Daxpy, Dscal and Dasum with gonum's code
// on random vectors of every length, with positive and negative
// increments, and checks that no element off the vectors changes.
func TestLevel1AgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 29))
	impl := BLAS{}
	for _, n := range level1Sizes {
		for _, incX := range level1Incs {
			for _, incY := range level1Incs {
				for _, extra := range []int{0, 3} {
					name := fmt.Sprintf("n=%d/incX=%d/incY=%d/extra=%d", n, incX, incY, extra)
					x := randVec(rng, vecLen(n, incX, extra))
					y := randVec(rng, vecLen(n, incY, extra))
					var scale float64
					for i := range n {
						scale += math.Abs(x[first(n, incX)+i*incX] * y[first(n, incY)+i*incY])
					}
					if got, want := impl.Ddot(n, x, incX, y, incY), native.Ddot(n, x, incX, y, incY); !closeTo(got, want, scale) {
						t.Errorf("Ddot %s: %v, gonum %v", name, got, want)
					}
					for _, alpha := range []float64{0, 1, -0.75} {
						got, want := slices.Clone(y), slices.Clone(y)
						impl.Daxpy(n, alpha, x, incX, got, incY)
						native.Daxpy(n, alpha, x, incX, want, incY)
						for i := range got {
							if !closeTo(got[i], want[i], math.Abs(want[i])+math.Abs(y[i])) {
								t.Errorf("Daxpy %s alpha=%v: y[%d] = %v, gonum %v", name, alpha, i, got[i], want[i])
							}
						}
					}
				}
			}
			if incX < 1 {
				continue
			}
			x := randVec(rng, vecLen(n, incX, 1))
			var scale float64
			for i := range n {
				scale += math.Abs(x[i*incX])
			}
			if got, want := impl.Dasum(n, x, incX), native.Dasum(n, x, incX); !closeTo(got, want, scale) {
				t.Errorf("Dasum n=%d incX=%d: %v, gonum %v", n, incX, got, want)
			}
			for _, alpha := range []float64{0, 1, -0.75, math.Inf(1)} {
				x := randVec(rng, vecLen(n, incX, 2))
				x[0] = math.Inf(-1) // alpha = 0 must give 0, not 0*Inf
				got, want := slices.Clone(x), slices.Clone(x)
				impl.Dscal(n, alpha, got, incX)
				native.Dscal(n, alpha, want, incX)
				if !slices.EqualFunc(got, want, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
					t.Errorf("Dscal n=%d incX=%d alpha=%v: %v, gonum %v", n, incX, alpha, got, want)
				}
			}
		}
	}
}

// TestDaxpyCollidingAgainstGonum compares Daxpy with gonum's on vectors
// whose elements collide in the caches, the ones its own loop takes.
func TestDaxpyCollidingAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 29))
	impl := BLAS{}
	for _, n := range level1Sizes {
		for _, incX := range []int{collidingStride, -collidingStride, 2 * collidingStride, 3} {
			for _, incY := range []int{1, -1, collidingStride} {
				x := randVec(rng, vecLen(n, incX, 1))
				y := randVec(rng, vecLen(n, incY, 1))
				got, want := slices.Clone(y), slices.Clone(y)
				impl.Daxpy(n, -0.75, x, incX, got, incY)
				native.Daxpy(n, -0.75, x, incX, want, incY)
				for i := range got {
					if !closeTo(got[i], want[i], math.Abs(want[i])+math.Abs(y[i])) {
						t.Fatalf("Daxpy n=%d incX=%d incY=%d: y[%d] = %v, gonum %v", n, incX, incY, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestIdamaxAgainstGonum compares Idamax with gonum's on vectors drawn from
// a few values, so that ties are common, with NaNs (first or anywhere) and
// infinities among them.
func TestIdamaxAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 29))
	impl := BLAS{}
	values := []float64{0, 1, -1, 2, -2, 3, -3, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1)}
	rounds := 200
	if testing.Short() {
		rounds = 40
	}
	for _, n := range level1Sizes {
		for _, inc := range []int{1, 2, -1} {
			for r := range rounds {
				x := make([]float64, vecLen(n, inc, r%2))
				for i := range x {
					// Half the rounds draw from finite values only.
					k := len(values)
					if r%2 == 0 {
						k = 8
					}
					x[i] = values[rng.IntN(k)]
				}
				if got, want := impl.Idamax(n, x, inc), native.Idamax(n, x, inc); got != want {
					t.Fatalf("Idamax(%d, %v, %d) = %d, gonum %d", n, x, inc, got, want)
				}
			}
		}
	}
}

// TestLevel1Panics calls each replaced routine with bad arguments, at a
// length that would take the replacing loops, and checks that BLAS panics
// with gonum's message (or that neither panics).
func TestLevel1Panics(t *testing.T) {
	const n = 2 * minStrided
	type args struct {
		n, incX, incY int
		lx, ly        int
		alpha         float64
	}
	good := args{n: n, incX: collidingStride, incY: 2, lx: collidingStride*(n-1) + 1, ly: 2*(n-1) + 1, alpha: 2}
	edits := map[string]func(*args){
		"none":    func(*args) {},
		"n<0":     func(x *args) { x.n = -1 },
		"n=0":     func(x *args) { x.n = 0 },
		"incX=0":  func(x *args) { x.incX = 0 },
		"incY=0":  func(x *args) { x.incY = 0 },
		"incX<0":  func(x *args) { x.incX = -collidingStride },
		"incY<0":  func(x *args) { x.incY = -2 },
		"incX=1":  func(x *args) { x.incX = 1 },
		"shortX":  func(x *args) { x.lx-- },
		"shortY":  func(x *args) { x.ly-- },
		"alpha=0": func(x *args) { x.alpha = 0 },
	}
	type level1 interface {
		Ddot(int, []float64, int, []float64, int) float64
		Daxpy(int, float64, []float64, int, []float64, int)
		Dscal(int, float64, []float64, int)
		Idamax(int, []float64, int) int
		Dasum(int, []float64, int) float64
	}
	routines := map[string]func(impl level1, a args, x, y []float64){
		"Ddot":   func(impl level1, a args, x, y []float64) { impl.Ddot(a.n, x, a.incX, y, a.incY) },
		"Daxpy":  func(impl level1, a args, x, y []float64) { impl.Daxpy(a.n, a.alpha, x, a.incX, y, a.incY) },
		"Dscal":  func(impl level1, a args, x, _ []float64) { impl.Dscal(a.n, a.alpha, x, a.incX) },
		"Idamax": func(impl level1, a args, x, _ []float64) { impl.Idamax(a.n, x, a.incX) },
		"Dasum":  func(impl level1, a args, x, _ []float64) { impl.Dasum(a.n, x, a.incX) },
	}
	panicOf := func(call func(level1, args, []float64, []float64), impl level1, a args) (msg string) {
		x, y := make([]float64, a.lx), make([]float64, a.ly)
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		call(impl, a, x, y)
		return ""
	}
	for name, call := range routines {
		editPairs(good, edits, func(edited string, a args) {
			if got, want := panicOf(call, BLAS{}, a), panicOf(call, native, a); got != want {
				t.Errorf("%s with %s: panic %q, gonum panics %q", name, edited, got, want)
			}
		})
	}
}
