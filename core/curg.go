//go:build 386 || amd64 || arm || arm64

package core

// curg returns a value that identifies the calling goroutine for as long as it
// lives: the address of its runtime g structure (see curg_amd64.s,
// curg_arm64.s, curg_386.s and curg_arm.s). The runtime never moves a g
// structure, so two live goroutines never share a value; a g structure may be
// reused after its goroutine exits, which is why a worker goroutine marks its
// entry in the worker table dead as it exits (forget, in gtable.go), whether
// the pool is closing or a task called runtime.Goexit.
//
// Run uses it to tell whether it was called from inside a task of the pool
// (then the root runs inline on that worker) or from an ordinary goroutine
// (then the root is submitted and the caller parks). It is one load from
// the goroutine's thread-local storage, cheap enough for every Run.
// Other platforms use curgStack (curg_other.go).
func curg() uintptr
