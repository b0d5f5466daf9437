// Package linalg multiplies gonum matrices in parallel on the gofork
// fork-join runtime, and is a BLAS for gonum whose Level 3 runs the same
// way.
//
// # Overview
//
// Mul is a drop-in replacement for (*mat.Dense).Mul, MulAdd adds the
// product to a scaled destination, and Gemm is the BLAS-style entry point on
// blas64.General values:
//
//	var c mat.Dense
//	linalg.Mul(&c, a, b)                      // c = a*b
//	linalg.Mul(&c, a.T(), b, par.WithPool(p)) // transposed views are free
//	linalg.MulAdd(&c, 2, a, b, 0.5)           // c = 2*a*b + 0.5*c
//
// Each takes one option, par.WithPool; without it a call runs on the pool
// of the task that makes it, or on core.Default().
//
// The contract is gonum's: an empty destination is sized, a destination of
// the wrong shape or operands whose inner dimensions disagree panic with
// mat.ErrShape before anything is written, and a destination that shares
// memory with an operand gets the right answer (the operand is copied first).
//
// # BLAS
//
// BLAS implements gonum's blas.Float64. One line makes every gonum program
// that goes through blas64 (mat.Dense.Mul, mat.Cholesky, mat.LU, mat.QR,
// the lapack routines) use it:
//
//	blas64.Use(linalg.BLAS{})
//
// Its Level 3 routines, Dgemm, Dsymm, Dsyrk, Dsyr2k, Dtrmm and Dtrsm, run as
// fork-join tasks on the pool of the calling task or on core.Default().
// Ddot, Dscal and Dasum on strided vectors, Daxpy on vectors whose
// elements collide in the caches, and Idamax on contiguous ones run serial
// loops whose loads overlap, for the columns of row-major matrices that
// lapack's condition estimates and LU panel walk. The rest of
// Level 1 and Level 2 is gonum's. Arguments are checked as gonum checks
// them and bad ones panic with gonum's own messages. blas64.Use is global
// to the process: install BLAS once, before the goroutines that use gonum
// start.
//
// # Algorithm
//
// The product is computed by recursive cache-oblivious splitting (Frigo,
// Leiserson, Prokop and Ramachandran, "Cache-oblivious algorithms", FOCS
// 1999): the largest of m, n and k is halved. Halving m or n gives two
// independent blocks of the destination, which run as a core.Join; halving k
// gives two updates of the same block, which run one after the other, so no
// block of the destination is ever written by two tasks at once and no locks
// are needed.
//
// The recursion stops at a leaf block, which runs serially in the style of
// BLIS (Van Zee and van de Geijn, "BLIS: A Framework for Rapidly Instantiating
// BLAS Functionality", TOMS 2015): panels of a and b are packed into
// contiguous per-worker buffers and a register-blocked micro-kernel keeps a
// block of the destination in registers. The micro-kernel is chosen when
// the program starts, from what the CPU reports: on amd64 with AVX-512F a
// 12x16 block in 8-wide registers, with AVX2 and FMA a 6x8 block in 4-wide
// ones, both in assembly; elsewhere, and under the purego build tag, a
// pure-Go kernel with the same packing. GODEBUG=cpu.avx512f=off (or
// cpu.avx2=off) holds a program to the smaller kernels.
//
// BLAS's other Level 3 routines recurse in the same way on their triangular
// or symmetric matrix (Elmroth, Gustavson, Jonsson and Kågström, "Recursive
// blocked algorithms and hybrid data structures for dense matrix library
// software", SIAM Review 2004). Halving its order leaves two diagonal blocks,
// smaller problems of the same kind, and a rectangle beside them whose part
// of the work is a multiply. Dsyrk, Dsyr2k and Dsymm run the independent
// parts as a Join; Dtrsm and Dtrmm cut B into strips of columns (or rows)
// that run in parallel, and within a strip solve or multiply one diagonal
// block after the other, as the data dependencies require. Small diagonal
// blocks are solved or multiplied by gonum's serial code (Dtrsm, Dtrmm) or
// computed as full squares by the multiply (Dsyrk, Dsyr2k, Dsymm).
//
// # Glossary
//
//   - m, n, k: the product is m x k times k x n into m x n.
//   - leaf: a block small enough to run serially.
//   - panel: a packed strip of a (mr rows) or b (nr columns), k deep.
//   - micro-kernel: the innermost routine, an mr x nr block of the destination
//     updated from one a panel and one b panel.
//
// Floating-point results, of Mul and of BLAS, differ from gonum's in the
// last bits, because the
// sums are taken in a different order; the error bound is the usual
// k·eps·|a||b| of any dot-product-based multiply.
package linalg
