package linalg

import "unsafe"

// microKernel is the set of micro-kernels one multiply runs with: tile
// computes one mr x nr block of dst, and wide, where the CPU has one,
// computes a 2mr x 2nr block from two consecutive a panels (the second mr*k
// elements after the first) and two consecutive b panels (the second nr*k
// after the first), with tile's contract. Both read the same packed layout,
// so the packing does not depend on the kernel.
type microKernel struct {
	name string
	tile kernel
	wide kernel
}

// portable is the pure-Go kernel set: every port and the purego tag run it.
var portable = microKernel{name: "go", tile: kernelGo}

// kernelGo is the portable micro-kernel. It walks the 6x8 tile as six 2x4
// blocks, each a pass over the panels with 8 scalar accumulators (2 loads of
// a and 4 of b per 8 multiply-adds). Measured against 3x4 and 2x2 blocks and
// a row-axpy form, 2x4 was fastest: Go's compiler issues all the multiplies
// of a loop body before the adds, so bigger blocks spill to the stack and
// smaller ones pay more loop overhead.
func kernelGo(k int, a, b, c *float64, ldc int, alpha, beta float64) {
	ap := unsafe.Slice(a, k*mr)
	bp := unsafe.Slice(b, k*nr)
	cs := unsafe.Slice(c, (mr-1)*ldc+nr)
	for i0 := 0; i0 < mr; i0 += 2 {
		for j0 := 0; j0 < nr; j0 += 4 {
			var c00, c01, c02, c03 float64
			var c10, c11, c12, c13 float64
			for p := range k {
				av := ap[p*mr+i0 : p*mr+i0+2 : p*mr+i0+2]
				bv := bp[p*nr+j0 : p*nr+j0+4 : p*nr+j0+4]
				a0, a1 := av[0], av[1]
				b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
				c00 += a0 * b0
				c01 += a0 * b1
				c02 += a0 * b2
				c03 += a0 * b3
				c10 += a1 * b0
				c11 += a1 * b1
				c12 += a1 * b2
				c13 += a1 * b3
			}
			storeRow(cs[(i0+0)*ldc+j0:][:4], alpha, beta, c00, c01, c02, c03)
			storeRow(cs[(i0+1)*ldc+j0:][:4], alpha, beta, c10, c11, c12, c13)
		}
	}
}

// storeRow sets dst = alpha*v + beta*dst, not reading dst when beta is 0.
func storeRow(dst []float64, alpha, beta, v0, v1, v2, v3 float64) {
	dst = dst[:4]
	if beta == 0 {
		dst[0], dst[1], dst[2], dst[3] = alpha*v0, alpha*v1, alpha*v2, alpha*v3
		return
	}
	dst[0] = alpha*v0 + beta*dst[0]
	dst[1] = alpha*v1 + beta*dst[1]
	dst[2] = alpha*v2 + beta*dst[2]
	dst[3] = alpha*v3 + beta*dst[3]
}
