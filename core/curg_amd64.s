#include "textflag.h"

// func curg() uintptr
//
// Returns the address of the calling goroutine's runtime g structure, read
// from thread-local storage. The g structure of a live goroutine never moves
// (only its stack does), so the address identifies the goroutine for as long
// as it runs; see curg.go.
TEXT ·curg(SB), NOSPLIT, $0-8
	MOVQ (TLS), AX
	MOVQ AX, ret+0(FP)
	RET
