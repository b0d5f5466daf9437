package lockfree

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// size returns the stress tests' count: stressN, shrunk under -short.
func size() int {
	if testing.Short() {
		return stressN / 10
	}
	return stressN
}

// item is a numbered value, for exactly-once accounting; pad makes it as
// large as a job record.
type item struct {
	id int
	_  [4]uintptr
}

// dequeRig is the harness of the deque stress tests: n numbered items, how
// many times each was taken, and thieves, each the owner of a deque of its
// own, that steal batches (from the owner and from each other) and pop
// what they stole until finish.
type dequeRig struct {
	d       Deque[item]
	rings   RingPool[item]
	own     []Deque[item] // the thieves' deques
	taken   []atomic.Int32
	stolen  atomic.Int64
	batches atomic.Int64
	stop    atomic.Bool
	hold    atomic.Bool // thieves start no steal while it is set
	wg      sync.WaitGroup
}

func newDequeRig(n, thieves int) *dequeRig {
	r := &dequeRig{own: make([]Deque[item], thieves), taken: make([]atomic.Int32, n)}
	for k := range thieves {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			mine := &r.own[k]
			rng := rand.New(rand.NewPCG(uint64(k), 99))
			for !r.stop.Load() {
				if r.hold.Load() {
					runtime.Gosched()
					continue
				}
				victim := &r.d
				if thieves > 1 && rng.IntN(4) == 0 {
					if v := rng.IntN(thieves); v != k {
						victim = &r.own[v]
					}
				}
				before := mine.Len()
				if x, res := victim.Steal(mine); res == StealSuccess {
					r.take(x)
					r.stolen.Add(1 + mine.Len() - before)
					r.batches.Add(1)
				} else if res == StealEmpty {
					runtime.Gosched()
				}
				// Pop some of what was stolen, leave the rest to other
				// thieves for a while.
				for p := rng.IntN(StealMax); p > 0; p-- {
					x, ok := mine.Pop()
					if !ok {
						break
					}
					r.take(x)
				}
			}
			for {
				x, ok := mine.Pop()
				if !ok {
					break
				}
				r.take(x)
			}
		}()
	}
	return r
}

// take counts x as taken (by the owner or a thief).
func (r *dequeRig) take(x item) { r.taken[x.id].Add(1) }

// runOwner pushes the n items in bursts of 1 to pushMax, popping up to
// popMax-1 after each burst, then pops until the deque is empty; what it
// pops it counts taken.
func (r *dequeRig) runOwner(n int, rng *rand.Rand, pushMax, popMax int) {
	for next := 0; next < n; {
		for b := 1 + rng.IntN(pushMax); b > 0 && next < n; b-- {
			r.d.Push(item{id: next})
			next++
		}
		for p := rng.IntN(popMax); p > 0; p-- {
			if x, ok := r.d.Pop(); ok {
				r.take(x)
			}
		}
		if rng.IntN(8) == 0 {
			runtime.Gosched()
		}
	}
	for {
		x, ok := r.d.Pop()
		if !ok {
			return
		}
		r.take(x)
	}
}

// finish stops the thieves and fails t unless every item was taken exactly
// once.
func (r *dequeRig) finish(t *testing.T, thieves int) {
	t.Helper()
	r.stop.Store(true)
	r.wg.Wait()
	for i := range r.taken {
		if c := r.taken[i].Load(); c != 1 {
			t.Fatalf("thieves=%d: item %d taken %d times", thieves, i, c)
		}
	}
}

// TestDequeStress: one owner pushes and pops while thieves steal batches
// from it and from each other; every item is taken exactly once, across
// ring growth and wrap-around.
func TestDequeStress(t *testing.T) {
	for _, thieves := range []int{1, 3} {
		n := size()
		r := newDequeRig(n, thieves)
		r.runOwner(n, rand.New(rand.NewPCG(2, uint64(thieves))), 300, 200)
		r.finish(t, thieves)
		t.Logf("thieves=%d: %d items, %d stolen in %d batches", thieves, n, r.stolen.Load(), r.batches.Load())
	}
}

// TestDequeSmallStress keeps the owner's deque near empty, where its pops
// race the thieves on top (D3), with bursts of one to a few values.
func TestDequeSmallStress(t *testing.T) {
	for _, thieves := range []int{1, 3} {
		n := size()
		r := newDequeRig(n, thieves)
		r.runOwner(n, rand.New(rand.NewPCG(5, uint64(thieves))), 2*StealMax+3, 2*StealMax+3)
		r.finish(t, thieves)
	}
}

// TestDequeTrimStress: the owner pushes bursts, some far larger than the
// ring a deque keeps, and pops until it finds the deque empty, while
// thieves steal; every item is taken exactly once, and an empty deque
// trimmed by its owner keeps a ring of at most DequeKeep slots (D5).
func TestDequeTrimStress(t *testing.T) {
	for _, thieves := range []int{1, 3} {
		// Enough items for several bursts past DequeKeep, however scaled.
		n := max(3*size()/4, 16*DequeKeep)
		r := newDequeRig(n, thieves)
		r.d.UseRings(&r.rings) // large rings go round through the pool
		rng := rand.New(rand.NewPCG(7, uint64(thieves)))
		trims := 0
		for next := 0; next < n; {
			// The thieves hold off while the burst is pushed, so that it
			// grows the ring (under qemu they kept up with the pushes);
			// one already inside a steal may still take a batch.
			r.hold.Store(true)
			for burst := 2*DequeKeep + rng.IntN(6*DequeKeep); burst > 0 && next < n; burst-- {
				r.d.Push(item{id: next})
				next++
			}
			grown := r.d.Cap() > DequeKeep
			r.hold.Store(false)
			for {
				if x, ok := r.d.Pop(); ok {
					r.take(x)
				} else if r.d.Len() == 0 {
					break
				}
			}
			r.d.Trim()
			if c := r.d.Cap(); c > DequeKeep {
				t.Fatalf("thieves=%d: an emptied deque kept a ring of %d slots", thieves, c)
			}
			if grown {
				trims++
			}
		}
		r.finish(t, thieves)
		if trims == 0 {
			t.Fatalf("thieves=%d: no burst grew the ring past DequeKeep", thieves)
		}
	}
}

// TestDequeOrder: alone, the owner pops newest first (oldest first among
// the StealMax values nearest the top), and a steal takes the oldest half,
// at most StealMax, keeping their order in the thief's deque.
func TestDequeOrder(t *testing.T) {
	var d, thief Deque[item]
	if _, ok := d.Pop(); ok || d.Cap() != 0 {
		t.Fatal("a zero Deque is not empty")
	}
	const n = 200 // past the first ring: it grows
	for i := range n {
		d.Push(item{id: i})
	}
	x, res := d.Steal(&thief)
	if res != StealSuccess || x.id != 0 || thief.Len() != StealMax-1 {
		t.Fatalf("Steal = %v, %v with %d moved; want item 0 and %d moved", x.id, res, thief.Len(), StealMax-1)
	}
	// Fewer than StealMax values: the thief's own pops take the oldest.
	for want := 1; want < StealMax; want++ {
		if x, ok := thief.Pop(); !ok || x.id != want {
			t.Fatalf("the thief's Pop = %v, %v; want item %d", x.id, ok, want)
		}
	}
	// d holds [StealMax, n): newest first while StealMax values lie below,
	// then oldest first.
	var got []int
	for {
		x, ok := d.Pop()
		if !ok {
			break
		}
		got = append(got, x.id)
	}
	want := []int{}
	for i := n - 1; i >= 2*StealMax; i-- {
		want = append(want, i)
	}
	for i := StealMax; i < 2*StealMax; i++ {
		want = append(want, i)
	}
	if len(got) != len(want) {
		t.Fatalf("popped %d values, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("pop %d took item %d, want %d", i, got[i], want[i])
		}
	}
	if _, res := d.Steal(&thief); res != StealEmpty {
		t.Fatalf("Steal of an empty deque = %v", res)
	}
}

// TestDequeStealHalf: a steal takes ceil(n/2) of n values, at most
// StealMax.
func TestDequeStealHalf(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 8, 2*StealMax - 1, 2 * StealMax, 5 * StealMax} {
		var d, thief Deque[item]
		for i := range n {
			d.Push(item{id: i})
		}
		if _, res := d.Steal(&thief); res != StealSuccess {
			t.Fatalf("n=%d: Steal = %v", n, res)
		}
		if got, want := 1+thief.Len(), int64(min((n+1)/2, StealMax)); got != want {
			t.Fatalf("n=%d: stole %d, want %d", n, got, want)
		}
		if got, want := d.Len(), int64(n)-1-thief.Len(); got != want {
			t.Fatalf("n=%d: %d left, want %d", n, got, want)
		}
	}
}

// TestDequeOffsets: the index thieves CAS sits on a cache line of its own,
// away from the owner's.
func TestDequeOffsets(t *testing.T) {
	var d Deque[item]
	if off := unsafe.Offsetof(d.bottom) - unsafe.Offsetof(d.top); off < cacheLinePad {
		t.Fatalf("top and bottom are %d bytes apart, want at least %d", off, cacheLinePad)
	}
	if off := unsafe.Offsetof(d.bot) - unsafe.Offsetof(d.bottom); off < cacheLinePad {
		t.Fatalf("bottom and the owner's fields are %d bytes apart, want at least %d", off, cacheLinePad)
	}
}

// TestDequePopTo: PopTo moves each value into the caller's variable once,
// newest first far from the top, leaves the variable alone when the deque
// is empty, and clears the slot it took, so that the ring keeps nothing
// alive.
func TestDequePopTo(t *testing.T) {
	var d Deque[*int]
	vals := make([]int, 3*StealMax)
	for i := range vals {
		vals[i] = i
		d.Push(&vals[i])
	}
	seen := make([]bool, len(vals))
	for range vals {
		var v *int
		if !d.PopTo(&v) || v == nil {
			t.Fatal("PopTo found nothing in a deque holding values")
		}
		if seen[*v] {
			t.Fatalf("value %d popped twice", *v)
		}
		seen[*v] = true
	}
	if v := &vals[0]; d.PopTo(&v) || v != &vals[0] {
		t.Fatal("PopTo on an empty deque reported a value or wrote the variable")
	}
	for i, s := range d.cur.slots {
		if s != nil {
			t.Fatalf("slot %d still holds a value after every value was popped", i)
		}
	}
}
