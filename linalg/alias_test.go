package linalg

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

func TestMulAlias(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, p := range []int{1, 2} {
		pool := core.New(core.WithWorkers(p))
		for _, n := range []int{3, 17, 100, 257} {
			cases := []struct {
				name string
				run  func() (got *mat.Dense, a, b mat.Matrix)
			}{
				{"dst=a", func() (*mat.Dense, mat.Matrix, mat.Matrix) {
					a, b := randDense(rng, n, n), randDense(rng, n, n)
					a0 := mat.DenseCopyOf(a)
					Mul(a, a, b, par.WithPool(pool))
					return a, a0, b
				}},
				{"dst=b", func() (*mat.Dense, mat.Matrix, mat.Matrix) {
					a, b := randDense(rng, n, n), randDense(rng, n, n)
					b0 := mat.DenseCopyOf(b)
					Mul(b, a, b, par.WithPool(pool))
					return b, a, b0
				}},
				{"dst=a=b", func() (*mat.Dense, mat.Matrix, mat.Matrix) {
					a := randDense(rng, n, n)
					a0 := mat.DenseCopyOf(a)
					Mul(a, a, a, par.WithPool(pool))
					return a, a0, a0
				}},
				{"dst=aT", func() (*mat.Dense, mat.Matrix, mat.Matrix) {
					a, b := randDense(rng, n, n), randDense(rng, n, n)
					a0 := mat.DenseCopyOf(a)
					Mul(a, a.T(), b, par.WithPool(pool))
					return a, a0.T(), b
				}},
				{"dst=bT", func() (*mat.Dense, mat.Matrix, mat.Matrix) {
					a, b := randDense(rng, n, n), randDense(rng, n, n)
					b0 := mat.DenseCopyOf(b)
					Mul(b, a, b.T(), par.WithPool(pool))
					return b, a, b0.T()
				}},
				{"dst overlaps a", func() (*mat.Dense, mat.Matrix, mat.Matrix) {
					// dst and a are different views of one backing array.
					big := randDense(rng, n+1, n+1)
					a := big.Slice(0, n, 0, n).(*mat.Dense)
					dst := big.Slice(1, n+1, 1, n+1).(*mat.Dense)
					b := randDense(rng, n, n)
					a0 := mat.DenseCopyOf(a)
					Mul(dst, a, b, par.WithPool(pool))
					return dst, a0, b
				}},
			}
			for _, tc := range cases {
				t.Run(fmt.Sprintf("p=%d/n=%d/%s", p, n, tc.name), func(t *testing.T) {
					got, a, b := tc.run()
					checkProduct(t, got, 1, a, b, 0, nil)
				})
			}
		}
		t.Run(fmt.Sprintf("p=%d/muladd dst=a", p), func(t *testing.T) {
			a, b := randDense(rng, 40, 40), randDense(rng, 40, 40)
			a0 := mat.DenseCopyOf(a)
			MulAdd(a, 2, a, b, -1)
			checkProduct(t, a, 2, a0, b, -1, a0)
		})
		pool.Close()
	}
}

// TestMulConcurrent runs several multiplies at once on one pool and on the
// Default pool: packing buffers and blocks must not be shared between them.
func TestMulConcurrent(t *testing.T) {
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()
	const callers = 4
	type job struct {
		a, b *mat.Dense
		c    mat.Dense
	}
	jobs := make([]*job, callers)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range jobs {
		jobs[i] = &job{a: randDense(rng, 70+i, 90), b: randDense(rng, 90, 50+3*i)}
	}
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := config{pool: core.Default(), kern: bestKernel(), grain: 1}
			if i%2 == 0 {
				cfg.pool = pool
			}
			mulAdd(&j.c, 1, j.a, j.b, 0, cfg)
		}()
	}
	wg.Wait()
	for _, j := range jobs {
		checkProduct(t, &j.c, 1, j.a, j.b, 0, nil)
	}
}
