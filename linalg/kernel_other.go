//go:build !amd64 || purego

package linalg

// bestKernel returns the portable micro-kernel: this build has no assembly.
func bestKernel() kernel { return kernelGo }
