package par

import (
	"runtime/debug"
	"strconv"

	"github.com/gofork/gofork/core"
)

// Invoke calls every function in fns, in parallel, and returns when all
// have returned. Called from inside a task, it runs on that task's pool, on
// the current worker; from outside any task, on core.Default() (to run it on
// another pool p, call it from a root of p: p.Run or core.RunValue). A panic in
// one function does not stop the others: each of them runs, and once all
// have returned Invoke panics with the panic of the first function (in the
// order of fns) that panicked, as a *core.PanicError. It panics, before
// calling any, if a function is nil.
func Invoke(fns ...func()) {
	for i, f := range fns {
		if f == nil {
			panic("par: Invoke with a nil function at index " + strconv.Itoa(i))
		}
	}
	switch len(fns) {
	case 0:
		return
	case 1:
		if pe := invokeOne(fns[0]); pe != nil {
			panic(pe) // as a *core.PanicError, as with more functions
		}
		return
	}
	p := core.CurrentPool()
	if p == nil {
		p = core.Default()
	}
	if pe := core.RunValue(p, func(w *core.Worker) *core.PanicError { return invokeTask(w, fns) }); pe != nil {
		panic(pe)
	}
}

// invokeTask runs fns by halving the slice, so each fork passes a slice
// header and allocates nothing, and returns the panic of the first function
// that panicked, or nil. A leaf catches its function's panic rather than
// letting it unwind the Join above it: core.Join drops a half that no thief
// has taken when the other half panics, and Invoke promises to run them all.
func invokeTask(w *core.Worker, fns []func()) *core.PanicError {
	if len(fns) == 1 {
		w.Share() // the other functions stay stealable while this one runs (it may block)
		return invokeOne(fns[0])
	}
	m := len(fns) / 2
	l, r := core.Join(w, invokeTask, fns[:m], invokeTask, fns[m:])
	if l != nil {
		return l
	}
	return r
}

// invokeOne calls f and returns its panic, or nil. A runtime.Goexit in f is
// not a panic and cannot be stopped: it goes on up, as core documents.
func invokeOne(f func()) (pe *core.PanicError) {
	defer func() {
		if v := recover(); v != nil {
			if pe, _ = v.(*core.PanicError); pe == nil { // a nested loop's panic is one already
				pe = &core.PanicError{Value: v, Stack: debug.Stack()}
			}
		}
	}()
	f()
	return nil
}
