//go:build !purego

package linalg

import "golang.org/x/sys/cpu"

// kernelAVX2 is the micro-kernel in kernel_amd64.s: the 6x8 tile lives in
// twelve 4-wide registers and each k-step is two loads of b, six broadcasts
// of a and twelve fused multiply-adds.
//
//go:noescape
func kernelAVX2(k int, a, b, c *float64, ldc int, alpha, beta float64)

// kernelAVX512 is the wide micro-kernel in kernel_avx512_amd64.s: the 12x16
// tile lives in twenty-four 8-wide registers and each k-step is two loads
// of b, twelve broadcasts of a and twenty-four fused multiply-adds, twice
// the work per instruction of kernelAVX2.
//
//go:noescape
func kernelAVX512(k int, a, b, c *float64, ldc int, alpha, beta float64)

var (
	hasAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasAVX512  = hasAVX2FMA && cpu.X86.HasAVX512F
)

var (
	avx2   = microKernel{name: "avx2", tile: kernelAVX2}
	avx512 = microKernel{name: "avx512", tile: kernelAVX2, wide: kernelAVX512}
)

// bestKernel returns the fastest micro-kernels this CPU can run.
func bestKernel() microKernel {
	switch {
	case hasAVX512:
		return avx512
	case hasAVX2FMA:
		return avx2
	}
	return portable
}

// supportedKernels returns every kernel set this CPU can run, the portable
// one first.
func supportedKernels() []microKernel {
	ks := []microKernel{portable}
	if hasAVX2FMA {
		ks = append(ks, avx2)
	}
	if hasAVX512 {
		ks = append(ks, avx512)
	}
	return ks
}
