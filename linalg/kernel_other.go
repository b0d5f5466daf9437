//go:build !amd64 || purego

package linalg

// bestKernel returns the portable micro-kernel: this build has no assembly.
func bestKernel() microKernel { return portable }

// supportedKernels returns the one kernel set of this build.
func supportedKernels() []microKernel { return []microKernel{portable} }
