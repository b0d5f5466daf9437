package par

import (
	"iter"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// Streams: parallel work over a sequence of unknown length (lines of a file,
// rows of a query, any iter.Seq), with memory bounded by InFlight. The
// sequence is pulled on the goroutine that calls ForEachSeq or ranges over
// MapSeq, one item at a time as the iter.Seq contract asks; the functions
// run as tasks of the pool. See doc.go, "Streams".

// inFlight returns the window of a stream on c's pool.
func (c config) window() int {
	if c.inFlight > 0 {
		return c.inFlight
	}
	return 4 * c.pool.Workers()
}

// ForEachSeq calls fn(e) for every item e of seq, in parallel on the pool
// (core.Default() unless WithPool names another), and returns when every
// call has returned. At most InFlight items (default four per worker) are
// taken from seq and not yet finished: pulling waits for a call to return,
// so an endless seq runs in bounded memory. seq may block (reading a
// file): the pool works meanwhile on the items already taken.
//
// A panic in fn stops the pulling; ForEachSeq waits for the calls that
// started and panics with it as a *core.PanicError. A panic in seq reaches
// the caller as it is, after the calls that started have returned. It
// panics if seq or fn is nil.
func ForEachSeq[E any](seq iter.Seq[E], fn func(E), opts ...Option) {
	if seq == nil {
		panic("par: ForEachSeq with a nil sequence")
	}
	if fn == nil {
		panic("par: ForEachSeq with a nil function")
	}
	c := resolve(opts)
	n := c.window()
	var s core.Scope
	var failed atomic.Bool
	pulled := false
	defer func() {
		if !pulled { // seq panicked: let the calls that started finish first
			waitQuietly(&s, c.pool)
		}
	}()
	for e := range seq {
		if failed.Load() {
			break
		}
		s.Go(c.pool, func(*core.Worker) {
			ok := false
			defer func() {
				if !ok {
					failed.Store(true) // stop pulling; the panic goes on to the scope
				}
			}()
			fn(e)
			ok = true
		})
		// At most n items between pull and finish: the next pull waits
		// for a slot (running other work, inside a task).
		s.WaitBelow(c.pool, n)
	}
	pulled = true
	s.Wait(c.pool)
}

// waitQuietly waits for the scope's tasks and drops their panic: the
// caller is unwinding a panic of its own.
func waitQuietly(s *core.Scope, p *core.Pool) {
	defer func() { _ = recover() }()
	s.Wait(p)
}

// mapSlot is one place of MapSeq's window: an item, its result and the
// scope that runs it (so that the consumer can wait for this one).
type mapSlot[E, R any] struct {
	m     *mapState[E, R]
	e     E
	r     R
	scope core.Scope
}

// mapState is what MapSeq's tasks share.
type mapState[E, R any] struct {
	fn func(E) R
	// stop is set once the consumer stopped (break, or a panic): tasks that
	// have not started skip fn.
	stop atomic.Bool
}

// mapTask computes one slot's result.
func mapTask[E, R any](_ *core.Worker, arg any) {
	sl := arg.(*mapSlot[E, R])
	if sl.m.stop.Load() {
		return
	}
	sl.r = sl.m.fn(sl.e)
}

// MapSeq returns a sequence of fn(e) for the items e of seq, in seq's order,
// with the calls of fn run in parallel on the pool (core.Default() unless
// WithPool names another). At most InFlight items (default four per worker)
// exist between being taken from seq and being consumed: MapSeq pulls ahead
// of the consumer by that much and no more, and a slow item holds the
// window rather than letting it grow. The result is meant to be ranged over
// once; each range runs the pipeline anew.
//
// Breaking out of the range loop stops the pulling; calls not started are
// dropped, the others finish before the loop ends. A panic in fn reaches the
// consumer as a *core.PanicError when its item's turn comes; a panic in seq
// or in the loop body goes on as it is; either way every call that started
// has returned first. It panics if seq or fn is nil.
func MapSeq[E, R any](seq iter.Seq[E], fn func(E) R, opts ...Option) iter.Seq[R] {
	if seq == nil {
		panic("par: MapSeq with a nil sequence")
	}
	if fn == nil {
		panic("par: MapSeq with a nil function")
	}
	return func(yield func(R) bool) {
		c := resolve(opts)
		n := c.window()
		m := &mapState[E, R]{fn: fn}
		ring := make([]mapSlot[E, R], n)
		for i := range ring {
			ring[i].m = m
		}
		task := mapTask[E, R]
		var head, tail int // ring[head%n : tail%n] are in flight, oldest first
		finished := false
		defer func() {
			if !finished { // a break or a panic: drop what has not started, wait for the rest
				m.stop.Store(true)
				for ; head < tail; head++ {
					waitQuietly(&ring[head%n].scope, c.pool)
				}
			}
		}()
		// next hands the oldest item's result to the consumer.
		next := func() bool {
			sl := &ring[head%n]
			sl.scope.Wait(c.pool) // re-raises the item's panic
			head++
			var zr R
			var ze E
			r := sl.r
			sl.r, sl.e = zr, ze
			return yield(r)
		}
		for e := range seq {
			sl := &ring[tail%n]
			sl.e = e
			tail++
			sl.scope.GoWith(c.pool, task, sl)
			// At most n items between pull and consumption: with the
			// window full, the oldest goes to the consumer before the next
			// pull.
			if tail-head == n && !next() {
				return
			}
		}
		for head < tail {
			if !next() {
				return
			}
		}
		finished = true
	}
}
