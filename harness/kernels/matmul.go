package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/linalg"
	"github.com/gofork/gofork/par"
)

// matmul: C = A·B for dense n×n float64 matrices with linalg.Mul against
// gonum's (*mat.Dense).Mul. The serial program is gonum at GOMAXPROCS=1, so
// the speedup includes linalg's faster kernel and T1/Ts < 1 is expected.
// The paper uses n=8192; n=1024 is ~0.3 s in serial gonum.
const (
	matmulN      = 1024
	matmulNQuick = 512
	matmulChecks = 64 // entries of C recomputed as dot products to verify
)

func init() {
	add(&Kernel{
		Name:  "matmul",
		Suite: SuiteMain,
		Order: 40,
		Note:  "Ts is gonum on one core, so speedups include linalg's faster kernel (T1/Ts < 1)",
		About: "dense matrix multiply, cache-oblivious linalg.Mul; serial: gonum on one core; baseline: gonum Mul (a goroutine per tile)",
		Size: func(q Scale) string {
			n := pick(q, matmulN, matmulNQuick)
			return fmt.Sprintf("%dx%d float64", n, n)
		},
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "gonum Mul",
		Cutoff:   "each library's own: linalg.Mul's leaf blocks, gonum's blocks",
		Setup:    setupMatmul,
	})
}

// RandomDense returns an r×c matrix of values drawn uniformly from [-1, 1).
func RandomDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := make([]float64, r*c)
	for i := range d {
		d[i] = rng.Float64()*2 - 1
	}
	return mat.NewDense(r, c, d)
}

func setupMatmul(variant string, p int, quick Scale) (*Job, error) {
	n := pick(quick, matmulN, matmulNQuick)
	rng := rand.New(rand.NewPCG(1, 1))
	a, b := RandomDense(rng, n, n), RandomDense(rng, n, n)
	c := mat.NewDense(n, n, nil)
	j := &Job{
		Reset: func() { c.Zero() },
		Verify: func() error {
			r := rand.New(rand.NewPCG(2, 2))
			for range matmulChecks {
				i, k := r.IntN(n), r.IntN(n)
				want := 0.0
				for t := range n {
					want += a.At(i, t) * b.At(t, k)
				}
				if got := c.At(i, k); math.Abs(got-want) > 1e-12*float64(n) {
					return fmt.Errorf("matmul: C[%d][%d] = %v, want %v", i, k, got, want)
				}
			}
			return nil
		},
	}
	switch variant {
	case Serial, Baseline: // the child runs with GOMAXPROCS=P (1 for serial)
		j.Run = func() { c.Mul(a, b) }
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		j.Run = func() { linalg.Mul(c, a, b, par.WithPool(pool)) }
		j.Close = pool.Close
		j.Pool = pool
	default:
		return nil, fmt.Errorf("matmul: no variant %q", variant)
	}
	return j, nil
}
