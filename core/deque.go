package core

import (
	"sync/atomic"

	"github.com/gofork/gofork/internal/lockfree"
)

// deque is a worker's split work-stealing deque, after Lace: "Lace: non-blocking
// split deque for work-stealing" (T. van Dijk and J. van de Pol, Euro-Par 2014
// workshops), itself a refinement of the private/public split deques of Acar,
// Charguéraud and Rainey ("Scheduling parallel programs by work stealing with
// private deques", PPoPP 2013).
//
// Slots [0, head) hold pending frames, oldest first. The deque is split in
// three parts:
//
//	[0, tail)       stolen: taken by thieves (their frames may still be running)
//	[tail, split)   shared: thieves may take these, one at a time, from tail up
//	[split, head)   private: only the owner touches these, with no atomics at all
//
// The owner pushes and pops at head. In the common case (push into, pop from
// the private part) it touches only its own fields plus one atomic load of
// moveSplit, which on amd64 is a plain MOV: no fence, no locked instruction.
// That is what makes a fork cheaper than a Chase-Lev push/pop pair in Go,
// whose atomic stores are XCHG (full fences).
//
// Thieves see only ts = (tail, split), packed in one word so that a thief's
// compare-and-swap of tail fails whenever the owner has moved split meanwhile.
// When a thief finds the shared part empty it sets moveSplit; the owner sees
// the request at its next push and moves split up to share half of its
// private part. When the owner pops a frame that is in the shared part, it
// moves split down with a CAS (taking back half of what is left) or learns
// that its frame was stolen.
//
// Invariants (I1-I4 are referred to below):
//
//	I1  tail <= split <= head; the owner's split field always equals ts's split.
//	I2  a slot index i >= split is never read by a thief; so the owner may write
//	    slots[i] and the frame in it with plain stores while i >= split.
//	I3  a thief reads slots[t] only after its CAS moved tail from t to t+1, and
//	    the owner does not pop below t until that frame is marked done, so a
//	    stolen slot is never rewritten while a thief may still read it.
//	I4  allStolen (owner copy) == sharedAllStolen (thief copy) after every owner
//	    operation; when set, every slot below head was stolen and ts has
//	    tail == split.
//
// Go's sync/atomic operations are sequentially consistent, so each atomic
// below is documented by the happens-before edge it provides rather than by a
// memory order; see DESIGN.md, "Split deque".
type deque struct {
	// Owner-private fields: read and written only by the owning worker's
	// goroutine (no atomics needed, see I2).
	head      uint32                         // next free slot
	split     uint32                         // first private slot (the owner's copy of ts.split)
	allStolen bool                           // every frame in [0, head) was stolen (I4)
	slots     []*frameHeader                 // slot i holds the frame of fork depth i
	cache     []any                          // cache[i] is slots[i]'s frame as its typed pointer
	used      uint32                         // depths below used may hold data since the last releaseFrames; used <= len(cache)
	fast      uint32                         // a fork at a depth below fast takes Join's fast path: used, or 0 under HelpFirst
	helpFirst bool                           // the pool's policy is HelpFirst: every Join takes reach's branch, which reads it
	pub       atomic.Pointer[[]*frameHeader] // the thieves' view of slots; replaced on growth

	_ [cacheLinePad]byte

	// ts packs tail (low 32 bits) and split (high 32 bits). Thieves CAS it to
	// take a frame (tail++); the owner CASes or stores it to move split.
	ts atomic.Uint64

	_ [cacheLinePad]byte

	// sharedAllStolen is I4's thief-side copy: a thief that reads true gives up
	// on this victim without touching ts. Written by the owner only.
	sharedAllStolen atomic.Bool

	_ [cacheLinePad]byte

	// moveSplit is set by a thief that found no shared work and cleared by the
	// owner when it shares more. The owner reads it on every push (a plain
	// load on amd64); thieves read it before writing so that a victim's cache
	// line is not bounced by repeated requests.
	moveSplit atomic.Bool

	_ [cacheLinePad]byte
}

// cacheLinePad separates fields written by different workers so that they do
// not share a cache line (128 bytes covers adjacent-line prefetching).
const cacheLinePad = 128

// dequeInitialSlots is the initial capacity of a deque; it doubles as needed,
// so a recursion of depth d uses O(d) slots.
const dequeInitialSlots = 64

func packTS(tail, split uint32) uint64 { return uint64(split)<<32 | uint64(tail) }

func unpackTS(ts uint64) (tail, split uint32) { return uint32(ts), uint32(ts >> 32) }

func (d *deque) init(helpFirst bool) {
	d.helpFirst = helpFirst
	d.slots = make([]*frameHeader, dequeInitialSlots)
	d.cache = make([]any, dequeInitialSlots)
	d.publishSlots()
	d.allStolen = true // nothing pushed yet: the first push is shared at once
	d.sharedAllStolen.Store(true)
}

// reach is the branch a fork at depth i >= fast takes: the first push at
// that depth since the worker was idle, or any push of a HelpFirst worker,
// whose fast stays 0 so that the fork path of WorkFirst workers never reads
// the policy. It records that frame i will hold data and makes room for it.
// Owner only.
func (d *deque) reach(i uint32) {
	if int(i) >= len(d.cache) {
		d.grow()
	}
	d.used = max(d.used, i+1)
	if !d.helpFirst {
		d.fast = d.used
	}
}

// grow doubles the deque's capacity. Owner only.
func (d *deque) grow() {
	n := 2 * len(d.slots)
	slots := make([]*frameHeader, n)
	copy(slots, d.slots)
	cache := make([]any, n)
	copy(cache, d.cache)
	d.slots, d.cache = slots, cache
	d.publishSlots()
}

// publishSlots gives thieves their own copy of the slice header (never the
// address of d.slots, which the owner overwrites on growth). Called before
// any index beyond the old length can be shared (pairs with pub.Load in
// steal); thieves still holding the old array read the same frames there for
// every index below the old length.
func (d *deque) publishSlots() {
	view := d.slots
	d.pub.Store(&view)
}

// share makes frames of the private part available to thieves. The owner
// calls it right after a push, when allStolen is set or a thief asked for
// work (moveSplit). Owner only.
func (d *deque) share() {
	if d.allStolen {
		// Every older frame is gone (I4): the frame just pushed, at head-1,
		// becomes the only shared one. ts has tail == split, so no thief can
		// succeed a CAS against its current value and a plain store is safe.
		t := d.head - 1
		d.ts.Store(packTS(t, d.head)) // publish slot t and its frame; pairs with ts.Load in steal
		d.split = d.head
		d.allStolen = false
		d.sharedAllStolen.Store(false) // after ts: a thief that sees false finds t shared
	} else {
		// Share the older half of the private part, rounding up so that at
		// least one frame moves.
		newSplit := (d.split + d.head + 1) / 2
		for {
			old := d.ts.Load()
			tail, _ := unpackTS(old)
			if d.ts.CompareAndSwap(old, packTS(tail, newSplit)) { // publish slots below newSplit
				break
			}
			// A thief took a frame meanwhile (tail moved): retry with it.
		}
		d.split = newSplit
	}
	if d.moveSplit.Load() {
		d.moveSplit.Store(false)
	}
	if debugChecks {
		d.checkShared()
	}
}

// shareAll makes every private frame available to thieves: split moves up
// to head. It reports whether there was anything to share. Owner only.
func (d *deque) shareAll() bool {
	if d.allStolen || d.head == d.split {
		return false // nothing private (I4: allStolen implies split == head after a push)
	}
	for {
		old := d.ts.Load()
		tail, _ := unpackTS(old)
		if d.ts.CompareAndSwap(old, packTS(tail, d.head)) { // publish slots below head; pairs with ts.Load in steal
			break
		}
		// A thief took a frame meanwhile (tail moved): retry with it.
	}
	d.split = d.head
	if d.moveSplit.Load() {
		d.moveSplit.Store(false)
	}
	if debugChecks {
		d.checkShared()
	}
	return true
}

// reclaim is called by the owner when the frame at i = head-1 is in the shared
// part (i < split). It either takes the frame back into the private part and
// returns true, or finds it stolen, records that every frame below head is
// stolen (I4) and returns false. Owner only.
func (d *deque) reclaim(i uint32) bool {
	if d.allStolen {
		return false
	}
	// i < split <= head = i+1, so split == i+1: the frame is the newest shared one.
	for {
		old := d.ts.Load()
		tail, split := unpackTS(old)
		if tail >= split {
			// Thieves took every shared frame, i included.
			d.split = split
			d.allStolen = true
			d.sharedAllStolen.Store(true)
			return false
		}
		// Take back the upper half of [tail, split); since tail < split,
		// newSplit <= split-1 = i, so slot i becomes private.
		newSplit := (tail + split) / 2
		if d.ts.CompareAndSwap(old, packTS(tail, newSplit)) { // after this no thief can take i
			d.split = newSplit
			if debugChecks {
				d.checkShared()
			}
			return true
		}
	}
}

// stolenReturn restores the owner's state after the stolen frame at slot i has
// completed: everything below i was stolen too (thieves take the oldest
// first), so the deque is empty from the owner's point of view. Owner only.
func (d *deque) stolenReturn(i uint32) {
	d.head = i
	d.split = i
	if !d.allStolen {
		d.allStolen = true
		d.sharedAllStolen.Store(true)
	}
}

// steal tries to take the oldest shared frame of d. Any worker but the owner
// may call it.
func (d *deque) steal() (*frameHeader, lockfree.StealResult) {
	if d.sharedAllStolen.Load() {
		return nil, lockfree.StealEmpty
	}
	old := d.ts.Load() // pairs with the owner's store/CAS of ts in share
	tail, split := unpackTS(old)
	if tail < split {
		if !d.ts.CompareAndSwap(old, packTS(tail+1, split)) {
			return nil, lockfree.StealLost
		}
		// The CAS succeeded against the value that shared slot tail, so the
		// owner's writes of the slot and its frame happen before this read
		// (I2), and the owner will not rewrite them until the frame is done (I3).
		slots := *d.pub.Load()
		return slots[tail], lockfree.StealSuccess
	}
	if !d.moveSplit.Load() {
		d.moveSplit.Store(true) // ask the owner to share; read at its next push
	}
	return nil, lockfree.StealEmpty
}

// hasShared reports whether a thief could take a frame now. Any worker.
func (d *deque) hasShared() bool {
	if d.sharedAllStolen.Load() {
		return false
	}
	tail, split := unpackTS(d.ts.Load())
	return tail < split
}
