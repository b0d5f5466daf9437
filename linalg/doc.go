// Package linalg multiplies gonum matrices in parallel on the gofork
// fork-join runtime.
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
// 6x8 block of the destination in registers. On amd64 with AVX2 and FMA the
// micro-kernel is written in assembly; elsewhere, and under the purego build
// tag, a pure-Go kernel with the same packing is used.
//
// # Glossary
//
//   - m, n, k: the product is m x k times k x n into m x n.
//   - leaf: a block small enough to run serially.
//   - panel: a packed strip of a (mr rows) or b (nr columns), k deep.
//   - micro-kernel: the innermost routine, an mr x nr block of the destination
//     updated from one a panel and one b panel.
//
// Floating-point results differ from gonum's in the last bits, because the
// sums are taken in a different order; the error bound is the usual
// k·eps·|a||b| of any dot-product-based multiply.
package linalg
