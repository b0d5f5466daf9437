//go:build !amd64 && !arm64

package core

import (
	"runtime"
	"strconv"
)

// curg returns the calling goroutine's id, read from the header line of
// runtime.Stack ("goroutine 42 [running]:"). It is the portable fallback for
// the one-instruction versions in curg_amd64.s and curg_arm64.s: ids are never
// reused, so they identify a goroutine as well as its g address does, at a
// cost of about a microsecond per Run.
func curg() uintptr {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	b := buf[len("goroutine "):n]
	for i, c := range b {
		if c == ' ' {
			id, _ := strconv.ParseUint(string(b[:i]), 10, 64)
			return uintptr(id)
		}
	}
	return 0
}
