package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas/testblas"
)

// TestGonumDger runs gonum's own test of Dger on the zero value and on
// tiny cutoffs, which cut every update into strips on the pools.
func TestGonumDger(t *testing.T) {
	vs, pools := blasVariants()
	defer closePools(pools)
	for _, v := range vs {
		t.Run(v.name, func(t *testing.T) { testblas.DgerTest(t, v.impl) })
	}
}

// TestDgerAgainstGonum compares Dger with gonum's on random operands of
// sizes around the four-row unrolling and the parallel cutoff, with unit
// and other increments and rows padded (to gerFarRows and beyond, for the
// four-row loop), and checks that the padding is not written. Negative increments go to gonum's code unchanged, and are
// left out: gonum's Dger reads them from outside x and y.
func TestDgerAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 29))
	vs, pools := blasVariants()
	defer closePools(pools)
	type shape struct{ m, n int }
	shapes := []shape{{0, 3}, {3, 0}, {1, 1}, {3, 5}, {4, 1}, {5, 7}, {8, 8}, {9, 17}, {33, 64}, {130, 3}}
	// One update large enough for the zero value's parallel path.
	shapes = append(shapes, shape{gerParMin/64 + 5, 64})
	for _, v := range vs {
		for _, s := range shapes {
			for _, incX := range []int{1, 2} {
				for _, incY := range []int{1, 3} {
					for _, pad := range []int{0, 3, gerFarRows} {
						lda := max(1, s.n+pad)
						x := randVec(rng, vecLen(s.m, incX, 1))
						y := randVec(rng, vecLen(s.n, incY, 1))
						a := randVec(rng, max(0, (s.m-1)*lda+s.n)+pad)
						for _, alpha := range []float64{0, 1, -0.5} {
							got, want := slices.Clone(a), slices.Clone(a)
							v.impl.Dger(s.m, s.n, alpha, x, incX, y, incY, got, lda)
							native.Dger(s.m, s.n, alpha, x, incX, y, incY, want, lda)
							for i := range got {
								if !closeTo(got[i], want[i], math.Abs(a[i])+2) {
									t.Fatalf("%s: Dger m=%d n=%d incX=%d incY=%d lda=%d alpha=%v: a[%d] = %v, gonum %v",
										v.name, s.m, s.n, incX, incY, lda, alpha, i, got[i], want[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestDgerPanics calls Dger with one or two bad arguments, sized for the
// four-row loop, and checks that BLAS panics with gonum's message (or that
// neither panics).
func TestDgerPanics(t *testing.T) {
	type args struct {
		m, n, incX, incY, lda int
		lx, ly, la            int
		alpha                 float64
	}
	good := args{m: 8, n: 5, incX: 2, incY: 1, lda: 6, lx: 15, ly: 5, la: 47, alpha: 1}
	edits := map[string]func(*args){
		"none":    func(*args) {},
		"m<0":     func(x *args) { x.m = -1 },
		"n<0":     func(x *args) { x.n = -1 },
		"m=0":     func(x *args) { x.m = 0 },
		"n=0":     func(x *args) { x.n = 0 },
		"lda":     func(x *args) { x.lda = 4 },
		"incX=0":  func(x *args) { x.incX = 0 },
		"incY=0":  func(x *args) { x.incY = 0 },
		"incX<0":  func(x *args) { x.incX = -2 },
		"incY=2":  func(x *args) { x.incY = 2 },
		"shortX":  func(x *args) { x.lx-- },
		"shortY":  func(x *args) { x.ly-- },
		"shortA":  func(x *args) { x.la-- },
		"alpha=0": func(x *args) { x.alpha = 0 },
	}
	panicOf := func(impl interface {
		Dger(int, int, float64, []float64, int, []float64, int, []float64, int)
	}, a args) (msg string) {
		x, y, m := make([]float64, a.lx), make([]float64, a.ly), make([]float64, a.la)
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		impl.Dger(a.m, a.n, a.alpha, x, a.incX, y, a.incY, m, a.lda)
		return ""
	}
	editPairs(good, edits, func(edited string, a args) {
		if got, want := panicOf(BLAS{}, a), panicOf(native, a); got != want {
			t.Errorf("Dger with %s: panic %q, gonum panics %q", edited, got, want)
		}
	})
}
