package linalg

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestBLASPanics makes calls with one or two bad arguments to each Level 3
// routine and checks that BLAS panics with the message gonum's serial code
// panics with (or that neither panics).
func TestBLASPanics(t *testing.T) {
	const bad = 'X'
	type args struct {
		s          blas.Side
		ul         blas.Uplo
		tA, tB     blas.Transpose
		d          blas.Diag
		m, n, k    int
		lda, ldb   int
		ldc        int
		la, lb, lc int // lengths of a, b and c
	}
	good := args{s: blas.Left, ul: blas.Upper, tA: blas.NoTrans, tB: blas.Trans, d: blas.NonUnit,
		m: 4, n: 4, k: 4, lda: 4, ldb: 4, ldc: 4, la: 16, lb: 16, lc: 16}
	edits := map[string]func(*args){
		"side":   func(x *args) { x.s = bad },
		"uplo":   func(x *args) { x.ul = bad },
		"tA":     func(x *args) { x.tA = bad },
		"tB":     func(x *args) { x.tB = bad },
		"diag":   func(x *args) { x.d = bad },
		"m<0":    func(x *args) { x.m = -1 },
		"n<0":    func(x *args) { x.n = -1 },
		"k<0":    func(x *args) { x.k = -1 },
		"m=0":    func(x *args) { x.m = 0 },
		"n=0":    func(x *args) { x.n = 0 },
		"lda":    func(x *args) { x.lda = 3 },
		"ldb":    func(x *args) { x.ldb = 3 },
		"ldc":    func(x *args) { x.ldc = 3 },
		"lda=0":  func(x *args) { x.lda = 0 },
		"shortA": func(x *args) { x.la = 15 },
		"shortB": func(x *args) { x.lb = 15 },
		"shortC": func(x *args) { x.lc = 15 },
		"tA=T":   func(x *args) { x.tA = blas.Trans },
		"right":  func(x *args) { x.s = blas.Right },
		"m=2":    func(x *args) { x.m = 2 },
	}
	calls := map[string]func(impl blas.Float64, x args, a, b, c []float64){
		"Dgemm": func(impl blas.Float64, x args, a, b, c []float64) {
			impl.Dgemm(x.tA, x.tB, x.m, x.n, x.k, 1, a, x.lda, b, x.ldb, 0, c, x.ldc)
		},
		"Dsymm": func(impl blas.Float64, x args, a, b, c []float64) {
			impl.Dsymm(x.s, x.ul, x.m, x.n, 1, a, x.lda, b, x.ldb, 0, c, x.ldc)
		},
		"Dsyrk": func(impl blas.Float64, x args, a, _, c []float64) {
			impl.Dsyrk(x.ul, x.tA, x.n, x.k, 1, a, x.lda, 0, c, x.ldc)
		},
		"Dsyr2k": func(impl blas.Float64, x args, a, b, c []float64) {
			impl.Dsyr2k(x.ul, x.tA, x.n, x.k, 1, a, x.lda, b, x.ldb, 0, c, x.ldc)
		},
		"Dtrmm": func(impl blas.Float64, x args, a, b, _ []float64) {
			impl.Dtrmm(x.s, x.ul, x.tA, x.d, x.m, x.n, 1, a, x.lda, b, x.ldb)
		},
		"Dtrsm": func(impl blas.Float64, x args, a, b, _ []float64) {
			impl.Dtrsm(x.s, x.ul, x.tA, x.d, x.m, x.n, 1, a, x.lda, b, x.ldb)
		},
	}
	// panicOf runs call on fresh operands and returns what it panicked
	// with ("" for none).
	panicOf := func(call func(blas.Float64, args, []float64, []float64, []float64), impl blas.Float64, x args) (msg string) {
		a, b, c := make([]float64, x.la), make([]float64, x.lb), make([]float64, x.lc)
		for i := range a {
			a[i] = float64(i%5 + 1)
		}
		for i := range b {
			b[i], c[i%len(c)] = 2, 3
		}
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		call(impl, x, a, b, c)
		return ""
	}
	impls := []BLAS{{}, tinyCutoffs(nil, microKernel{})}
	for name, call := range calls {
		editPairs(good, edits, func(edited string, x args) {
			want := panicOf(call, native, x)
			for _, impl := range impls {
				if got := panicOf(call, impl, x); got != want {
					t.Errorf("%s with %s: panic %q, gonum panics %q", name, edited, got, want)
				}
			}
		})
	}
}

// editPairs calls f with good changed by each unordered pair of edits (an
// edit paired with itself included), named "e1 and e2".
func editPairs[A any](good A, edits map[string]func(*A), f func(edited string, a A)) {
	for e1, f1 := range edits {
		for e2, f2 := range edits {
			if e2 < e1 {
				continue
			}
			a := good
			f1(&a)
			f2(&a)
			f(e1+" and "+e2, a)
		}
	}
}
