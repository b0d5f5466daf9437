package linalg

import "github.com/gofork/gofork/core"

// Cutoffs of Dger.
const (
	// gerParMin is the smallest m*n that Dger cuts into strips of rows for
	// the pool. gonum's LU panel (lapack Dgetf2) updates up to 2048×63
	// elements per call, a few tens of microseconds of loads from the
	// shared cache; a fork-join from outside the pool costs a few
	// microseconds, so smaller updates run serially on the caller.
	gerParMin = 1 << 14
	// gerFarRows is the smallest lda (in elements: 4 KiB) at which Dger
	// updates four rows at a time. Rows that far apart sit on pages of
	// their own and their cache lines compete for a few sets, so each row
	// is a stream of misses, and four streams overlap where one would wait;
	// closer rows stay in cache, where gonum's vector loop is faster than
	// the scalar four-row loop.
	gerFarRows = 512
)

// Dger adds alpha*x*yᵀ to the m×n matrix A, x an m-vector with increment
// incX and y an n-vector with increment incY. With a positive incX and
// incY = 1 (how lapack's LU panel calls it) it runs in strips of rows on
// the pool when m*n is at least gerParMin, and updates four rows per pass
// over y when lda is at least gerFarRows; other calls, and calls with bad
// arguments, go to gonum's code.
func (b BLAS) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if m < 4 || n < 1 || alpha == 0 || incX < 1 || incY != 1 || lda < n ||
		len(x) <= (m-1)*incX || len(y) < n || len(a) < lda*(m-1)+n {
		native.Dger(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	parMin := int64(gerParMin)
	if b.tune != nil {
		parMin = b.tune.gerParMin
	}
	serial := int64(m)*int64(n) < parMin
	if serial && lda < gerFarRows {
		native.Dger(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	g := rank1{alpha: alpha, x: x, incX: incX, y: y[:n], a: a, lda: lda}
	if serial {
		g.rows(0, m)
		return
	}
	// newLevel3 is resolved only here: it costs as much as a small update.
	g.strips(newLevel3(b), m)
}

// rank1 is one Dger update, A += alpha*x*yᵀ; strips of its rows are
// disjoint, so they run in parallel without synchronisation.
type rank1 struct {
	alpha float64
	x     []float64
	incX  int
	y     []float64
	a     []float64
	lda   int
}

// strips updates the m rows of A in strips on lv's pool.
func (g rank1) strips(lv *level3, m int) {
	if lv.pool.Workers() == 1 {
		g.rows(0, m)
		return
	}
	core.Run(lv.pool, func(w *core.Worker) struct{} {
		lv.strips(w, m, func(_ *core.Worker, lo, n int) { g.rows(lo, n) })
		return struct{}{}
	})
}

// rows updates rows [lo, lo+m) of A: with gonum's code for rows closer
// than gerFarRows, else four at a time, each element of y loaded once for
// four rows and the four rows' loads independent of each other.
func (g *rank1) rows(lo, m int) {
	n, y := len(g.y), g.y
	if g.lda < gerFarRows {
		native.Dger(m, n, g.alpha, g.x[lo*g.incX:], g.incX, y, 1, g.a[lo*g.lda:], g.lda)
		return
	}
	i := lo
	for ; i+4 <= lo+m; i += 4 {
		t0, t1 := g.alpha*g.x[i*g.incX], g.alpha*g.x[(i+1)*g.incX]
		t2, t3 := g.alpha*g.x[(i+2)*g.incX], g.alpha*g.x[(i+3)*g.incX]
		r0 := g.a[i*g.lda : i*g.lda+n]
		r1 := g.a[(i+1)*g.lda : (i+1)*g.lda+n]
		r2 := g.a[(i+2)*g.lda : (i+2)*g.lda+n]
		r3 := g.a[(i+3)*g.lda : (i+3)*g.lda+n]
		for k, v := range y {
			r0[k] += t0 * v
			r1[k] += t1 * v
			r2[k] += t2 * v
			r3[k] += t3 * v
		}
	}
	for ; i < lo+m; i++ {
		t := g.alpha * g.x[i*g.incX]
		r := g.a[i*g.lda : i*g.lda+n]
		for k, v := range y {
			r[k] += t * v
		}
	}
}
