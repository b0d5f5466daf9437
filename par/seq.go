package par

import (
	"iter"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/lockfree"
	"github.com/gofork/gofork/internal/loop"
)

// Streams: parallel work over a sequence of unknown length (lines of a file,
// rows of a query, any iter.Seq), with memory bounded by InFlight. See
// doc.go, "Streams".
//
// How a stream runs, after TBB's parallel_pipeline with a serial in-order
// input stage: up to one *pump* task per worker pulls the next item from
// the sequence (through iter.Pull, under a lock, so that the sequence is
// pulled by one goroutine at a time as its contract asks), runs fn on it and
// goes on with the next, while fewer than InFlight items are between pull
// and consumption. The consumer, on the caller's goroutine, only takes the
// results in order from a ring of InFlight slots. Items are never handed
// from the consumer to the workers one by one: on a machine whose
// processors the workers keep busy, the consumer could not run often enough
// to do it, and each hand-over would cost a goroutine switch.

// streamSettings are the options MapSeq and ForEachSeq take.
const streamSettings = loop.SetPool | loop.SetInFlight

// window returns the window of a stream with the settings c.
func window(c *loop.Config) int {
	if c.InFlight > 0 {
		return c.InFlight
	}
	return 4 * c.Pool.Workers()
}

// fullWait is how long a pump that finds the window full waits for the
// consumer to make room, yielding its processor, before it stops. It is
// well under the 200 µs a root may wait for a busy pool (core/fair.go), so
// a pump waiting on a slow consumer does not hold a worker another root
// needs for longer than that root would wait anyway.
const fullWait = 50 * time.Microsecond

// slot states.
const (
	slotEmpty  uint32 = iota // not pulled yet, or consumed
	slotPulled               // pulled; fn running
	slotDone                 // fn returned (or panicked): r or panicked is set
)

type streamSlot[E, R any] struct {
	state    atomic.Uint32
	r        R
	panicked *core.PanicError
	skipped  bool     // the stream had stopped: fn was not called
	_        [64]byte // pumps write neighbouring slots: keep them off one cache line
}

// stream is the state of one run of a MapSeq (ordered) or ForEachSeq.
type stream[E, R any] struct {
	pool    *core.Pool
	fn      func(E) R
	n       int64 // the window
	workers int32 // most pumps at once
	ordered bool  // MapSeq: slots are consumed in order by the consumer

	mu      sync.Mutex // the pull lock: one goroutine pulls at a time
	next    func() (E, bool)
	stopSeq func()
	_       [64]byte
	pulled  atomic.Int64 // items pulled; written under mu, read anywhere
	_       [64]byte
	seqPan  any       // what seq panicked with; written under mu before ended is set
	once    sync.Once // finish runs once

	// firstPanic is the first panic of fn (ForEachSeq; MapSeq keeps each in
	// its slot).
	firstPanic atomic.Pointer[core.PanicError]

	ring     []streamSlot[E, R]
	consumed atomic.Int64 // MapSeq: results taken by the consumer; ForEachSeq: calls finished
	_        [64]byte
	ended    atomic.Bool  // no more pulls: seq done, a panic, or the consumer stopped
	stop     atomic.Bool  // the consumer stopped, or fn panicked in ForEachSeq: skip fn, pull no more
	panicAt  atomic.Int64 // MapSeq: the first item whose fn panicked (MaxInt64: none); later items are skipped

	pumps  core.Scope
	active atomic.Int32 // pumps running
	pump   func(*core.Worker, any)

	waiting atomic.Int64  // MapSeq: the slot the consumer sleeps on, or -1
	wake    chan struct{} // buffered (1): a pump tells the consumer its slot is done
}

func newStream[E, R any](seq iter.Seq[E], fn func(E) R, c loop.Config, ordered bool) *stream[E, R] {
	s := &stream[E, R]{pool: c.Pool, fn: fn, ordered: ordered, wake: make(chan struct{}, 1)}
	s.n = int64(window(&c))
	s.workers = int32(max(c.Pool.Workers(), 1))
	s.ring = make([]streamSlot[E, R], s.n)
	s.next, s.stopSeq = iter.Pull(seq)
	s.waiting.Store(-1)
	s.panicAt.Store(math.MaxInt64)
	s.pump = s.run
	return s
}

// topUp starts pumps while fewer than one per worker run and the window
// has room. Whoever makes room (the consumer, a finished call) calls it; a
// pump about to stop calls it too, after it counted itself out, so that a
// pump never stops while another is needed (the Dekker pair: active, then
// the window).
func (s *stream[E, R]) topUp() {
	for !s.ended.Load() && s.room() {
		a := s.active.Load()
		if a >= s.workers {
			return
		}
		if s.active.CompareAndSwap(a, a+1) {
			s.pumps.GoWith(s.pool, s.pump, nil)
		}
	}
}

// room reports whether another item may be pulled: fewer than n between
// pull and consumption.
func (s *stream[E, R]) room() bool { return s.pulled.Load()-s.consumed.Load() < s.n }

// run is one pump: it pulls and computes items until the window is full,
// the sequence ends, the stream stops, or another pump holds the pull lock
// (that one goes on).
//
// Between items, holding none, it is a poll point (core's Worker.Poll):
// a root submitted to the pool that has waited while every worker pumps runs
// there, instead of waiting for the stream to end.
func (s *stream[E, R]) run(w *core.Worker, _ any) {
	for {
		i, e, ok, busy := s.pull()
		if !ok {
			s.active.Add(-1)
			if !busy {
				s.topUp() // room may have appeared after this pump looked
			}
			// With busy, the pump holding the pull lock goes on pulling
			// and calls topUp itself when it stops. Starting another pump
			// here would be wrong as well as useless: while the holder is
			// blocked in the sequence (a reader, or a sequence that runs
			// par.For on this pool), the new pump would find the lock held
			// again, and so on, on a worker that never got to run the
			// work the holder waits for.
			return
		}
		s.compute(w, i, e)
		w.Poll()
	}
}

// pull takes the next item and returns its index; ok is false when the
// pump should stop, with busy set when that is because another pump holds
// the pull lock.
//
// A pump pulls one item at a time and computes it before it pulls the next.
// Taking a few at once would pay the lock once for them (measured at P = 2
// with 5 µs items: 4 % of the throughput with the default window, 13 % with
// InFlight(32)), but a pump that blocks in the sequence while it holds items
// pulled before would leave them waiting: a reader that blocks for its next
// line, or a request/response sequence that waits for fn's answer to the
// item it yielded, would stall with work in hand.
func (s *stream[E, R]) pull() (i int64, e E, ok, busy bool) {
	for try := 0; !s.mu.TryLock(); try++ {
		if try == 64 {
			return 0, e, false, true // the holder pulls on
		}
		runtime.Gosched()
	}
	defer s.mu.Unlock()
	var since time.Time
	for try := 0; !s.room() && !s.ended.Load(); try++ {
		// The window is full: the consumer lags. Give it this processor
		// (it may be runnable, waiting for one) for up to fullWait before
		// stopping. A few yields are not enough: they pass in a
		// microsecond or two, less than the consumer takes to wake and
		// make room, and a pump that stops leaves its worker idle until
		// topUp starts another (at 5 µs an item, 8 yields stopped a pump
		// every 200 items and cost 6 % of the throughput at P = 2).
		if try == 0 {
			since = time.Now()
		} else if time.Since(since) > fullWait {
			return 0, e, false, false
		}
		s.mu.Unlock()
		runtime.Gosched()
		s.mu.Lock()
	}
	if s.ended.Load() {
		return 0, e, false, false
	}
	i = s.pulled.Load()
	if e, ok = s.pullOne(); !ok {
		s.ended.Store(true) // after seqPan: whoever sees ended sees it
		s.signal()          // a consumer may wait for an item that will not come
		return 0, e, false, false
	}
	if s.ordered {
		s.ring[i%s.n].state.Store(slotPulled)
	}
	s.pulled.Store(i + 1)
	return i, e, true, false
}

// pullOne pulls one item, recording a panic of the sequence. Caller holds mu.
func (s *stream[E, R]) pullOne() (e E, ok bool) {
	defer func() {
		if v := recover(); v != nil {
			s.seqPan, ok = v, false
		}
	}()
	return s.next()
}

// signal wakes the consumer if it sleeps; a token left over only makes it
// look again.
func (s *stream[E, R]) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// compute runs fn on item i, as a task of its own on w (core's task
// boundary, which turns a panic or runtime.Goexit into a *core.PanicError),
// and publishes its result. Once the stream has stopped, fn is not called
// and the item is marked skipped; so is an item of MapSeq after one whose fn
// panicked, while those before it still run: the consumer takes their
// results, in order, before the panic.
func (s *stream[E, R]) compute(w *core.Worker, i int64, e E) {
	var r R
	if s.stop.Load() || s.ordered && i > s.panicAt.Load() {
		s.publish(i, r, nil, true)
		return
	}
	w.Guard(func() { r = s.fn(e) }, func(pe *core.PanicError) {
		if pe != nil {
			// The panic first: whoever sees stop (and skips) finds it.
			s.firstPanic.CompareAndSwap(nil, pe)
			if s.ordered {
				// Skip the calls after this item, not before: their
				// results come first (compute).
				for old := s.panicAt.Load(); i < old && !s.panicAt.CompareAndSwap(old, i); old = s.panicAt.Load() {
				}
			} else {
				s.stop.Store(true) // calls not started are skipped
			}
			s.ended.Store(true) // pull no more
		}
		s.publish(i, r, pe, false)
	})
}

// publish records item i's outcome and wakes the consumer if it waits for it.
func (s *stream[E, R]) publish(i int64, r R, pe *core.PanicError, skipped bool) {
	if !s.ordered {
		s.consumed.Add(1) // a call finished: its place in the window is free
		if pe != nil {
			s.signal()
		}
		return
	}
	sl := &s.ring[i%s.n]
	sl.r, sl.panicked, sl.skipped = r, pe, skipped
	// Publishes the fields; pairs with the consumer's Load. The load of
	// waiting below must not pass it (Dekker with take).
	lockfree.DekkerStoreUint32(&sl.state, slotDone)
	if pe != nil || s.waiting.Load() == i {
		s.signal()
		// The consumer, woken for half a window of results, waits in this
		// processor's next-to-run slot: let it take them now. Left to the
		// scheduler it runs only when a pump is preempted, and the window
		// fills meanwhile and every pump stops.
		runtime.Gosched()
	}
}

// take returns the result of item i, waiting for it (as a blocking call
// inside a task: a spare stands in for the worker), or reports false when
// the sequence ended, or the stream stopped, before item i.
//
// The consumer does not wake for every item: while item i is not ready it
// sleeps until item i+n/2-1 is (or the sequence ends), then takes all that
// are ready, so that one goroutine switch serves half a window. It
// announces the item it sleeps on (waiting), then looks again; the pump
// that completes an item stores its state, then looks at waiting (Dekker):
// one of them sees the other, so no wake-up is lost.
func (s *stream[E, R]) take(i int64) (R, *core.PanicError, bool) {
	sl := &s.ring[i%s.n]
	var zero R
	for sl.state.Load() != slotDone {
		if s.never(i) {
			if pe := s.firstPanic.Load(); pe != nil {
				return zero, pe, true // fn panicked and the stream stopped before item i
			}
			return zero, nil, false // the sequence ended before item i
		}
		t := i + max(s.n/2, 1) - 1 // the end of the batch it waits for
		if s.ready(t) {
			t = i // the batch is there but not item i: wait for it alone
		}
		lockfree.DekkerStoreInt64(&s.waiting, t) // before the loads below (Dekker with publish)
		if sl.state.Load() != slotDone && !s.ready(t) && !s.never(i) {
			core.Blocking(func() { <-s.wake })
		}
		s.waiting.Store(-1)
	}
	r, pe, skipped := sl.r, sl.panicked, sl.skipped
	sl.r, sl.panicked, sl.skipped = zero, nil, false
	sl.state.Store(slotEmpty)
	if skipped {
		// A call of fn panicked (later in the sequence, or this one was
		// skipped before its turn): report that panic, not a zero result.
		return zero, s.firstPanic.Load(), s.firstPanic.Load() != nil
	}
	return r, pe, true
}

// ready reports whether item t's result is there, or will never be.
func (s *stream[E, R]) ready(t int64) bool {
	return s.ring[t%s.n].state.Load() == slotDone || s.never(t)
}

// never reports whether item i will never be pulled: the stream ended
// before it. It takes the pull lock, so that an item being pulled counts.
func (s *stream[E, R]) never(i int64) bool {
	if !s.ended.Load() {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return i >= s.pulled.Load()
}

// finish stops the stream and waits until no pump runs; then the sequence
// is stopped (iter.Pull's stop, never while a pump pulls). It runs once.
func (s *stream[E, R]) finish() {
	s.once.Do(func() {
		s.stop.Store(true)
		s.ended.Store(true)
		waitQuietly(&s.pumps, s.pool)
		s.stopSeq()
	})
}

// ForEachSeq calls fn(e) for every item e of seq, in parallel, and returns
// when every
// call has returned. At most InFlight items (default four per worker) are
// taken from seq and not yet finished, so an endless seq runs in bounded
// memory. seq is pulled by the workers, one at a time (the iter.Seq
// contract), as they become free; it may block (reading a file): the other
// workers go on with the items already taken.
//
// A panic in fn stops the pulling; ForEachSeq waits for the calls that
// started and panics with it as a *core.PanicError. A panic in seq reaches
// the caller as it is, after the calls that started have returned. It
// panics if seq or fn is nil. It takes the options WithPool and InFlight.
func ForEachSeq[E any](seq iter.Seq[E], fn func(E), opts ...Option) {
	if seq == nil {
		panic("par: ForEachSeq with a nil sequence")
	}
	if fn == nil {
		panic("par: ForEachSeq with a nil function")
	}
	s := newStream(seq, func(e E) struct{} { fn(e); return struct{}{} }, resolve("par.ForEachSeq", streamSettings, opts), false)
	defer s.finish()
	s.topUp()
	// While the sequence lasts some pump runs: one stops only when the pull
	// lock is held (its holder goes on), the stream ended, or the window is
	// full, which n calls in progress make and their end undoes (a pump
	// that stops starts another if there is room, see topUp). So the pumps
	// are all done only once the stream ended.
	s.pumps.Wait(s.pool)
	s.finish()
	if pe := s.firstPanic.Load(); pe != nil {
		panic(pe)
	}
	if s.seqPan != nil {
		panic(s.seqPan)
	}
}

// MapSeq returns a sequence of fn(e) for the items e of seq, in seq's order,
// with the calls of fn run in parallel. At most InFlight items (default four per worker)
// exist between being taken from seq and being consumed: the workers pull
// ahead of the consumer by that much and no more, and a slow item holds the
// window rather than letting it grow. seq is pulled by the workers, one at a
// time (the iter.Seq contract); the results are yielded on the goroutine
// that ranges. The result is meant to be ranged over once; each range runs
// the pipeline anew.
//
// Breaking out of the range loop stops the pulling; calls not started are
// dropped, the others finish before the loop ends. A panic in fn reaches the
// consumer as a *core.PanicError when its item's turn comes; a panic in seq
// or in the loop body goes on as it is; either way every call that started
// has returned first. It panics if seq or fn is nil. It takes the options
// WithPool and InFlight.
func MapSeq[E, R any](seq iter.Seq[E], fn func(E) R, opts ...Option) iter.Seq[R] {
	if seq == nil {
		panic("par: MapSeq with a nil sequence")
	}
	if fn == nil {
		panic("par: MapSeq with a nil function")
	}
	c := resolve("par.MapSeq", streamSettings, opts)
	return func(yield func(R) bool) {
		s := newStream(seq, fn, c, true)
		defer s.finish()
		s.topUp()
		for i := int64(0); ; i++ {
			r, pe, ok := s.take(i)
			if !ok {
				break
			}
			if pe != nil {
				s.finish() // every call that started returns first
				panic(pe)
			}
			if !yield(r) {
				return
			}
			s.consumed.Add(1) // consumed: its place in the window is free
			s.topUp()
		}
		s.finish()
		if s.seqPan != nil {
			panic(s.seqPan)
		}
	}
}

// waitQuietly waits for the scope's tasks and drops their panic: the
// caller is unwinding a panic of its own, or reports its own.
func waitQuietly(s *core.Scope, p *core.Pool) {
	defer func() { _ = recover() }()
	s.Wait(p)
}
