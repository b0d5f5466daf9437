package core

import (
	"runtime"
	"sync"
)

// curgStack returns the calling goroutine's id plus one, read from the header
// line of runtime.Stack ("goroutine 42 [running]:"). It is the portable
// fallback for the one-instruction versions of curg (curg_other.go): ids are
// never reused, so they identify a goroutine as well as its g address does,
// at a cost of about a microsecond per Run. One is added because the main
// goroutine's id is 1 and a pool's table of workers reserves 0 and 1 (a free
// and a dead entry). Where uintptr has 32 bits (mips, mipsle) the id wraps
// after 2^32 goroutines, so a goroutine created that much later than a
// worker could be taken for it; every 32-bit platform with an assembly curg
// is free of that.
//
// It is compiled everywhere so that its test runs on every platform.
func curgStack() uintptr {
	buf := stackBufs.Get().(*[64]byte)
	n := runtime.Stack(buf[:], false)
	var id uintptr
	for _, c := range buf[len("goroutine "):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uintptr(c-'0')
	}
	stackBufs.Put(buf)
	return id + 1
}

// stackBufs recycles curgStack's buffers. runtime.Stack lets its buffer
// escape, so one declared in curgStack would be a heap allocation per call,
// one per Run.
var stackBufs = sync.Pool{New: func() any { return new([64]byte) }}
