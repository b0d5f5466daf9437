package gofork_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/linalg"
	"gonum.org/v1/gonum/mat"
)

// linalgBenchShapes are the shapes of issue 5: squares, a tall-skinny outer
// product and a short-wide inner product.
var linalgBenchShapes = []struct {
	name    string
	m, k, n int
}{
	{"n=256", 256, 256, 256},
	{"n=512", 512, 512, 512},
	{"n=1024", 1024, 1024, 1024},
	{"n=2048", 2048, 2048, 2048},
	{"4096x64x4096", 4096, 64, 4096},
	{"64x4096x64", 64, 4096, 64},
}

func linalgBenchDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := make([]float64, r*c)
	for i := range d {
		d[i] = rng.Float64()*2 - 1
	}
	return mat.NewDense(r, c, d)
}

func linalgReportGFLOPS(b *testing.B, m, k, n int) {
	b.ReportMetric(2*float64(m)*float64(k)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkLinalgMul compares linalg.Mul on pools of 1 and 2 workers with
// gonum's (*mat.Dense).Mul, which is itself parallel (gonum), and with gonum
// held to one core by GOMAXPROCS=1 (serial). Figures are GFLOP/s; OpenBLAS
// reaches about 66 on one core and 131 on two of this machine kind.
//
// Medians of 5 on the 2-core Zen 4 (-benchtime 1s -count 5), from the
// quietest run on a machine shared with other benchmarks (the last row is
// from a later run, after 64x4096x64 learned to spread):
//
//	shape          serial  gonum   p=1   p=2   p=2/gonum  p=2/p=1
//	n=256             7.8   10.9  48.4  73.4      6.7x     1.52
//	n=512             7.8   11.9  49.7  85.7      7.2x     1.72
//	n=1024            7.6   13.5  47.5  92.1      6.8x     1.94
//	n=2048            6.9   14.2  48.8  96.2      6.8x     1.97
//	4096x64x4096      7.1   11.4  48.3  92.4      8.1x     1.91
//	64x4096x64        8.2    8.6  34.6  51.5      6.0x     1.49
func BenchmarkLinalgMul(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range linalgBenchShapes {
		x, y := linalgBenchDense(rng, s.m, s.k), linalgBenchDense(rng, s.k, s.n)
		dst := mat.NewDense(s.m, s.n, nil)
		b.Run(s.name+"/serial", func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			for b.Loop() {
				dst.Mul(x, y)
			}
			linalgReportGFLOPS(b, s.m, s.k, s.n)
		})
		b.Run(s.name+"/gonum", func(b *testing.B) {
			for b.Loop() {
				dst.Mul(x, y)
			}
			linalgReportGFLOPS(b, s.m, s.k, s.n)
		})
		for _, p := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/p=%d", s.name, p), func(b *testing.B) {
				pool := core.New(core.WithWorkers(p))
				defer pool.Close()
				for b.Loop() {
					linalg.Mul(dst, x, y, linalg.WithPool(pool))
				}
				linalgReportGFLOPS(b, s.m, s.k, s.n)
			})
		}
	}
}
