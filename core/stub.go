// Package core is the work-stealing fork-join runtime (temporary serial stub;
// the real runtime replaces this file).
package core

import (
	"fmt"
	"runtime"
	"sync"
)

// Pool is a set of workers.
type Pool struct {
	n      int
	closed bool
	mu     sync.Mutex
}

// Worker is the handle a task receives.
type Worker struct {
	id   int
	pool *Pool
}

// Option configures New.
type Option func(*config)

type config struct{ workers int }

// Stats is a snapshot of counters.
type Stats struct{}

// WithWorkers sets the number of workers.
func WithWorkers(n int) Option {
	return func(c *config) { c.workers = n }
}

// New starts a pool.
func New(opts ...Option) *Pool {
	c := config{workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		o(&c)
	}
	if c.workers < 1 {
		panic(fmt.Sprintf("core: WithWorkers(%d): need at least 1 worker", c.workers))
	}
	return &Pool{n: c.workers}
}

var defaultPool = sync.OnceValue(func() *Pool { return New() })

// Default returns the process-wide pool.
func Default() *Pool { return defaultPool() }

// Close stops the pool.
func (p *Pool) Close() { p.mu.Lock(); p.closed = true; p.mu.Unlock() }

// Workers returns the number of workers.
func (p *Pool) Workers() int { return p.n }

// Stats returns counters.
func (p *Pool) Stats() Stats { return Stats{} }

// ID returns the worker index.
func (w *Worker) ID() int { return w.id }

// Pool returns the worker's pool.
func (w *Worker) Pool() *Pool { return w.pool }

// Run runs root on the pool and returns its result.
func Run[R any](p *Pool, root func(w *Worker) R) R {
	p.mu.Lock()
	c := p.closed
	p.mu.Unlock()
	if c {
		panic("core: Run on a closed Pool")
	}
	return root(&Worker{pool: p})
}

// Join runs f(a) and g(b), possibly in parallel.
func Join[A, B, RA, RB any](w *Worker, f func(*Worker, A) RA, a A, g func(*Worker, B) RB, b B) (RA, RB) {
	return f(w, a), g(w, b)
}

// Invoke runs all fns, possibly in parallel.
func Invoke(w *Worker, fns ...func(*Worker)) {
	for _, f := range fns {
		f(w)
	}
}
