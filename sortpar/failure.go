package sortpar

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// failure records the first panic of a sort's tasks. A sort that calls a
// user's cmp recovers every panic inside the task that raised it, so that
// no panic unwinds through a core.Join while the other side of the Join
// still moves elements: the task records the panic here and returns, the
// sort puts every element it holds aside back into the slice, tasks not
// yet started see failed and do nothing, and the sort raises the panic
// once core.RunValue has returned.
type failure struct {
	// failed is set (Store(true)) by the first task that panics, after it
	// recorded the panic in panicked; tasks Load it to stop early. The
	// Joins that end the sort's phases order every Store before the final
	// Load in raise.
	failed   atomic.Bool
	panicked atomic.Pointer[core.PanicError]
}

// catch, deferred by a task, records the task's panic and marks the sort
// failed. runtime.Goexit (nothing to recover) goes on unwinding.
func (f *failure) catch() {
	if v := recover(); v != nil {
		pe, ok := v.(*core.PanicError)
		if !ok {
			pe = &core.PanicError{Value: v, Stack: debug.Stack()}
		}
		f.panicked.CompareAndSwap(nil, pe)
		f.failed.Store(true)
	}
}

// raise panics with the first recorded panic, if any. It is called once
// every task of the sort has returned.
func (f *failure) raise() {
	if pe := f.panicked.Load(); pe != nil {
		panic(pe)
	}
}
