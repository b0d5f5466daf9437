package par

import (
	"runtime"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/lockfree"
)

// The pumps: up to one task per worker that claims published items in
// batches and runs fn on them.
//
// A pump claims [c, c+k) with one CAS on claimed, k being the items waiting
// divided among twice the workers (at least one, at most batchMax): one at
// a time while the source is slow, more while it keeps ahead, so that a
// claim costs little per item and the workers still share what is there.
// It runs the batch under one task boundary (core's Worker.Guard, which
// turns a panic into a *core.PanicError), publishes each outcome in its
// slot (MapSeq) and, between batches, is a poll point (core's Worker.Poll):
// a root submitted to the pool while every worker pumps gets in there.
//
// The feeder starts a pump after it publishes an item if none runs, or
// another while the running ones have more items waiting than they are
// (kick). A pump that finds nothing to claim counts itself out and then
// looks again (retire): the feeder stores pulled and then loads active
// (Dekker), so either it sees the pump gone and starts one, or the pump
// sees the item.

// batchMax bounds a pump's claim, and the stack copy of a ForEachSeq
// batch.
const batchMax = 32

// pumpSpin is how many times a pump that finds nothing to claim yields its
// processor (letting a feeder queued there run) before it stops.
const pumpSpin = 4

// kick starts a pump if none runs, or another while the running ones fall
// behind. Feeder only, after it publishes item pulled-1.
func (s *stream[E, R]) kick(pulled int64) {
	a := s.active.Load() // after the store of pulled: pairs with the Add in retire (Dekker)
	if a >= s.workers || a > 0 && pulled-s.claimed.Load() <= int64(a) {
		return
	}
	if s.active.CompareAndSwap(a, a+1) {
		s.pumps.GoWith(s.pool, s.pump, nil)
	}
}

// run is one pump.
func (s *stream[E, R]) run(w *core.Worker, _ any) {
	normal := false
	defer func() {
		if !normal {
			s.active.Add(-1) // fn called runtime.Goexit: this pump is gone with its goroutine
		}
	}()
	var buf [batchMax]E
	for {
		c, k := s.claim()
		if k == 0 {
			if s.retire() {
				normal = true
				return
			}
			continue
		}
		if !s.ordered {
			// ForEachSeq: copy the batch out, so that the feeder may reuse
			// its slots while the calls run (MapSeq's slots are reused only
			// once the consumer has taken their results).
			var zero E
			for j := range k {
				sl := &s.ring[(c+j)%s.n]
				buf[j] = sl.e
				sl.e = zero
				// Pairs with the feeder's load in hasRoom; and before the
				// load of feederWaits below (Dekker with waitRoom).
				lockfree.DekkerStoreInt64(&sl.state, c+j+1)
			}
			if s.feederWaits.Load() { // after the stores: Dekker with waitRoom
				s.signalRoom()
			}
		}
		s.compute(w, c, k, buf[:k])
		w.Poll()
	}
}

// claim claims the next batch of published items: [c, c+k), k = 0 when
// none waits or the stream has stopped.
func (s *stream[E, R]) claim() (c, k int64) {
	for {
		c = s.claimed.Load()
		avail := s.pulled.Load() - c // pairs with the feeder's Store: the slots below pulled are written
		if avail <= 0 || s.stop.Load() {
			return c, 0
		}
		k = min(max(avail/int64(2*s.workers), 1), batchMax)
		if s.claimed.CompareAndSwap(c, c+k) {
			return c, k
		}
	}
}

// retire stops the pump unless items wait (after a few yields), and reports
// whether it stopped.
func (s *stream[E, R]) retire() bool {
	for spin := 0; spin < pumpSpin && !s.ended.Load() && !s.stop.Load(); spin++ {
		runtime.Gosched()
		if s.pulled.Load() > s.claimed.Load() {
			return false
		}
	}
	s.active.Add(-1)
	// After active: pairs with kick's load (Dekker). Either the feeder saw
	// this pump gone, or this pump sees the item it published.
	if s.stop.Load() || s.pulled.Load() <= s.claimed.Load() {
		return true
	}
	for {
		a := s.active.Load()
		if a >= s.workers {
			return true // enough pumps run
		}
		if s.active.CompareAndSwap(a, a+1) {
			return false
		}
	}
}

// compute runs fn on the items [c, c+k) in order, as one task on w; buf
// holds their values for ForEachSeq. Once the stream has stopped, fn is not
// called and the item is marked skipped; so is an item of MapSeq after one
// whose fn panicked, while those before it still run: the consumer takes
// their results, in order, before the panic.
func (s *stream[E, R]) compute(w *core.Worker, c, k int64, buf []E) {
	i := c
	w.Guard(func() {
		for ; i < c+k; i++ {
			s.one(i, buf[i-c:])
		}
	}, func(pe *core.PanicError) {
		if pe != nil {
			s.failed(i, c+k, pe)
		}
	})
	if !s.ordered {
		done := s.consumed.Add(k) // the calls finished; pairs with the feeder's load in hasRoom
		s.wakeFeeder(done)
	}
}

// one runs fn on item i (ForEachSeq: on e[0]).
func (s *stream[E, R]) one(i int64, e []E) {
	var zeroE E
	var zeroR R
	if !s.ordered {
		if !s.stop.Load() {
			s.fn(e[0])
		}
		e[0] = zeroE
		return
	}
	sl := &s.ring[i%s.n]
	if s.stop.Load() || i > s.panicAt.Load() {
		sl.e = zeroE
		s.publish(i, zeroR, nil, true)
		return
	}
	v := sl.e
	sl.e = zeroE
	s.publish(i, s.fn(v), nil, false)
}

// failed records the panic of fn on item i of the batch ending before end.
func (s *stream[E, R]) failed(i, end int64, pe *core.PanicError) {
	// The panic first: whoever sees stop or panicAt finds it.
	s.firstPanic.CompareAndSwap(nil, pe)
	if !s.ordered {
		s.stop.Store(true) // calls not started are skipped, and the feeder stops
		s.signalRoom()
		return
	}
	// Skip the calls after this item, not before: their results come first.
	for old := s.panicAt.Load(); i < old && !s.panicAt.CompareAndSwap(old, i); old = s.panicAt.Load() {
	}
	var zeroR R
	var zeroE E
	s.ring[i%s.n].e = zeroE
	s.publish(i, zeroR, pe, false)
	for j := i + 1; j < end; j++ {
		s.ring[j%s.n].e = zeroE
		s.publish(j, zeroR, nil, true)
	}
}

// publish records item i's outcome (MapSeq) and wakes the consumer if it
// waits for it.
func (s *stream[E, R]) publish(i int64, r R, pe *core.PanicError, skipped bool) {
	sl := &s.ring[i%s.n]
	sl.r, sl.panicked, sl.skipped = r, pe, skipped
	// Publishes the fields; pairs with the consumer's Load. The load of
	// waiting below must not pass it (Dekker with sleep).
	lockfree.DekkerStoreInt64(&sl.state, i+1)
	if pe != nil || s.waiting.Load() == i {
		s.signal()
		// The consumer, woken for a batch of results, waits in this
		// processor's next-to-run slot: let it take them now. Left to the
		// scheduler it runs only when a pump is preempted, and the window
		// fills meanwhile and every pump stops.
		runtime.Gosched()
	}
}

// signal wakes the consumer if it sleeps; a token left over only makes it
// look again.
func (s *stream[E, R]) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
