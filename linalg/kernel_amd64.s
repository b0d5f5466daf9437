//go:build !purego

#include "textflag.h"

// One k-step of the 6x8 micro-kernel: B row p is Y12:Y13, a[p*6+i] is
// broadcast into Y14/Y15 (alternating so the broadcasts can overlap), and
// row i of the tile accumulates in Y(2i):Y(2i+1).
#define STEP(aoff, boff) \
	VMOVUPD      boff(DI), Y12;      \
	VMOVUPD      boff+32(DI), Y13;   \
	VBROADCASTSD aoff(SI), Y14;      \
	VFMADD231PD  Y12, Y14, Y0;       \
	VFMADD231PD  Y13, Y14, Y1;       \
	VBROADCASTSD aoff+8(SI), Y15;    \
	VFMADD231PD  Y12, Y15, Y2;       \
	VFMADD231PD  Y13, Y15, Y3;       \
	VBROADCASTSD aoff+16(SI), Y14;   \
	VFMADD231PD  Y12, Y14, Y4;       \
	VFMADD231PD  Y13, Y14, Y5;       \
	VBROADCASTSD aoff+24(SI), Y15;   \
	VFMADD231PD  Y12, Y15, Y6;       \
	VFMADD231PD  Y13, Y15, Y7;       \
	VBROADCASTSD aoff+32(SI), Y14;   \
	VFMADD231PD  Y12, Y14, Y8;       \
	VFMADD231PD  Y13, Y14, Y9;       \
	VBROADCASTSD aoff+40(SI), Y15;   \
	VFMADD231PD  Y12, Y15, Y10;      \
	VFMADD231PD  Y13, Y15, Y11

// Row update with beta != 0: c = acc + beta*c (acc already scaled by alpha).
#define UPDATE(r0, r1) \
	VFMADD231PD (DX), Y13, r0;   \
	VFMADD231PD 32(DX), Y13, r1; \
	VMOVUPD     r0, (DX);        \
	VMOVUPD     r1, 32(DX);      \
	ADDQ        R8, DX

// Row store with beta == 0: c = acc.
#define STORE(r0, r1) \
	VMOVUPD r0, (DX);   \
	VMOVUPD r1, 32(DX); \
	ADDQ    R8, DX

// func kernelAVX2(k int, a, b, c *float64, ldc int, alpha, beta float64)
TEXT ·kernelAVX2(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8

	// Start pulling the tile of c into cache; it is needed only at the end.
	MOVQ DX, R10
	PREFETCHT0 (R10)
	PREFETCHT0 56(R10)
	ADDQ R8, R10
	PREFETCHT0 (R10)
	PREFETCHT0 56(R10)
	ADDQ R8, R10
	PREFETCHT0 (R10)
	PREFETCHT0 56(R10)
	ADDQ R8, R10
	PREFETCHT0 (R10)
	PREFETCHT0 56(R10)
	ADDQ R8, R10
	PREFETCHT0 (R10)
	PREFETCHT0 56(R10)
	ADDQ R8, R10
	PREFETCHT0 (R10)
	PREFETCHT0 56(R10)

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

	MOVQ CX, R9
	SHRQ $2, R9
	JZ   tail

loop4:
	// The a panel streams from L2; ask for it 8 k-steps ahead.
	PREFETCHT0 384(SI)
	PREFETCHT0 448(SI)
	PREFETCHT0 512(SI)
	STEP(0, 0)
	STEP(48, 64)
	STEP(96, 128)
	STEP(144, 192)
	ADDQ $192, SI
	ADDQ $256, DI
	DECQ R9
	JNZ  loop4

tail:
	ANDQ $3, CX
	JZ   done

loop1:
	STEP(0, 0)
	ADDQ $48, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop1

done:
	VBROADCASTSD alpha+40(FP), Y12
	VMULPD       Y12, Y0, Y0
	VMULPD       Y12, Y1, Y1
	VMULPD       Y12, Y2, Y2
	VMULPD       Y12, Y3, Y3
	VMULPD       Y12, Y4, Y4
	VMULPD       Y12, Y5, Y5
	VMULPD       Y12, Y6, Y6
	VMULPD       Y12, Y7, Y7
	VMULPD       Y12, Y8, Y8
	VMULPD       Y12, Y9, Y9
	VMULPD       Y12, Y10, Y10
	VMULPD       Y12, Y11, Y11

	// beta == 0 (and not NaN): overwrite c without reading it.
	VMOVSD    beta+48(FP), X13
	VXORPD    X14, X14, X14
	VUCOMISD  X14, X13
	JNE       general
	JP        general

	STORE(Y0, Y1)
	STORE(Y2, Y3)
	STORE(Y4, Y5)
	STORE(Y6, Y7)
	STORE(Y8, Y9)
	STORE(Y10, Y11)
	VZEROUPPER
	RET

general:
	VBROADCASTSD beta+48(FP), Y13
	UPDATE(Y0, Y1)
	UPDATE(Y2, Y3)
	UPDATE(Y4, Y5)
	UPDATE(Y6, Y7)
	UPDATE(Y8, Y9)
	UPDATE(Y10, Y11)
	VZEROUPPER
	RET
