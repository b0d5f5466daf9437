package lockfree

import (
	"runtime"
	"sync/atomic"
)

// A Queue is a FIFO of values of type T that any number of goroutines push
// to, one value at a time, and that one taker at a time empties in batches
// onto its Deque: a pool's queue of tasks forked from outside it. Values
// are stored in the queue's segments (no record per value). It follows
// crossbeam's Injector (a linked list of fixed blocks, a slot claimed by CAS
// on the tail position, then written and marked ready), with the garbage
// collector in place of its reclamation protocol: a segment the taker has
// passed goes to a free list, from which the producer that links the next
// segment takes it, and which Trim leaves to the collector. The zero Queue
// is empty and ready to use.
//
// Invariants:
//
//	Q1  tail only grows, by a producer's CAS; the producer whose CAS
//	    claims the last slot of a segment links the next one and then moves
//	    tailSeg to it. A producer whose loaded tailSeg does not hold the
//	    loaded tail position (by its start, loaded after it) retries, so a
//	    successful CAS claims a slot of the segment it loaded: a segment is
//	    given a new start before it is linked, and is reused only once tail
//	    has passed it.
//	Q2  a producer writes its slot's value and then stores the slot's seq
//	    (its position + 1); the taker reads the value only after loading
//	    that seq, and takes the slots in position order, stopping at the
//	    first whose seq is not its position + 1 (not yet written: seq
//	    values of a segment's earlier use are smaller).
//	Q3  one taker at a time (the taking flag, by CAS); head and headSeg
//	    are the taker's, handed from one taker to the next by that flag.
//	Q4  only the producer that claimed a segment's last slot takes from the
//	    free list, so there is one popper at a time and no ABA: between its
//	    load of the top and its CAS only pushes (by the taker) and Trim (a
//	    Swap to nil) happen, and either makes the CAS fail.
//	Q5  PushUnless loads its stop flag after the CAS that claims its slot
//	    (Q1). A closer that stores the flag and then loads tail (Pushed)
//	    forms a Dekker pair with it: either the producer sees the flag (and
//	    fills its slot with the zero value, which the taker moves like any
//	    other), or the closer's load of tail counts the claim.
type Queue[T any] struct {
	tail    atomic.Int64               // next position to claim; CAS by producers (Q1)
	tailSeg atomic.Pointer[segment[T]] // the segment holding tail, or the one before while the next is linked
	first   atomic.Pointer[segment[T]] // the first segment, for the first taker
	free    atomic.Pointer[segment[T]] // segments the taker has passed, linked through freeNext (Q4)
	_       [cacheLinePad]byte
	// taken is head, published for Empty; stored by the taker.
	taken  atomic.Int64
	taking atomic.Bool // a taker holds head (Q3)
	_      [cacheLinePad]byte

	head    int64       // next position to take; guarded by taking
	headSeg *segment[T] // the segment holding head; guarded by taking
}

// segmentLen is the number of slots of a segment.
const segmentLen = 256

type segment[T any] struct {
	start    atomic.Int64 // position of slots[0]; set before the segment is linked (Q1)
	next     atomic.Pointer[segment[T]]
	freeNext *segment[T] // the free list's link; written before the push that publishes it
	slots    [segmentLen]queueSlot[T]
}

type queueSlot[T any] struct {
	seq atomic.Int64 // the position + 1 of the value written here (Q2)
	v   T
}

// Push adds v at the tail and returns its position (the number of values
// pushed before it). Any goroutine.
func (q *Queue[T]) Push(v T) int64 {
	pos, _ := q.PushUnless(v, nil)
	return pos
}

// PushUnless is Push, except that it pushes the zero value of T in v's
// place if stop (when not nil) is set once the slot is claimed, and then
// reports stopped: the position is used either way, so that the taker,
// which takes the slots in order, is never held up by it (Q2, Q5). Any
// goroutine.
func (q *Queue[T]) PushUnless(v T, stop *atomic.Bool) (pos int64, stopped bool) {
	for spin := 0; ; spin++ {
		pos := q.tail.Load()
		seg := q.tailSeg.Load() // after tail: pairs with the Store of tailSeg below (Q1)
		if seg == nil {
			q.install()
			continue
		}
		off := pos - seg.start.Load()
		if off < 0 || off >= segmentLen {
			// tail moved on meanwhile, or the producer that took the last
			// slot of seg is still linking the next segment.
			if spin%16 == 15 {
				runtime.Gosched()
			}
			continue
		}
		if !q.tail.CompareAndSwap(pos, pos+1) { // claims slot off of seg (Q1); publishes it to Empty
			continue
		}
		if off == segmentLen-1 {
			next := q.newSegment()
			next.start.Store(pos + 1) // before next is linked (Q1)
			seg.next.Store(next)      // before this slot's seq: the taker follows next once past it (Q2)
			q.tailSeg.Store(next)     // producers waiting at the end of seg go on
		}
		if stop != nil && stop.Load() { // after the claim: pairs with the closer's store, then load of tail (Q5)
			var zero T
			v, stopped = zero, true
		}
		s := &seg.slots[off]
		s.v = v
		s.seq.Store(pos + 1) // publishes v; pairs with seq.Load in TakeTo (Q2)
		return pos, stopped
	}
}

// install makes the first segment, once.
func (q *Queue[T]) install() {
	s := &segment[T]{}
	if q.tailSeg.CompareAndSwap(nil, s) {
		q.first.Store(s)
	}
}

// newSegment takes a segment from the free list, or makes one. Only the
// producer that claimed the last slot of the tail segment calls it (Q4).
func (q *Queue[T]) newSegment() *segment[T] {
	for {
		s := q.free.Load()
		if s == nil {
			return &segment[T]{}
		}
		if q.free.CompareAndSwap(s, s.freeNext) { // pairs with the CAS of the taker's push (Q4)
			s.freeNext = nil
			s.next.Store(nil)
			return s
		}
	}
}

// Pushed returns the number of positions claimed so far: values pushed,
// or being pushed, since the queue was made. Any goroutine.
func (q *Queue[T]) Pushed() int64 { return q.tail.Load() }

// Len returns a snapshot of the number of values pushed and not yet taken.
// Any goroutine.
func (q *Queue[T]) Len() int64 { return q.tail.Load() - q.taken.Load() }

// Empty reports whether every value pushed so far has been taken (a
// value whose slot is claimed but not yet written counts as waiting). Any
// goroutine.
func (q *Queue[T]) Empty() bool { return q.tail.Load() == q.taken.Load() }

// TakeTo moves up to max values, oldest first, onto d, whose owner must be
// the caller, and publishes them there with one store; it returns how many.
// It takes nothing when another taker is at work, and stops at a value
// still being written (Q2). Any goroutine.
func (q *Queue[T]) TakeTo(d *Deque[T], max int) int {
	if q.Empty() || !q.taking.CompareAndSwap(false, true) { // Q3
		return 0
	}
	seg := q.headSeg
	if seg == nil {
		if seg = q.first.Load(); seg == nil { // the first producer has claimed but not installed
			q.taking.Store(false)
			return 0
		}
		q.first.Store(nil) // the segment may be reused once passed
	}
	var zero T
	n := 0
	for n < max {
		off := q.head - seg.start.Load()
		if off == segmentLen {
			next := seg.next.Load() // stored before the last slot's seq (Q2)
			if next == nil {
				break
			}
			q.recycle(seg)
			seg = next
			continue
		}
		s := &seg.slots[off]
		if s.seq.Load() != q.head+1 { // pairs with the producer's seq.Store (Q2)
			break
		}
		d.pushLocal(s.v)
		s.v = zero // a segment on the free list keeps no value alive
		q.head++
		n++
	}
	q.headSeg = seg
	if n > 0 {
		d.publish()
		q.taken.Store(q.head)
	}
	q.taking.Store(false) // hands head and headSeg to the next taker (Q3)
	return n
}

// recycle puts a segment the taker has passed on the free list: every slot
// of it has been written and taken, and tail is past it (Q1). Taker only.
func (q *Queue[T]) recycle(s *segment[T]) {
	for {
		top := q.free.Load()
		s.freeNext = top
		if q.free.CompareAndSwap(top, s) { // publishes s and its link; pairs with newSegment's Load (Q4)
			return
		}
	}
}

// Trim leaves the free segments to the garbage collector. Any goroutine.
func (q *Queue[T]) Trim() {
	if q.free.Load() != nil {
		q.free.Swap(nil) // a popper's CAS from the old top now fails (Q4)
	}
}
