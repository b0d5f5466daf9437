package lockfree

import (
	"strconv"
	"sync"
	"sync/atomic"
	"weak"
)

// StealResult says what an attempt to steal found.
type StealResult uint8

const (
	StealEmpty   StealResult = iota // nothing to take
	StealLost                       // another thief or the owner won the race: worth retrying
	StealSuccess                    // something was taken
)

// StealMax is the most values one Steal takes: half of what the victim
// holds, up to StealMax. It is also the owner's margin: the owner takes its
// newest value without a CAS only while at least StealMax values lie below
// it (D3).
const StealMax = 32

// A Deque is a work-stealing deque of values of type T, stored in the ring
// itself (no record per value): the Chase-Lev deque ("Dynamic circular
// work-stealing deque", D. Chase and Y. Lev, SPAA 2005) with batch steals.
// One goroutine, the owner, pushes and pops at the bottom; any other
// goroutine (a thief) takes up to half of the values, oldest first, with
// one CAS, and moves them to a deque of its own. The zero Deque is empty
// and ready to use.
//
// Positions are int64 and never wrap; position i lives in slot i&mask of
// the current ring. top is the oldest value's position, bottom the next
// free one. Every access to a shared index is a sequentially consistent
// atomic (Go's only kind), and the values themselves are plain memory,
// handed over by those atomics:
//
//	D1  top only grows, by CAS (thieves, and the owner near the top), so
//	    a CAS on top never succeeds against a stale value; top <= bottom
//	    after every owner operation.
//	D2  the owner writes slot i and then stores bottom past i; a thief
//	    reads a slot only after it loaded that bottom and its CAS on top
//	    claimed the slot's position, so the write happens before the read.
//	D3  a thief that loaded top t and then bottom b claims [t, t+k) with
//	    k <= min(StealMax, ceil((b-t)/2)) and k <= b-t. The owner takes
//	    position p without a CAS only after storing bottom = p (a Dekker
//	    store) and then loading top t' with p - t' >= StealMax; else it
//	    restores bottom and takes the oldest value by CAS, as a thief does.
//	    So no position is taken twice (the proof is in DESIGN.md, "Scope:
//	    dynamic tasks").
//	D4  a thief reads the slots it claimed after its CAS, from the ring it
//	    loaded before the CAS, and then adds their number to read. The
//	    owner writes a slot again (the ring wraps) only once every position
//	    below top has been read (read plus its own CAS takes equals top), or
//	    in a ring it has just made; a ring it replaced (grow, trim) it never
//	    writes again. So a thief never reads a slot being rewritten, and
//	    the ring it loaded holds what it claimed.
//	D5  the owner replaces the ring with a small one (Trim) only when it
//	    finds the deque empty, so it copies nothing.
//
// A push costs the owner one atomic store, a pop one Dekker store (or one
// CAS near the top): one fence each on amd64. A steal costs the thief one
// CAS and an atomic add for up to StealMax values.
type Deque[T any] struct {
	top  atomic.Int64 // oldest value's position; CAS by thieves and by the owner near the top
	read atomic.Int64 // positions below top whose slots thieves have read; Add by thieves
	_    [cacheLinePad]byte
	// bottom is the next free position; stored by the owner only.
	bottom atomic.Int64
	ring   atomic.Pointer[ring[T]] // replaced by the owner (grow, trim); loaded by thieves
	_      [cacheLinePad]byte

	// The owner's own, never read by thieves.
	bot     int64    // == bottom
	cur     *ring[T] // == ring
	topSeen int64    // top as last loaded: a lower bound of top
	// limit is the first position the owner may not write in cur without
	// checking read (D4): positions below it map to slots whose previous
	// occupants have all been read.
	limit    int64
	ownTaken int64        // positions below top the owner took by CAS (D4: read by the owner itself)
	rings    *RingPool[T] // where large rings come from and go to (Trim)
}

type ring[T any] struct {
	slots []T
	mask  int64
}

func newRing[T any](n int) *ring[T] {
	return &ring[T]{slots: make([]T, n), mask: int64(n - 1)}
}

// dequeInitial is a deque's first capacity; it doubles as needed.
const dequeInitial = 64

// DequeKeep is the largest ring Trim keeps. A burst of pending values (a
// Group of 10^6 tasks forked from one task) grows the ring to the burst's
// size, and the slots thieves took from go on holding their values: without
// the trim, a worker would hold tens of MiB of ring, and the closures it
// points at, for the rest of the pool's life after one such burst. Its
// owner keeps the ring while it stays busy (the next burst reuses it) and
// trims it when it goes idle; growing back costs one copy of each value per
// doubling, which the burst that needs it amortizes.
const DequeKeep = 1024

// Push adds v at the bottom. Owner only.
func (d *Deque[T]) Push(v T) {
	d.pushLocal(v)
	d.bottom.Store(d.bot) // publish the slot; pairs with the thieves' bottom.Load in Steal (D2)
}

// pushLocal writes v at the bottom without publishing it; publish makes
// the values pushed so far visible with one store. Owner only.
func (d *Deque[T]) pushLocal(v T) {
	b := d.bot
	if b >= d.limit {
		d.makeRoom(b)
	}
	r := d.cur
	r.slots[b&r.mask] = v
	d.bot = b + 1
}

// publish stores bottom for the values pushed with pushLocal (D2).
func (d *Deque[T]) publish() { d.bottom.Store(d.bot) }

// makeRoom makes position b writable: in the current ring if every slot it
// wraps onto has been read (D4) and the ring has room, else in a new ring.
// Owner only.
func (d *Deque[T]) makeRoom(b int64) {
	// read before top: read never exceeds the positions claimed, so if the
	// count read then equals top loaded after it, every position below
	// that top has been read (loaded the other way round, reads of later
	// claims could make up for an earlier claim still being read).
	read := d.read.Load() // pairs with the thieves' read.Add after their reads (D4)
	t := d.top.Load()
	d.topSeen = t
	if r := d.cur; r != nil {
		n := int64(len(r.slots))
		if read+d.ownTaken == t {
			d.limit = t + n
		}
		if b < d.limit {
			return
		}
		if b-t < n/2 {
			// Mostly empty, but a thief is still reading a slot this
			// position would overwrite: a fresh ring of the same size.
			n /= 2
		}
		d.replace(int(2*n), t, b)
		return
	}
	d.replace(dequeInitial, t, b)
}

// replace copies the values [t, b) into a new ring of n slots, or a larger
// one from the deque's RingPool, and publishes it; the old ring is never
// written again (D4). Owner only.
func (d *Deque[T]) replace(n int, t, b int64) {
	for int64(n) <= b-t { // room for [t, b] at least
		n *= 2
	}
	var r *ring[T]
	if d.rings != nil && n > DequeKeep {
		r = d.rings.get(n)
	}
	if r == nil {
		r = newRing[T](n)
	}
	n = len(r.slots)
	if old := d.cur; old != nil {
		for i := t; i < b; i++ {
			r.slots[i&r.mask] = old.slots[i&old.mask]
		}
	}
	d.cur = r
	d.limit = t + int64(n) // a fresh ring: no slot holds a value a thief may still read
	d.ring.Store(r)        // before bottom moves past the old ring's values; pairs with ring.Load in Steal
}

// Pop takes the newest value, or reports false when the deque is empty.
// Owner only. For a large T, PopTo spares a copy.
func (d *Deque[T]) Pop() (v T, ok bool) {
	ok = d.PopTo(&v)
	return v, ok
}

// PopTo moves the newest value into *v and reports true, or reports false
// when the deque is empty (leaving *v alone). Owner only.
//
// The value goes straight from its slot into *v: returned by value, a
// 40-byte T was copied twice more on the way to the caller's variable, and
// on amd64 those copies, wider stores read back by narrower loads, stalled
// on store forwarding for longer than the pop's fence took.
func (d *Deque[T]) PopTo(v *T) bool {
	b := d.bot - 1
	if b < d.topSeen {
		return false
	}
	if b-d.topSeen >= StealMax {
		// Far from the thieves: claim slot b, then look at top (D3).
		DekkerStoreInt64(&d.bottom, b) // before the load of top; pairs with the thieves' loads of top, then bottom
		t := d.top.Load()
		d.topSeen = t
		if b-t >= StealMax {
			d.bot = b
			d.moveOut(b, v)
			return true
		}
		d.bottom.Store(b + 1) // too near the top: undo, and take the oldest by CAS
	}
	for {
		t := d.top.Load()
		d.topSeen = t
		if t > b {
			return false
		}
		if d.top.CompareAndSwap(t, t+1) { // claims position t, as a thief would (D1, D3)
			d.ownTaken++
			d.moveOut(t, v)
			return true
		}
	}
}

// moveOut moves the value at position i, which the owner has just claimed,
// into *v, and clears its slot so that the ring does not keep it alive.
func (d *Deque[T]) moveOut(i int64, v *T) {
	var zero T
	r := d.cur
	s := &r.slots[i&r.mask]
	*v = *s
	*s = zero
}

// UseRings makes the deque take the large rings it grows into from pool,
// and give them back there when it trims them. Owner only.
func (d *Deque[T]) UseRings(pool *RingPool[T]) { d.rings = pool }

// Trim replaces a ring larger than DequeKeep with a small one if the deque
// is empty (D5), and reports whether it did. The large ring goes to the
// deque's RingPool (UseRings), cleared, once every slot a thief claimed has
// been read (D4), where a deque that grows takes it, until the garbage
// collector reclaims it. Owner only.
func (d *Deque[T]) Trim() bool {
	r := d.cur
	if r == nil || len(r.slots) <= DequeKeep {
		return false
	}
	read := d.read.Load() // before top, as in makeRoom (D4)
	t := d.top.Load()
	d.topSeen = t
	if t != d.bot {
		return false
	}
	d.replace(dequeInitial, t, t) // empty: no thief can take anything, so nothing to copy
	if d.rings != nil && read+d.ownTaken == t {
		// No thief reads r any more: it may be written again, by any deque.
		clear(r.slots)
		d.rings.put(r)
	}
	return true
}

// A RingPool keeps the large rings that deques of values of type T have
// trimmed, for deques that grow, until the garbage collector reclaims them:
// a burst of values that grows a deque's ring again and again (a Group of
// 10^6 tasks forked from one task, now and then) finds a ring of the size
// it needs, while a pool that stays idle until the next collection keeps no
// memory for it. It holds the rings by weak pointers, so that only a deque
// keeps one alive. The zero RingPool is ready to use.
type RingPool[T any] struct {
	mu   sync.Mutex
	held []weak.Pointer[ring[T]] // guarded by mu; newest last
}

// ringsHeld bounds the rings a RingPool holds.
const ringsHeld = 8

func (p *RingPool[T]) put(r *ring[T]) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.held) == ringsHeld {
		copy(p.held, p.held[1:])
		p.held = p.held[:ringsHeld-1]
	}
	p.held = append(p.held, weak.Make(r))
}

// get returns a ring of at least n slots, the newest such it holds, or nil.
func (p *RingPool[T]) get(n int) *ring[T] {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.held) - 1; i >= 0; i-- {
		r := p.held[i].Value()
		if r != nil && len(r.slots) < n {
			continue
		}
		p.held = append(p.held[:i], p.held[i+1:]...) // taken, or collected
		if r != nil {
			return r
		}
	}
	return nil
}

// Steal moves up to half of d's values (at most StealMax), oldest first,
// to into, whose owner must be the caller: it returns the oldest and
// pushes the others on into, where they are visible to other thieves at
// once. Any goroutine but d's owner.
func (d *Deque[T]) Steal(into *Deque[T]) (v T, res StealResult) {
	t := d.top.Load()
	b := d.bottom.Load() // after top: pairs with the owner's bottom stores (D2, D3)
	n := b - t
	if n <= 0 {
		return v, StealEmpty
	}
	k := min((n+1)/2, StealMax)
	r := d.ring.Load() // before the CAS: it holds [t, t+k) (D4)
	if !d.top.CompareAndSwap(t, t+k) {
		return v, StealLost // another thief or the owner won
	}
	v = r.slots[t&r.mask]
	for i := t + 1; i < t+k; i++ {
		into.pushLocal(r.slots[i&r.mask])
	}
	d.read.Add(k) // the slots are read: the owner may write them again (D4)
	if k > 1 {
		into.publish()
	}
	return v, StealSuccess
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

// Check returns a description of the first invariant the deque breaks as
// its owner sees it, or "": D1 (top <= bottom), the owner's copies of
// bottom and the ring, and its wrap bound (limit at most one ring past
// top). Owner only; for the invariant checks of a debug build.
func (d *Deque[T]) Check() string {
	// read before top: thieves raise top and then read, both only up, so
	// a read loaded first is at most the top loaded after it, whatever
	// thieves do meanwhile; loaded the other way round, a steal between the
	// two loads would show read above a stale top.
	r := d.read.Load()
	t, b := d.top.Load(), d.bottom.Load()
	switch {
	case t > b:
		return "top " + itoa(t) + " above bottom " + itoa(b)
	case b != d.bot:
		return "bottom " + itoa(b) + " but the owner's copy is " + itoa(d.bot)
	case d.ring.Load() != d.cur:
		return "the ring is not the owner's"
	case d.cur != nil && d.limit > t+int64(len(d.cur.slots)):
		return "the wrap bound " + itoa(d.limit) + " is more than a ring past top " + itoa(t)
	case r > t:
		return "read " + itoa(r) + " above top " + itoa(t)
	}
	return ""
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }
