package core

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// ErrGoexit is the value of the *PanicError that Run raises when a task
// called runtime.Goexit (as t.FailNow and t.Fatal do). The goroutine that
// called it ends as Goexit demands; gofork completes the task and everything
// waiting on it with this error and gives the worker a fresh goroutine, so
// nothing hangs.
var ErrGoexit = errors.New("core: runtime.Goexit called in a task (t.Fatal or t.FailNow inside a task?)")

// A PanicError is what Run panics with when a task panicked: the value the
// task panicked with and the stack of the goroutine where it happened, taken
// at the panic (so the frames of the task that panicked are in it).
type PanicError struct {
	Value any    // the value passed to panic
	Stack []byte // the panicking task's stack, as debug.Stack formats it
}

// Error returns the panic value and the task's stack.
func (e *PanicError) Error() string {
	return fmt.Sprintf("core: task panicked: %v\n\ntask stack:\n%s", e.Value, e.Stack)
}

// Unwrap returns the panic value if it is an error, so that errors.Is and
// errors.As see through the wrapper.
func (e *PanicError) Unwrap() error {
	if err, ok := e.Value.(error); ok {
		return err
	}
	return nil
}

// wrapPanic wraps a value recovered at a task boundary: nil, which recover
// returns only for runtime.Goexit, as ErrGoexit; an existing *PanicError as
// it is (a panic that already crossed a task boundary keeps its original
// stack); anything else with the current goroutine's stack, which, called
// from the deferred function that recovered, still holds the frames of the
// panic.
func wrapPanic(v any) *PanicError {
	if v == nil {
		v = ErrGoexit
	}
	if pe, ok := v.(*PanicError); ok {
		return pe
	}
	return &PanicError{Value: v, Stack: debug.Stack()}
}
