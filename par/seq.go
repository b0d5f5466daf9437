package par

import (
	"iter"
	"math"
	"sync"
	"sync/atomic"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/lockfree"
	"github.com/gofork/gofork/internal/loop"
)

// Streams: parallel work over a sequence of unknown length (lines of a file,
// rows of a query, any iter.Seq), with memory bounded by InFlight. See
// doc.go, "Streams".
//
// How a stream runs. One goroutine, the feeder, ranges over the sequence
// (push-style: no iter.Pull, no coroutine switch per item) and writes each
// item into the next slot of a window of InFlight slots, publishing it at
// once with one atomic store (seq_feed.go): an item never waits in the
// feeder's hands for more to come, so a sequence that blocks after an item
// holds nothing back. Up to one pump task per worker claims the published
// items in batches with one CAS, as many at a time as are waiting divided
// among the workers (one while the source is slow, more while it keeps
// ahead), and runs fn on them (seq_pump.go). MapSeq's consumer, on the
// goroutine that ranges, takes the results in order and sleeps until a
// whole batch of them is ready, or every item published so far is
// (seq_take.go). The feeder sleeps while the window is full, until half of
// it is free.
//
// Where the feeder runs: on a goroutine of its own for MapSeq (the
// consumer must go on taking results while the sequence blocks), and on
// the caller's goroutine for ForEachSeq called from outside a task; from
// inside a task it gets a goroutine of its own too, and the calling worker
// waits as a blocked worker does, with a spare standing in (core.Blocking):
// a sequence that blocks never holds a worker.

// streamSettings are the options MapSeq and ForEachSeq take.
const streamSettings = loop.SetPool | loop.SetInFlight

// inFlightPerWorker is the default window per worker of the pool: enough
// items that the consumer and the feeder each wake once per many items,
// and that the pumps find batches waiting.
const inFlightPerWorker = 64

// window returns the window of a stream with the settings c.
func window(c *loop.Config) int {
	if c.InFlight > 0 {
		return c.InFlight
	}
	return inFlightPerWorker * c.Pool.Workers()
}

// A streamSlot holds one item of the window, and for MapSeq its outcome.
type streamSlot[E, R any] struct {
	// state is the position + 1 of the item the slot last finished with:
	// for MapSeq, whose outcome (r, panicked, skipped) is here, stored by
	// the pump after them and loaded by the consumer before it reads them;
	// for ForEachSeq, whose value a pump has copied out, so that the feeder
	// may write the slot again.
	state    atomic.Int64
	e        E
	r        R
	panicked *core.PanicError
	skipped  bool // the stream had stopped: fn was not called
}

// stream is the state of one run of a MapSeq (ordered) or ForEachSeq.
// Fields written by different goroutines sit on separate cache lines.
type stream[E, R any] struct {
	pool    *core.Pool
	fn      func(E) R
	n       int64 // the window
	workers int32 // most pumps at once
	ordered bool  // MapSeq: slots are consumed in order by the consumer
	ring    []streamSlot[E, R]
	pump    func(*core.Worker, any) // run, made once
	pumps   core.Scope

	_ [cacheLine]byte
	// pulled counts the items published: [0, pulled) have been written to
	// the ring. Stored by the feeder after it writes the slot; pumps load it
	// before they claim (seq_feed.go).
	pulled      atomic.Int64
	feederWaits atomic.Bool   // the feeder sleeps until the window has room (Dekker with the wakers)
	room        chan struct{} // buffered (1): wakes the feeder
	roomUntil   int64         // the feeder's: positions below it have room as of its last look

	_       [cacheLine]byte
	claimed atomic.Int64 // items claimed by pumps: CAS by pumps (seq_pump.go)
	active  atomic.Int32 // pumps running

	_ [cacheLine]byte
	// consumed counts, for MapSeq, the results the consumer has taken (it
	// stores it after each); for ForEachSeq, the calls finished (pumps add
	// a batch's worth after it).
	consumed atomic.Int64
	waiting  atomic.Int64  // MapSeq: the item the consumer sleeps until, or -1 (Dekker with publish)
	wake     chan struct{} // buffered (1): a pump tells the consumer its item is done

	_          [cacheLine]byte
	ended      atomic.Bool  // the feeder has returned: pulled is final
	stop       atomic.Bool  // the consumer stopped, or fn panicked in ForEachSeq: skip fn, take no more items
	panicAt    atomic.Int64 // MapSeq: the first item whose fn panicked (MaxInt64: none); later items are skipped
	firstPanic atomic.Pointer[core.PanicError]
	seqPan     any           // what seq panicked with; written by the feeder before ended
	fed        chan struct{} // closed when a feeder goroutine has returned
	once       sync.Once     // finish runs once
}

// cacheLine separates a stream's fields written by different goroutines
// (128 bytes covers adjacent-line prefetching).
const cacheLine = 128

func newStream[E, R any](fn func(E) R, c loop.Config, ordered bool) *stream[E, R] {
	s := &stream[E, R]{pool: c.Pool, fn: fn, ordered: ordered,
		room: make(chan struct{}, 1), wake: make(chan struct{}, 1)}
	s.n = int64(window(&c))
	s.workers = int32(max(c.Pool.Workers(), 1))
	s.ring = make([]streamSlot[E, R], s.n)
	s.roomUntil = s.n
	s.waiting.Store(-1)
	s.panicAt.Store(math.MaxInt64)
	s.pump = s.run
	return s
}

// finish stops the stream, waits until the feeder has returned and no pump
// runs. It runs once. A feeder inside a sequence that blocks is waited for
// until the sequence yields again (and is told to stop) or returns.
func (s *stream[E, R]) finish() {
	s.once.Do(func() {
		s.stop.Store(true)
		s.signalRoom() // a feeder waiting for room stops
		if s.fed != nil {
			core.Blocking(func() { <-s.fed }) // inside a task, a spare stands in meanwhile
		}
		waitQuietly(&s.pumps, s.pool)
	})
}

// ForEachSeq calls fn(e) for every item e of seq, in parallel, and returns
// when every call has returned. At most InFlight items (default 64 per
// worker) are taken from seq and not yet finished, so an endless seq runs
// in bounded memory. seq is ranged over by one goroutine (the caller's,
// outside a task), which hands each item to the workers as soon as seq
// yields it; seq may block (reading a file): the workers go on with the
// items already taken, and a worker is never held by it.
//
// A panic in fn stops the stream; ForEachSeq waits for the calls that
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
	s := newStream(func(e E) struct{} { fn(e); return struct{}{} }, resolve("par.ForEachSeq", streamSettings, opts), false)
	defer s.finish()
	if core.CurrentPool() != nil {
		// A worker must not range over a sequence that may block: a
		// goroutine of its own does, and the worker waits as a blocked
		// worker does.
		s.fed = make(chan struct{})
		go s.feedAndClose(seq)
		core.Blocking(func() { <-s.fed })
	} else {
		s.feed(seq)
	}
	// Every item the feeder published is claimed by a pump that runs or
	// will (a pump stops only when none is left, see run), and pumps
	// start only from the feeder or themselves: once they are all done,
	// so is every call.
	waitQuietly(&s.pumps, s.pool)
	s.finish()
	if pe := s.firstPanic.Load(); pe != nil {
		panic(pe)
	}
	if s.seqPan != nil {
		panic(s.seqPan)
	}
}

// MapSeq returns a sequence of fn(e) for the items e of seq, in seq's order,
// with the calls of fn run in parallel. At most InFlight items (default 64
// per worker) exist between being taken from seq and being consumed: the
// workers run ahead of the consumer by that much and no more, and a slow
// item holds the window rather than letting it grow. seq is ranged over by
// a goroutine of its own, which hands each item to the workers as soon as
// seq yields it: an item seq has yielded reaches fn, and its result the
// consumer, even if seq then blocks. The results are yielded on the
// goroutine that ranges. The result is meant to be ranged over once; each
// range runs the pipeline anew.
//
// Breaking out of the range loop stops the stream: seq is told to stop
// when it next yields, calls not started are dropped, and the loop ends
// once seq has returned and the calls that started have. A panic in fn
// reaches the consumer as a *core.PanicError when its item's turn comes; a
// panic in seq (after the results of the items before it) or in the loop
// body goes on as it is; either way every call that started has returned
// first. It panics if seq or fn is nil. It takes the options WithPool and
// InFlight.
func MapSeq[E, R any](seq iter.Seq[E], fn func(E) R, opts ...Option) iter.Seq[R] {
	if seq == nil {
		panic("par: MapSeq with a nil sequence")
	}
	if fn == nil {
		panic("par: MapSeq with a nil function")
	}
	c := resolve("par.MapSeq", streamSettings, opts)
	return func(yield func(R) bool) {
		s := newStream(fn, c, true)
		defer s.finish()
		s.fed = make(chan struct{})
		go s.feedAndClose(seq)
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
			// Its slot is free: pairs with the feeder's load in hasRoom; and
			// before wakeFeeder's load of feederWaits (Dekker with waitRoom).
			lockfree.DekkerStoreInt64(&s.consumed, i+1)
			s.wakeFeeder(i + 1)
		}
		s.finish()
		if s.seqPan != nil {
			panic(s.seqPan)
		}
	}
}

// waitQuietly waits for the scope's tasks and drops their panic: a pump's
// only panic is a runtime.Goexit of fn, which its item reports.
func waitQuietly(s *core.Scope, p *core.Pool) {
	defer func() { _ = recover() }()
	s.Wait(p)
}
