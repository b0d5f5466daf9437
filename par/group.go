package par

import (
	"context"
	"errors"
	"sync"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
)

// A Group is a collection of tasks working on subtasks of a common job, in
// the shape of golang.org/x/sync/errgroup (switching is an import change),
// run as tasks of a core.Pool instead of goroutines: Go from inside a task
// pushes the function on the calling worker's deque, where idle workers
// take it, and allocates nothing in steady state; from outside it submits it
// to the pool. Wait from inside a task runs the group's functions (and any
// other work) instead of blocking its worker; from outside it parks.
//
// The zero Group is valid, runs where NewGroup() would (on the pool of the
// task that first calls Go, or core.Default()) and does not cancel on
// error. A Group must not be copied after first use. A panic in a function
// does not crash the program: it is caught, the group's other functions
// run to the end, and Wait panics with it as a *core.PanicError (the
// functions run on a shared pool, where a panic cannot be left to kill the
// process as a goroutine's would).
type Group struct {
	once   sync.Once
	pool   *core.Pool
	scope  core.Scope
	task   func(*core.Worker, any) // g.run, made once so that Go allocates nothing
	cancel context.CancelCauseFunc // nil without WithContext

	errOnce sync.Once
	err     error
}

// errPanicked is the cause a group's context is cancelled with when one of
// its functions panicked; Wait panics rather than returning it.
var errPanicked = errors.New("par: a function of the group panicked")

// NewGroup returns a Group that runs on the pool named by WithPool, its only
// option; without it, on the pool of the task that calls NewGroup, or
// core.Default() outside any task.
func NewGroup(opts ...Option) *Group {
	return &Group{pool: resolve("par.NewGroup", loop.SetPool, opts).Pool}
}

// WithContext returns a new Group and a context derived from ctx, cancelled
// the first time a function passed to Go returns a non-nil error or
// panics, or the first time Wait returns, whichever occurs first. Its
// option is NewGroup's.
func WithContext(ctx context.Context, opts ...Option) (*Group, context.Context) {
	g := &Group{pool: resolve("par.WithContext", loop.SetPool, opts).Pool}
	if ctx == nil {
		panic("par: WithContext with a nil ctx")
	}
	ctx, g.cancel = context.WithCancelCause(ctx)
	return g, ctx
}

func (g *Group) init() {
	g.once.Do(func() {
		if g.pool == nil {
			if g.pool = core.CurrentPool(); g.pool == nil {
				g.pool = core.Default()
			}
		}
		g.task = g.run
	})
}

// Go calls f as a task of the group. The first call to return a non-nil
// error cancels the group's context, if it was made by WithContext; that
// error is returned by Wait. With a limit set (SetLimit) and reached, Go
// waits until a function of the group returns: inside a task, by running
// other work meanwhile. It panics if f is nil.
func (g *Group) Go(f func() error) {
	if f == nil {
		panic("par: Group.Go with a nil function")
	}
	g.init()
	g.scope.GoWith(g.pool, g.task, f)
}

// TryGo calls f as a task of the group only if the limit (SetLimit) allows
// it now, and reports whether it did. It panics if f is nil.
func (g *Group) TryGo(f func() error) bool {
	if f == nil {
		panic("par: Group.TryGo with a nil function")
	}
	g.init()
	return g.scope.TryGoWith(g.pool, g.task, f)
}

// SetLimit limits the number of functions of the group running (passed to
// Go and not returned) to at most n; n < 0 removes the limit, and n = 0
// lets none run (Go then blocks forever). It panics if functions of the
// group are running, as errgroup's does.
func (g *Group) SetLimit(n int) {
	if r := g.scope.Pending(); r != 0 {
		panic("par: Group.SetLimit while functions of the group are running")
	}
	g.scope.SetLimit(n)
}

// Wait waits until every function passed to Go has returned, then returns
// the first non-nil error among them (of any round: a Group remembers its
// first error). If a function panicked, Wait panics with that panic, as a
// *core.PanicError, once the others have returned. A Group made by
// WithContext has its context cancelled when Wait returns or panics.
func (g *Group) Wait() error {
	g.init()
	if g.cancel != nil {
		defer func() { g.cancel(g.err) }()
	}
	g.scope.Wait(g.pool)
	return g.err
}

// run is the task of every function passed to Go. Without a context to
// cancel it adds nothing around f but the error check: a panic goes on to
// the scope's task boundary, which records it for Wait.
func (g *Group) run(_ *core.Worker, arg any) {
	f := arg.(func() error)
	if g.cancel != nil {
		g.runCancelling(f)
		return
	}
	if err := f(); err != nil {
		g.fail(err)
	}
}

// runCancelling is run for a group made by WithContext: a panic (or
// runtime.Goexit) of f cancels the context too, on its way to the scope.
func (g *Group) runCancelling(f func() error) {
	returned := false
	defer func() {
		if !returned {
			g.cancel(errPanicked)
		}
	}()
	err := f()
	returned = true
	if err != nil {
		g.fail(err)
	}
}

// fail records the group's first error and cancels its context with it.
func (g *Group) fail(err error) {
	g.errOnce.Do(func() {
		g.err = err
		if g.cancel != nil {
			g.cancel(err)
		}
	})
}
