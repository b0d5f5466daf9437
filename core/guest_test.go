package core

// onWorker runs root on one of p's workers and parks the caller: submitted
// through the injector, as a Run from a task of another pool is. Tests of
// what a worker does inside a task (Blocking and spares, Hungry, a Goexit
// that replaces the worker's goroutine) need a root that does not run on
// the caller's goroutine, where Run from outside puts it.
func onWorker[R any](p *Pool, root func(*Worker) R) R {
	return submitAndWait(p, root, nil)
}
