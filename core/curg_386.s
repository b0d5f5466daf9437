#include "textflag.h"

// func curg() uintptr
//
// Returns the address of the calling goroutine's runtime g structure, read
// from thread-local storage as in curg_amd64.s (the assembler turns (TLS)
// into this platform's TLS access); see curg.go.
TEXT ·curg(SB), NOSPLIT, $0-4
	MOVL (TLS), AX
	MOVL AX, ret+0(FP)
	RET
