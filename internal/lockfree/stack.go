package lockfree

import "sync/atomic"

// A Link is the field a Stack threads through the values it holds: a type
// whose values go on a Stack embeds a Link to itself. While a value is on a
// Stack, Next belongs to the stack; once taken, Next is the value's owner's
// to use (the list TakeAll returns is linked through it, and an owner may
// keep the value on lists of its own).
type Link[T any] struct {
	Next *T
}

func (l *Link[T]) link() *Link[T] { return l }

// Linked is the constraint of a Stack's values: a pointer to a T that
// embeds a Link[T].
type Linked[T any] interface {
	*T
	link() *Link[T]
}

// A Stack is a Treiber stack ("Systems programming: coping with
// parallelism", R. K. Treiber, IBM 1986) that any number of goroutines push
// to and that is taken whole: many producers, one consumer at a time, and
// no pop of a single value, so no ABA problem (a CAS on top succeeds only
// against the value a pusher linked below its own, and a taker swaps the
// whole stack out). The zero Stack is empty and ready to use.
type Stack[T any, P Linked[T]] struct {
	top atomic.Pointer[T]
}

// Push puts x on top of the stack. Any goroutine.
func (s *Stack[T, P]) Push(x P) {
	for {
		old := s.top.Load()
		x.link().Next = old
		if s.top.CompareAndSwap(old, (*T)(x)) { // publishes x and its link; pairs with the Swap in TakeAll
			return
		}
	}
}

// Empty reports whether the stack holds nothing now. Any goroutine.
func (s *Stack[T, P]) Empty() bool { return s.top.Load() == nil }

// TakeAll takes every value of the stack at once and returns them as a list
// linked through Next, oldest first (the order they were pushed in), or nil
// when the stack is empty. One load when it is.
func (s *Stack[T, P]) TakeAll() P {
	if s.top.Load() == nil {
		return nil
	}
	var fifo *T
	for x := s.top.Swap(nil); x != nil; {
		l := P(x).link()
		next := l.Next
		l.Next = fifo
		fifo = x
		x = next
	}
	return fifo
}
