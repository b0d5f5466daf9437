package par

import (
	"runtime"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/lockfree"
)

// The consumer of MapSeq: it takes the results in order, on the goroutine
// that ranges, and does not wake for every item. While item i is not done
// it sleeps until item t is, t being the end of the batch it waits for:
// half a window past i, or the last item published so far if that comes
// first (a sequence that yields k items and then blocks has all k results
// taken: the pump that finishes item k-1 wakes the consumer). It announces
// t (waiting), then looks again; the pump that completes an item stores its
// state, then looks at waiting (Dekker): one of them sees the other, so no
// wake-up is lost. The feeder wakes it when the sequence ends.

// take returns the result of item i, waiting for it, or reports false when
// the sequence ended before item i.
func (s *stream[E, R]) take(i int64) (R, *core.PanicError, bool) {
	sl := &s.ring[i%s.n]
	var zero R
	for sl.state.Load() != i+1 { // pairs with the pump's Store in publish
		if s.never(i) {
			return zero, nil, false
		}
		s.sleep(i)
	}
	r, pe, skipped := sl.r, sl.panicked, sl.skipped
	sl.r, sl.panicked, sl.skipped = zero, nil, false
	if skipped {
		// A call of fn panicked before this item's turn: report that
		// panic, not a zero result.
		pe := s.firstPanic.Load()
		return zero, pe, pe != nil
	}
	return r, pe, true
}

// ready reports whether item t is done.
func (s *stream[E, R]) ready(t int64) bool { return s.ring[t%s.n].state.Load() == t+1 }

// never reports whether item i will never come: the feeder has returned
// before publishing it. ended is stored after the last pulled.
func (s *stream[E, R]) never(i int64) bool { return s.ended.Load() && i >= s.pulled.Load() }

// sleep waits until item i is done, or the batch it waits for is, or the
// sequence ends.
func (s *stream[E, R]) sleep(i int64) {
	t := min(i+max(s.n/2, 1)-1, s.pulled.Load()-1)
	if t < i || s.ready(t) {
		t = i // item i is not published yet, or the batch is there but not item i: wait for it alone
	}
	if s.spinUntil(func() bool { return s.ready(i) || s.ready(t) || s.never(i) }) {
		return
	}
	lockfree.DekkerStoreInt64(&s.waiting, t) // before the loads below (Dekker with publish)
	if !s.ready(i) && !s.ready(t) && !s.never(i) {
		if !s.help() {
			core.Blocking(func() { <-s.wake }) // inside a task, a spare stands in meanwhile
		}
	}
	s.waiting.Store(-1)
}

// streamSpin is how long the consumer and the feeder look again, yielding
// their processor between looks, before they sleep, when a processor is
// free of pumps: a goroutine woken onto an idle processor waits for its
// thread to be woken, 70-300 µs on a virtual machine, which the window
// would drain in; a goroutine that yields is still runnable, and runs as
// soon as that processor is free. When every processor pumps, they sleep
// at once: spinning there would take the processors from the pumps (a
// goroutine that yields goes behind the others in the run queue, and two
// that yield take turns while a pump waits), and a pump that wakes them
// hands them its own processor anyway (see publish).
const streamSpin = 50 * time.Microsecond

// spinUntil yields the processor until done reports true or streamSpin
// has passed, while a processor is free of pumps, and reports whether done
// did.
func (s *stream[E, R]) spinUntil(done func() bool) bool {
	if int(s.active.Load()) >= runtime.GOMAXPROCS(0) {
		return false
	}
	var start time.Time
	for k := 0; ; k++ {
		runtime.Gosched()
		if done() {
			return true
		}
		if k%16 == 15 {
			if start.IsZero() {
				start = time.Now()
			} else if time.Since(start) > streamSpin {
				return false
			}
		}
	}
}

// help runs a batch of the stream's items on the consumer's worker, if the
// consumer is a task of the stream's pool and a batch is waiting, and
// reports whether it did.
func (s *stream[E, R]) help() bool {
	if core.CurrentPool() != s.pool {
		return false
	}
	return core.RunValue(s.pool, func(w *core.Worker) bool {
		c, k := s.claim()
		if k == 0 {
			return false
		}
		var buf [batchMax]E
		s.compute(w, c, k, buf[:k])
		return true
	})
}
