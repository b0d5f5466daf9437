//go:build !purego

package linalg

import "golang.org/x/sys/cpu"

// kernelAVX2 is the micro-kernel in kernel_amd64.s: the 6x8 tile lives in
// twelve 4-wide registers and each k-step is two loads of b, six broadcasts
// of a and twelve fused multiply-adds.
//
//go:noescape
func kernelAVX2(k int, a, b, c *float64, ldc int, alpha, beta float64)

var hasAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// bestKernel returns the fastest micro-kernel this CPU can run.
func bestKernel() kernel {
	if hasAVX2FMA {
		return kernelAVX2
	}
	return kernelGo
}
