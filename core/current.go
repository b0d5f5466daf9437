package core

// CurrentPool returns the pool whose task is running on the calling
// goroutine, or nil when the caller is not a task of any pool. Libraries
// built on core (par, reduce, sortpar, linalg) use it to run a call made
// from inside a task on that task's pool, on its current worker, rather than
// on core.Default(); a goroutine started by a task is not a task.
func CurrentPool() *Pool {
	if w := workerOf(curg()); w != nil {
		return w.pool
	}
	return nil
}
