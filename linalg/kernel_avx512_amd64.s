//go:build !purego

#include "textflag.h"

// One k-step of the 12x16 micro-kernel. Rows 0-5 of the tile come from the
// a panel at SI, rows 6-11 from the next a panel at R11; columns 0-7 from
// the b panel at DI, columns 8-15 from the next b panel at R12. Row i of the
// tile accumulates in Z(2i) (columns 0-7) and Z(2i+1) (columns 8-15); the
// row of b is in Z24:Z25 and the broadcasts of a rotate through Z26-Z29 so
// that consecutive broadcasts do not wait on each other.
#define ROW(src, t, r0, r1) \
	VBROADCASTSD src, t;    \
	VFMADD231PD  Z24, t, r0; \
	VFMADD231PD  Z25, t, r1

#define STEP(aoff, boff) \
	VMOVUPD boff(DI), Z24;  \
	VMOVUPD boff(R12), Z25; \
	ROW(aoff+0(SI), Z26, Z0, Z1); \
	ROW(aoff+8(SI), Z27, Z2, Z3); \
	ROW(aoff+16(SI), Z28, Z4, Z5); \
	ROW(aoff+24(SI), Z29, Z6, Z7); \
	ROW(aoff+32(SI), Z26, Z8, Z9); \
	ROW(aoff+40(SI), Z27, Z10, Z11); \
	ROW(aoff+0(R11), Z28, Z12, Z13); \
	ROW(aoff+8(R11), Z29, Z14, Z15); \
	ROW(aoff+16(R11), Z26, Z16, Z17); \
	ROW(aoff+24(R11), Z27, Z18, Z19); \
	ROW(aoff+32(R11), Z28, Z20, Z21); \
	ROW(aoff+40(R11), Z29, Z22, Z23)

// Row update with beta != 0: c = acc + beta*c (acc already scaled by alpha).
#define UPDATE(r0, r1) \
	VFMADD231PD (DX), Z25, r0;   \
	VFMADD231PD 64(DX), Z25, r1; \
	VMOVUPD     r0, (DX);        \
	VMOVUPD     r1, 64(DX);      \
	ADDQ        R8, DX

// Row store with beta == 0: c = acc.
#define STORE(r0, r1) \
	VMOVUPD r0, (DX);   \
	VMOVUPD r1, 64(DX); \
	ADDQ    R8, DX

// Prefetch the two cache lines of the next row of c.
#define PREFETCHROW \
	PREFETCHT0 (R10);    \
	PREFETCHT0 120(R10); \
	ADDQ       R8, R10

// Scale two accumulators by alpha (in Z24).
#define SCALE(r0, r1) \
	VMULPD Z24, r0, r0; \
	VMULPD Z24, r1, r1

// func kernelAVX512(k int, a, b, c *float64, ldc int, alpha, beta float64)
TEXT ·kernelAVX512(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8

	// The second a panel starts mr*k = 6k elements after the first, the
	// second b panel nr*k = 8k after the first.
	MOVQ  CX, R11
	IMULQ $48, R11
	ADDQ  SI, R11
	MOVQ  CX, R12
	SHLQ  $6, R12
	ADDQ  DI, R12

	// Start pulling the tile of c into cache; it is needed only at the end.
	MOVQ DX, R10
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW
	PREFETCHROW

	VPXORQ Z0, Z0, Z0; VPXORQ Z1, Z1, Z1; VPXORQ Z2, Z2, Z2; VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4; VPXORQ Z5, Z5, Z5; VPXORQ Z6, Z6, Z6; VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8; VPXORQ Z9, Z9, Z9; VPXORQ Z10, Z10, Z10; VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12; VPXORQ Z13, Z13, Z13; VPXORQ Z14, Z14, Z14; VPXORQ Z15, Z15, Z15
	VPXORQ Z16, Z16, Z16; VPXORQ Z17, Z17, Z17; VPXORQ Z18, Z18, Z18; VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20; VPXORQ Z21, Z21, Z21; VPXORQ Z22, Z22, Z22; VPXORQ Z23, Z23, Z23

	MOVQ CX, R9
	SHRQ $2, R9
	JZ   tail

loop4:
	// The a panels stream from L2; ask for them 8 k-steps ahead.
	PREFETCHT0 384(SI)
	PREFETCHT0 448(SI)
	PREFETCHT0 512(SI)
	PREFETCHT0 384(R11)
	PREFETCHT0 448(R11)
	PREFETCHT0 512(R11)
	STEP(0, 0)
	STEP(48, 64)
	STEP(96, 128)
	STEP(144, 192)
	ADDQ $192, SI
	ADDQ $192, R11
	ADDQ $256, DI
	ADDQ $256, R12
	DECQ R9
	JNZ  loop4

tail:
	ANDQ $3, CX
	JZ   done

loop1:
	STEP(0, 0)
	ADDQ $48, SI
	ADDQ $48, R11
	ADDQ $64, DI
	ADDQ $64, R12
	DECQ CX
	JNZ  loop1

done:
	VBROADCASTSD alpha+40(FP), Z24
	SCALE(Z0, Z1)
	SCALE(Z2, Z3)
	SCALE(Z4, Z5)
	SCALE(Z6, Z7)
	SCALE(Z8, Z9)
	SCALE(Z10, Z11)
	SCALE(Z12, Z13)
	SCALE(Z14, Z15)
	SCALE(Z16, Z17)
	SCALE(Z18, Z19)
	SCALE(Z20, Z21)
	SCALE(Z22, Z23)

	// beta == 0 (and not NaN): overwrite c without reading it.
	VMOVSD   beta+48(FP), X25
	VXORPD   X26, X26, X26
	VUCOMISD X26, X25
	JNE      general
	JP       general

	STORE(Z0, Z1)
	STORE(Z2, Z3)
	STORE(Z4, Z5)
	STORE(Z6, Z7)
	STORE(Z8, Z9)
	STORE(Z10, Z11)
	STORE(Z12, Z13)
	STORE(Z14, Z15)
	STORE(Z16, Z17)
	STORE(Z18, Z19)
	STORE(Z20, Z21)
	STORE(Z22, Z23)
	VZEROUPPER
	RET

general:
	VBROADCASTSD beta+48(FP), Z25
	UPDATE(Z0, Z1)
	UPDATE(Z2, Z3)
	UPDATE(Z4, Z5)
	UPDATE(Z6, Z7)
	UPDATE(Z8, Z9)
	UPDATE(Z10, Z11)
	UPDATE(Z12, Z13)
	UPDATE(Z14, Z15)
	UPDATE(Z16, Z17)
	UPDATE(Z18, Z19)
	UPDATE(Z20, Z21)
	UPDATE(Z22, Z23)
	VZEROUPPER
	RET
