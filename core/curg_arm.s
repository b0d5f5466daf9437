#include "textflag.h"

// func curg() uintptr
//
// Returns the address of the calling goroutine's runtime g structure, kept
// in the g register (R10) on arm; see curg.go.
TEXT ·curg(SB), NOSPLIT, $0-4
	MOVW g, R0
	MOVW R0, ret+0(FP)
	RET
