package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkKernel measures a micro-kernel alone on panels that sit in L1:
// the ceiling for everything above it.
func BenchmarkKernel(b *testing.B) {
	for _, kn := range kernels() {
		for _, k := range []int{64, 256} {
			b.Run(fmt.Sprintf("kernel=%s/k=%d", kn.name, k), func(b *testing.B) {
				rows, cols, kern := mr, nr, kn.tile
				if kn.wide != nil {
					rows, cols, kern = 2*mr, 2*nr, kn.wide
				}
				a := aligned(nil, k*rows)
				bp := aligned(nil, k*cols)
				for i := range a {
					a[i] = 1
				}
				for i := range bp {
					bp[i] = 1
				}
				c := make([]float64, rows*cols)
				for b.Loop() {
					kern(k, &a[0], &bp[0], &c[0], cols, 1, 1)
				}
				b.ReportMetric(float64(2*rows*cols*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// BenchmarkLeaf measures one serial leaf (packing included) at the sizes
// the recursion can stop at; it decides leafVolMax and leafVolMin.
func BenchmarkLeaf(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, kn := range kernels() {
		for _, s := range []shape{{64, 64, 64}, {96, 128, 96}, {128, 128, 128}, {128, 256, 128}, {128, 256, 256}, {256, 256, 256}, {256, 256, 512}, {512, 256, 512}, {512, 512, 512}, {1024, 256, 1024}} {
			b.Run(fmt.Sprintf("kernel=%s/%dx%dx%d", kn.name, s.m, s.k, s.n), func(b *testing.B) {
				x, y := randDense(rng, s.m, s.k), randDense(rng, s.k, s.n)
				ao, _, _ := operandOf("linalg", "a", x)
				bo, _, _ := operandOf("linalg", "b", y)
				c := make([]float64, s.m*s.n)
				g := &gemm{a: ao, b: bo, c: c, ldc: s.n, alpha: 1, kern: kn, grain: math.MaxInt}
				for b.Loop() {
					leaf(nil, block{g: g, m: s.m, n: s.n, k: s.k, first: true})
				}
				b.ReportMetric(float64(2*s.m*s.n*s.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// BenchmarkPack measures packing a kc x kc block out of a 1024-wide matrix
// (ns per element packed).
func BenchmarkPack(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randDense(rng, 1024, 1024)
	for _, trans := range []bool{false, true} {
		op, _, _ := operandOf("linalg", "x", x)
		op.trans = trans
		dst := aligned(nil, (kc+mr)*kc)
		b.Run(fmt.Sprintf("A/trans=%v", trans), func(b *testing.B) {
			i := 0
			for b.Loop() {
				packA(dst, op, i%3*kc, kc, i%4*kc, kc)
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(kc*kc), "ns/elem")
		})
		b.Run(fmt.Sprintf("B/trans=%v", trans), func(b *testing.B) {
			i := 0
			for b.Loop() {
				packB(dst, op, i%3*kc, kc, i%4*kc, kc)
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(kc*kc), "ns/elem")
		})
	}
}
