package lockfree

import "sync/atomic"

// StealResult says what an attempt to steal found.
type StealResult uint8

const (
	StealEmpty   StealResult = iota // nothing to take
	StealLost                       // another thief or the owner won the race: worth retrying
	StealSuccess                    // something was taken
)

// A Deque is a work-stealing deque of *T: the Chase-Lev deque ("Dynamic
// circular work-stealing deque", D. Chase and Y. Lev, SPAA 2005), with every
// access through sequentially consistent atomics, which is the model the
// paper's proof assumes (Lê, Pop, Cohen and Zappa Nardelli, PPoPP 2013, give
// the weaker orders C11 would allow; Go has only these). One goroutine, the
// owner, pushes and pops at the bottom; any other goroutine (a thief) steals
// from the top. The zero Deque is empty and ready to use.
//
// Invariants:
//
//	J1  top only grows (thieves and the owner's last-element pop CAS it
//	    up by one), so a CAS on top never succeeds against a stale value
//	    by ABA.
//	J2  the values are slots [top, bottom) of ring; a thief reads slot t
//	    only with t < bottom as it loaded it, and claims it by CAS of top
//	    from t.
//	J3  a ring is never written again once replaced by grow or trim: a
//	    thief still holding it reads the values it held, which grow copied,
//	    and its CAS on top decides whether the one it read is its to take.
//	J4  trim replaces the ring only while the deque is empty (top ==
//	    bottom, seen by the owner, the only one who pushes), so it copies
//	    nothing: a thief's CAS from a top it read before the deque emptied
//	    fails (J1), and one that reads a bottom above top afterwards read
//	    it after a push, which stored the new ring first.
//
// A push and a pop each cost the owner an atomic store (a fence on amd64),
// where a split deque's private part costs none: it is for tasks of a
// microsecond and up, not for a fork fast path.
type Deque[T any] struct {
	top atomic.Int64 // next value to steal; CAS by thieves and by the owner's last pop
	_   [cacheLinePad - 8]byte
	// bottom is the next free slot; written by the owner only.
	bottom atomic.Int64
	ring   atomic.Pointer[ring[T]] // replaced by the owner on growth and trim
	_      [cacheLinePad - 16]byte
}

type ring[T any] struct {
	slots []atomic.Pointer[T]
	mask  int64
}

func newRing[T any](n int) *ring[T] {
	return &ring[T]{slots: make([]atomic.Pointer[T], n), mask: int64(n - 1)}
}

// dequeInitial is a deque's first capacity; it doubles as needed.
const dequeInitial = 32

// DequeKeep is the largest ring a deque keeps once its owner finds it empty.
// A burst of pending values (a Group of 10^6 tasks forked from one task)
// grows the ring to the burst's size, and its slots go on pointing at the
// values taken from them: without the trim, a worker would hold 8 MiB of
// ring, and every task record it points at, for the rest of the pool's life
// after one such burst. Growing back costs one copy of each value per
// doubling, which the burst that needs it amortizes.
const DequeKeep = 1024

// Push adds x at the bottom. Owner only.
func (d *Deque[T]) Push(x *T) {
	b := d.bottom.Load()
	t := d.top.Load()
	r := d.ring.Load()
	if r == nil || b-t >= int64(len(r.slots)) {
		r = d.grow(r, t, b)
	}
	r.slots[b&r.mask].Store(x)
	d.bottom.Store(b + 1) // publish slot b; pairs with bottom.Load in Steal
}

// grow copies the values [t, b) into a ring twice as large and publishes it
// (J3). Owner only.
func (d *Deque[T]) grow(old *ring[T], t, b int64) *ring[T] {
	n := dequeInitial
	if old != nil {
		n = 2 * len(old.slots)
	}
	r := newRing[T](n)
	for i := t; i < b; i++ {
		r.slots[i&r.mask].Store(old.slots[i&old.mask].Load())
	}
	d.ring.Store(r) // before bottom moves past the old capacity
	return r
}

// Pop takes the newest value, or returns nil. Owner only. An owner that
// finds the deque empty drops a ring larger than DequeKeep for a small one.
func (d *Deque[T]) Pop() *T {
	b := d.bottom.Load() - 1
	r := d.ring.Load()
	if r == nil {
		return nil
	}
	// Claim slot b before looking at top; pairs with the thieves' loads of
	// top, then bottom.
	DekkerStoreInt64(&d.bottom, b)
	t := d.top.Load()
	if t > b { // empty: undo
		d.bottom.Store(b + 1)
		if len(r.slots) > DequeKeep {
			d.ring.Store(newRing[T](dequeInitial)) // J4: empty, so nothing to copy
		}
		return nil
	}
	x := r.slots[b&r.mask].Load()
	if t == b {
		// The last value: race the thieves for it on top (J1).
		if !d.top.CompareAndSwap(t, t+1) {
			x = nil // a thief took it
		}
		d.bottom.Store(b + 1)
	}
	return x
}

// Steal takes the oldest value. Any goroutine but the owner.
func (d *Deque[T]) Steal() (*T, StealResult) {
	t := d.top.Load()
	b := d.bottom.Load() // after top: pairs with the owner's bottom stores
	if t >= b {
		return nil, StealEmpty
	}
	r := d.ring.Load()
	x := r.slots[t&r.mask].Load() // J2: t < b, so slot t holds a value pushed before b was stored
	if !d.top.CompareAndSwap(t, t+1) {
		return nil, StealLost // another thief or the owner's last pop won it
	}
	return x, StealSuccess
}

// Len returns a snapshot of the number of values waiting; any goroutine.
func (d *Deque[T]) Len() int64 {
	return max(d.bottom.Load()-d.top.Load(), 0)
}

// Cap returns the number of slots of the current ring (0 before the first
// push); any goroutine.
func (d *Deque[T]) Cap() int {
	if r := d.ring.Load(); r != nil {
		return len(r.slots)
	}
	return 0
}
