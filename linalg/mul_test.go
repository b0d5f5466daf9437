package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gofork/gofork/core"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

func randDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := make([]float64, r*c)
	for i := range d {
		d[i] = rng.Float64()*2 - 1
	}
	return mat.NewDense(r, c, d)
}

// absDense returns |x| elementwise as a dense matrix.
func absDense(x mat.Matrix) *mat.Dense {
	d := mat.DenseCopyOf(x)
	d.Apply(func(_, _ int, v float64) float64 { return math.Abs(v) }, d)
	return d
}

// checkProduct fails unless got = alpha*a*b + beta*c0 within the forward
// error bound of a dot product of length k: |got - want| <= 4·k·eps·
// (|alpha||a||b| + |beta||c0|) elementwise, plus a tiny absolute slack.
// want comes from gonum's (*mat.Dense).Mul; c0 may be nil when beta is 0.
func checkProduct(t *testing.T, got *mat.Dense, alpha float64, a, b mat.Matrix, beta float64, c0 *mat.Dense) {
	t.Helper()
	var want, bound mat.Dense
	want.Mul(a, b)
	want.Scale(alpha, &want)
	bound.Mul(absDense(a), absDense(b))
	bound.Scale(math.Abs(alpha), &bound)
	if beta != 0 {
		var bc mat.Dense
		bc.Scale(beta, c0)
		want.Add(&want, &bc)
		bc.Scale(math.Abs(beta), absDense(c0))
		bound.Add(&bound, &bc)
	}
	_, k := a.Dims()
	r, c := want.Dims()
	gr, gc := got.Dims()
	if gr != r || gc != c {
		t.Fatalf("result is %dx%d, want %dx%d", gr, gc, r, c)
	}
	eps := 0x1p-52
	for i := range r {
		for j := range c {
			tol := 4*float64(k+2)*eps*bound.At(i, j) + 1e-300
			if d := math.Abs(got.At(i, j) - want.At(i, j)); !(d <= tol) {
				t.Fatalf("element (%d,%d) = %v, want %v (diff %g > tol %g)", i, j, got.At(i, j), want.At(i, j), d, tol)
			}
		}
	}
}

// kernels lists the micro-kernel sets to test: every one this CPU runs,
// the portable one first.
func kernels() []microKernel { return supportedKernels() }

// testPools returns pools of 1 and 2 workers and one of 3 HelpFirst workers
// (more workers than cores, thieves take the first half of each Join); the
// caller closes them.
func testPools() []*core.Pool {
	return []*core.Pool{
		core.New(core.WithWorkers(1)),
		core.New(core.WithWorkers(2)),
		core.New(core.WithWorkers(3), core.WithPolicy(core.HelpFirst)),
	}
}

func closePools(ps []*core.Pool) {
	for _, p := range ps {
		p.Close()
	}
}

type shape struct{ m, k, n int }

func testShapes() []shape {
	odd := []int{1, 3, 17, 100, 257}
	var s []shape
	for _, m := range odd {
		for _, k := range odd {
			for _, n := range odd {
				if testing.Short() && m*k*n > 100*100*257 {
					continue
				}
				s = append(s, shape{m, k, n})
			}
		}
	}
	// The benchmark shape classes: square, tall-skinny outer product and
	// short-wide inner product (scaled down in -short), and sizes around
	// the micro-tile and the blocking cutoffs.
	s = append(s,
		shape{256, 256, 256},
		shape{6, 256, 8}, shape{7, 257, 9}, shape{5, 255, 7},
		shape{mc + 1, kc + 1, nr*3 + 1}, shape{2*mr + 1, 2*kc + 3, 2*nr - 1},
	)
	if testing.Short() {
		s = append(s, shape{512, 16, 512}, shape{16, 1024, 16}, shape{300, 300, 300})
	} else {
		s = append(s, shape{1024, 64, 1024}, shape{64, 4096, 64}, shape{600, 500, 700}, shape{nc + 5, 40, nc + 9})
	}
	return s
}

func TestMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	pools := testPools()
	defer closePools(pools)
	for _, kn := range kernels() {
		for _, p := range pools {
			for _, s := range testShapes() {
				name := fmt.Sprintf("kernel=%s/p=%d/%dx%dx%d", kn.name, p.Workers(), s.m, s.k, s.n)
				t.Run(name, func(t *testing.T) {
					a := randDense(rng, s.m, s.k)
					b := randDense(rng, s.k, s.n)
					var c mat.Dense
					mulAdd(&c, 1, a, b, 0, config{pool: p, kern: kn})
					checkProduct(t, &c, 1, a, b, 0, nil)
				})
				if testing.Short() && kn.name == "go" {
					continue
				}
				// The same product cut into the smallest leaves the
				// recursion makes: every split kind and ragged half.
				t.Run(name+"/grain=1", func(t *testing.T) {
					a := randDense(rng, s.m, s.k)
					b := randDense(rng, s.k, s.n)
					var c mat.Dense
					mulAdd(&c, 1, a, b, 0, config{pool: p, kern: kn, grain: 1})
					checkProduct(t, &c, 1, a, b, 0, nil)
				})
			}
		}
	}
}

// TestMulTransposed multiplies every combination of plain, transposed,
// strided and non-dense operands.
func TestMulTransposed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	pools := testPools()
	defer closePools(pools)
	// view turns an r x c matrix into the kind of operand named.
	views := []struct {
		name string
		of   func(r, c int) mat.Matrix
	}{
		{"dense", func(r, c int) mat.Matrix { return randDense(rng, r, c) }},
		{"T", func(r, c int) mat.Matrix { return randDense(rng, c, r).T() }},
		{"strided", func(r, c int) mat.Matrix {
			return randDense(rng, r+3, c+5).Slice(2, r+2, 1, c+1)
		}},
		{"stridedT", func(r, c int) mat.Matrix {
			return randDense(rng, c+4, r+2).Slice(1, c+1, 2, r+2).T()
		}},
		{"TT", func(r, c int) mat.Matrix { return randDense(rng, r, c).T().T() }},
		{"generic", func(r, c int) mat.Matrix { return generic{randDense(rng, r, c)} }},
		{"genericT", func(r, c int) mat.Matrix { return generic{randDense(rng, c, r)}.T() }},
	}
	shapes := []shape{{1, 1, 1}, {3, 17, 3}, {17, 100, 3}, {100, 3, 257}, {257, 100, 17}, {70, 300, 90}}
	if testing.Short() {
		shapes = []shape{{1, 1, 1}, {17, 100, 3}, {70, 30, 90}}
	}
	for _, kn := range kernels() {
		for _, p := range pools {
			if testing.Short() && kn.name == "go" && p.Workers() != 2 {
				continue // covered by TestMul
			}
			for _, va := range views {
				for _, vb := range views {
					for _, s := range shapes {
						name := fmt.Sprintf("kernel=%s/p=%d/a=%s/b=%s/%dx%dx%d", kn.name, p.Workers(), va.name, vb.name, s.m, s.k, s.n)
						t.Run(name, func(t *testing.T) {
							a := va.of(s.m, s.k)
							b := vb.of(s.k, s.n)
							var c mat.Dense
							mulAdd(&c, 1, a, b, 0, config{pool: p, kern: kn})
							checkProduct(t, &c, 1, a, b, 0, nil)
						})
					}
				}
			}
		}
	}
}

// generic is a mat.Matrix that is not a *mat.Dense and has no RawMatrix,
// so Mul must copy it.
type generic struct{ d *mat.Dense }

func (g generic) Dims() (int, int)    { return g.d.Dims() }
func (g generic) At(i, j int) float64 { return g.d.At(i, j) }
func (g generic) T() mat.Matrix       { return mat.Transpose{Matrix: g} }

func TestMulAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, kn := range kernels() {
		for _, s := range []shape{{1, 1, 1}, {17, 3, 100}, {100, 257, 17}, {257, 100, 257}, {13, 1100, 9}} {
			for _, ab := range [][2]float64{{1, 0}, {1, 1}, {2.5, -0.5}, {-1, 3}, {0, 2}, {0, 0}, {0.5, 1}} {
				alpha, beta := ab[0], ab[1]
				name := fmt.Sprintf("kernel=%s/%dx%dx%d/alpha=%g/beta=%g", kn.name, s.m, s.k, s.n, alpha, beta)
				t.Run(name, func(t *testing.T) {
					a := randDense(rng, s.m, s.k)
					b := randDense(rng, s.k, s.n)
					c := randDense(rng, s.m, s.n)
					c0 := mat.DenseCopyOf(c)
					if beta == 0 {
						// beta == 0 must not read dst: NaNs stay out.
						c.Set(0, 0, math.NaN())
						c.Set(s.m-1, s.n-1, math.Inf(1))
					}
					mulAdd(c, alpha, a, b, beta, config{pool: core.Default(), kern: kn})
					checkProduct(t, c, alpha, a, b, beta, c0)
				})
				// Tiny leaves: beta must apply to the first k-step of
				// each block only.
				t.Run(name+"/grain=1", func(t *testing.T) {
					a := randDense(rng, s.m, s.k)
					b := randDense(rng, s.k, s.n)
					c := randDense(rng, s.m, s.n)
					c0 := mat.DenseCopyOf(c)
					pool := core.New(core.WithWorkers(2))
					defer pool.Close()
					mulAdd(c, alpha, a, b, beta, config{pool: pool, kern: kn, grain: 1})
					checkProduct(t, c, alpha, a, b, beta, c0)
				})
			}
		}
	}
	t.Run("public", func(t *testing.T) {
		a, b, c := randDense(rng, 30, 40), randDense(rng, 40, 50), randDense(rng, 30, 50)
		c0 := mat.DenseCopyOf(c)
		MulAdd(c, -2, a, b, 0.25)
		checkProduct(t, c, -2, a, b, 0.25, c0)
	})
	t.Run("empty dst", func(t *testing.T) {
		a, b := randDense(rng, 30, 40), randDense(rng, 40, 50)
		var c mat.Dense
		MulAdd(&c, 3, a, b, 7)
		checkProduct(t, &c, 3, a, b, 0, nil)
	})
}

func TestGemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	trans := []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}
	general := func(r, c, pad int) blas64.General {
		g := blas64.General{Rows: r, Cols: c, Stride: c + pad, Data: make([]float64, (r-1)*(c+pad)+c)}
		for i := range g.Data {
			g.Data[i] = rng.Float64()*2 - 1
		}
		return g
	}
	for _, tA := range trans {
		for _, tB := range trans {
			for _, s := range []shape{{1, 1, 1}, {3, 17, 100}, {100, 3, 17}, {257, 100, 3}, {64, 300, 70}} {
				for _, ab := range [][2]float64{{1, 0}, {-0.5, 2}} {
					name := fmt.Sprintf("%c%c/%dx%dx%d/alpha=%g/beta=%g", tA, tB, s.m, s.k, s.n, ab[0], ab[1])
					t.Run(name, func(t *testing.T) {
						ar, ac := s.m, s.k
						if tA != blas.NoTrans {
							ar, ac = ac, ar
						}
						br, bc := s.k, s.n
						if tB != blas.NoTrans {
							br, bc = bc, br
						}
						a, b, c := general(ar, ac, 2), general(br, bc, 0), general(s.m, s.n, 3)
						want := blas64.General{Rows: c.Rows, Cols: c.Cols, Stride: c.Stride, Data: append([]float64(nil), c.Data...)}
						blas64.Gemm(tA, tB, ab[0], a, b, ab[1], want)
						Gemm(tA, tB, ab[0], a, b, ab[1], c)
						var am, bm mat.Matrix = mat.NewDense(ar, ac, nil), mat.NewDense(br, bc, nil)
						am.(*mat.Dense).SetRawMatrix(a)
						bm.(*mat.Dense).SetRawMatrix(b)
						if tA != blas.NoTrans {
							am = am.T()
						}
						if tB != blas.NoTrans {
							bm = bm.T()
						}
						var got, exp mat.Dense
						got.SetRawMatrix(c)
						exp.SetRawMatrix(want)
						// Same check as Mul, with c0 recovered from the
						// exact blas64 reference: compare got to want with
						// the |alpha||a||b| + |beta||c0| bound.
						var bound mat.Dense
						bound.Mul(absDense(am), absDense(bm))
						eps := 0x1p-52
						for i := range s.m {
							for j := range s.n {
								tol := 8*float64(s.k+2)*eps*(math.Abs(ab[0])*bound.At(i, j)+math.Abs(ab[1])) + 1e-300
								if d := math.Abs(got.At(i, j) - exp.At(i, j)); !(d <= tol) {
									t.Fatalf("c(%d,%d) = %v, want %v", i, j, got.At(i, j), exp.At(i, j))
								}
							}
						}
						// Padding between rows of c is never written.
						for i := 0; i+1 < s.m; i++ {
							for j := s.n; j < c.Stride; j++ {
								if c.Data[i*c.Stride+j] != want.Data[i*c.Stride+j] {
									t.Fatalf("padding c.Data[%d] changed", i*c.Stride+j)
								}
							}
						}
					})
				}
			}
		}
	}
	t.Run("zero size", func(t *testing.T) {
		Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: 0, Cols: 3, Stride: 3},
			blas64.General{Rows: 3, Cols: 2, Stride: 2, Data: make([]float64, 6)}, 0,
			blas64.General{Rows: 0, Cols: 2, Stride: 2})
	})
	t.Run("k=0 scales c", func(t *testing.T) {
		c := blas64.General{Rows: 2, Cols: 2, Stride: 2, Data: []float64{1, 2, 3, math.NaN()}}
		Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: 2, Cols: 0, Stride: 1},
			blas64.General{Rows: 0, Cols: 2, Stride: 2}, 0, c)
		for _, v := range c.Data {
			if v != 0 {
				t.Fatalf("c = %v, want zeros", c.Data)
			}
		}
	})
}

// TestKernels runs each micro-kernel this CPU supports on one tile against
// the portable kernel, with every beta path: the tile kernels on an mr x nr
// tile, the wide ones on 2mr x 2nr (four portable tiles).
func TestKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, kn := range kernels() {
		for _, wide := range []bool{false, true} {
			if wide && kn.wide == nil {
				continue
			}
			rows, cols := mr, nr
			if wide {
				rows, cols = 2*mr, 2*nr
			}
			for _, k := range []int{1, 2, 3, 4, 5, 8, 13, 256} {
				for _, beta := range []float64{0, 1, -0.5} {
					a := make([]float64, k*rows)
					b := make([]float64, k*cols)
					for i := range a {
						a[i] = rng.Float64()
					}
					for i := range b {
						b[i] = rng.Float64()
					}
					ldc := cols + 3
					c := make([]float64, rows*ldc)
					for i := range c {
						c[i] = rng.Float64()
					}
					if beta == 0 {
						c[0] = math.NaN()
					}
					want := append([]float64(nil), c...)
					for i0 := 0; i0 < rows; i0 += mr {
						for j0 := 0; j0 < cols; j0 += nr {
							kernelGo(k, &a[i0*k], &b[j0*k], &want[i0*ldc+j0], ldc, 1.5, beta)
						}
					}
					if wide {
						kn.wide(k, &a[0], &b[0], &c[0], ldc, 1.5, beta)
					} else {
						kn.tile(k, &a[0], &b[0], &c[0], ldc, 1.5, beta)
					}
					for i := range rows {
						for j := range ldc {
							if d := math.Abs(c[i*ldc+j] - want[i*ldc+j]); !(d <= 1e-12*float64(k)) {
								t.Fatalf("kernel=%s wide=%v k=%d beta=%g: c(%d,%d) = %v, want %v", kn.name, wide, k, beta, i, j, c[i*ldc+j], want[i*ldc+j])
							}
						}
					}
				}
			}
		}
	}
}

func TestSplitPoint(t *testing.T) {
	for _, tc := range []struct{ x, unit, want int }{
		{12, 6, 6}, {13, 6, 6}, {7, 6, 6}, {256, 8, 128}, {17, 8, 8}, {20, 8, 16}, {2, 8, 1},
	} {
		if got := splitPoint(tc.x, tc.unit); got != tc.want {
			t.Errorf("splitPoint(%d, %d) = %d, want %d", tc.x, tc.unit, got, tc.want)
		}
	}
}

// TestBlockVolume checks the recursion's decisions on a product whose volume
// m*n*k does not fit a 32-bit int: it spreads, and it is not one leaf.
func TestBlockVolume(t *testing.T) {
	b := block{g: &gemm{grain: leafVolMax}, m: 2048, n: 2048, k: 2048, spread: 8}
	if got := b.volume(); got != 1<<33 {
		t.Errorf("volume of 2048^3 = %d, want 2^33", got)
	}
	if !b.spreads() {
		t.Error("a 2048^3 block meant for 8 tasks does not spread")
	}
	if b.volume() <= int64(b.g.grain) {
		t.Error("a 2048^3 block is taken as one leaf")
	}
}
