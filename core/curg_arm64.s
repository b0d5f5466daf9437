#include "textflag.h"

// func curg() uintptr
//
// Returns the address of the calling goroutine's runtime g structure, kept
// in the g register (R28) on arm64; see curg.go.
TEXT ·curg(SB), NOSPLIT, $0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
