//go:build !purego

#include "textflag.h"

// The SHA-1 initial value as the SHA-NI instructions want it: A in the
// highest lane of ABCD, E in the highest lane of its own register.
DATA ivABCD<>+0x00(SB)/4, $0x10325476
DATA ivABCD<>+0x04(SB)/4, $0x98badcfe
DATA ivABCD<>+0x08(SB)/4, $0xefcdab89
DATA ivABCD<>+0x0c(SB)/4, $0x67452301
GLOBL ivABCD<>(SB), RODATA|NOPTR, $16

DATA ivE<>+0x00(SB)/4, $0
DATA ivE<>+0x04(SB)/4, $0
DATA ivE<>+0x08(SB)/4, $0
DATA ivE<>+0x0c(SB)/4, $0xc3d2e1f0
GLOBL ivE<>(SB), RODATA|NOPTR, $16

// func spawnSHANI(p *state, i uint32, out *state)
//
// One SHA-1 block over the 24-byte message p ‖ be32(i), padded: the message
// words are w0..w4 = p[0..4], w5 = i, w6 = 0x80000000, w7..w14 = 0,
// w15 = 192. The round structure is the standard one for the SHA
// extensions (Intel, "New Instructions Supporting the Secure Hash
// Algorithm on Intel Architecture Processors", 2013).
//
// Registers: X0 = ABCD, X1 = E0, X2 = E1, X3..X6 = MSG0..MSG3,
// X7 = ABCD save, X8 = E save.
TEXT ·spawnSHANI(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVL i+8(FP), AX
	MOVQ out+16(FP), DI

	MOVOU ivABCD<>(SB), X0
	MOVOU ivE<>(SB), X1
	MOVO  X0, X7
	MOVO  X1, X8

	// MSG0 = (w0, w1, w2, w3) with w0 in the highest lane.
	MOVOU   (SI), X3
	PSHUFD  $0x1b, X3, X3
	// MSG1 = (w4, w5, w6, w7): lane 3 = p[4], lane 2 = i, lane 1 = 0x80000000, lane 0 = 0.
	MOVL    16(SI), BX
	SHLQ    $32, BX
	ORQ     AX, BX
	MOVQ    $0x8000000000000000, CX
	MOVQ    CX, X4
	PINSRQ  $1, BX, X4
	// MSG2 = (w8..w11) = 0.
	PXOR    X5, X5
	// MSG3 = (w12..w15): lane 0 = 192.
	MOVQ    $192, CX
	MOVQ    CX, X6

	// Rounds 0-3
	PADDL     X3, X1
	MOVO      X0, X2
	SHA1RNDS4 $0, X1, X0

	// Rounds 4-7
	SHA1NEXTE X4, X2
	MOVO      X0, X1
	SHA1RNDS4 $0, X2, X0
	SHA1MSG1  X4, X3

	// Rounds 8-11
	SHA1NEXTE X5, X1
	MOVO      X0, X2
	SHA1RNDS4 $0, X1, X0
	SHA1MSG1  X5, X4
	PXOR      X5, X3

	// Rounds 12-15
	SHA1NEXTE X6, X2
	MOVO      X0, X1
	SHA1MSG2  X6, X3
	SHA1RNDS4 $0, X2, X0
	SHA1MSG1  X6, X5
	PXOR      X6, X4

	// Rounds 16-19
	SHA1NEXTE X3, X1
	MOVO      X0, X2
	SHA1MSG2  X3, X4
	SHA1RNDS4 $0, X1, X0
	SHA1MSG1  X3, X6
	PXOR      X3, X5

	// Rounds 20-23
	SHA1NEXTE X4, X2
	MOVO      X0, X1
	SHA1MSG2  X4, X5
	SHA1RNDS4 $1, X2, X0
	SHA1MSG1  X4, X3
	PXOR      X4, X6

	// Rounds 24-27
	SHA1NEXTE X5, X1
	MOVO      X0, X2
	SHA1MSG2  X5, X6
	SHA1RNDS4 $1, X1, X0
	SHA1MSG1  X5, X4
	PXOR      X5, X3

	// Rounds 28-31
	SHA1NEXTE X6, X2
	MOVO      X0, X1
	SHA1MSG2  X6, X3
	SHA1RNDS4 $1, X2, X0
	SHA1MSG1  X6, X5
	PXOR      X6, X4

	// Rounds 32-35
	SHA1NEXTE X3, X1
	MOVO      X0, X2
	SHA1MSG2  X3, X4
	SHA1RNDS4 $1, X1, X0
	SHA1MSG1  X3, X6
	PXOR      X3, X5

	// Rounds 36-39
	SHA1NEXTE X4, X2
	MOVO      X0, X1
	SHA1MSG2  X4, X5
	SHA1RNDS4 $1, X2, X0
	SHA1MSG1  X4, X3
	PXOR      X4, X6

	// Rounds 40-43
	SHA1NEXTE X5, X1
	MOVO      X0, X2
	SHA1MSG2  X5, X6
	SHA1RNDS4 $2, X1, X0
	SHA1MSG1  X5, X4
	PXOR      X5, X3

	// Rounds 44-47
	SHA1NEXTE X6, X2
	MOVO      X0, X1
	SHA1MSG2  X6, X3
	SHA1RNDS4 $2, X2, X0
	SHA1MSG1  X6, X5
	PXOR      X6, X4

	// Rounds 48-51
	SHA1NEXTE X3, X1
	MOVO      X0, X2
	SHA1MSG2  X3, X4
	SHA1RNDS4 $2, X1, X0
	SHA1MSG1  X3, X6
	PXOR      X3, X5

	// Rounds 52-55
	SHA1NEXTE X4, X2
	MOVO      X0, X1
	SHA1MSG2  X4, X5
	SHA1RNDS4 $2, X2, X0
	SHA1MSG1  X4, X3
	PXOR      X4, X6

	// Rounds 56-59
	SHA1NEXTE X5, X1
	MOVO      X0, X2
	SHA1MSG2  X5, X6
	SHA1RNDS4 $2, X1, X0
	SHA1MSG1  X5, X4
	PXOR      X5, X3

	// Rounds 60-63
	SHA1NEXTE X6, X2
	MOVO      X0, X1
	SHA1MSG2  X6, X3
	SHA1RNDS4 $3, X2, X0
	SHA1MSG1  X6, X5
	PXOR      X6, X4

	// Rounds 64-67
	SHA1NEXTE X3, X1
	MOVO      X0, X2
	SHA1MSG2  X3, X4
	SHA1RNDS4 $3, X1, X0
	SHA1MSG1  X3, X6
	PXOR      X3, X5

	// Rounds 68-71
	SHA1NEXTE X4, X2
	MOVO      X0, X1
	SHA1MSG2  X4, X5
	SHA1RNDS4 $3, X2, X0
	PXOR      X4, X6

	// Rounds 72-75
	SHA1NEXTE X5, X1
	MOVO      X0, X2
	SHA1MSG2  X5, X6
	SHA1RNDS4 $3, X1, X0

	// Rounds 76-79
	SHA1NEXTE X6, X2
	MOVO      X0, X1
	SHA1RNDS4 $3, X2, X0

	// Add the initial value back and store in digest word order.
	SHA1NEXTE X8, X1
	PADDL     X7, X0
	PSHUFD    $0x1b, X0, X0
	MOVOU     X0, (DI)
	PEXTRD    $3, X1, AX
	MOVL      AX, 16(DI)
	RET

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET
