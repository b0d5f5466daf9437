package par

import "github.com/gofork/gofork/core"

// Invoke calls every function in fns, in parallel on core.Default(), and
// returns when all have returned. Called from inside a task of the default
// pool, it runs on the current worker. A panic in one function reaches the
// caller once the others have finished. InvokeOn names another pool.
func Invoke(fns ...func()) {
	InvokeOn(core.Default(), fns...)
}

// InvokeOn is Invoke on the pool p.
func InvokeOn(p *core.Pool, fns ...func()) {
	switch len(fns) {
	case 0:
		return
	case 1:
		fns[0]()
		return
	}
	core.Run(p, func(w *core.Worker) none { return invokeTask(w, fns) })
}

// invokeTask runs fns by halving the slice, so each fork passes a slice
// header and allocates nothing.
func invokeTask(w *core.Worker, fns []func()) none {
	if len(fns) == 1 {
		w.Share() // the other functions stay stealable while this one runs (it may block)
		fns[0]()
		return none{}
	}
	m := len(fns) / 2
	core.Join(w, invokeTask, fns[:m], invokeTask, fns[m:])
	return none{}
}
