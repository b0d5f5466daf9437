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

// item is a numbered value, for exactly-once accounting.
type item struct{ id int }

// dequeRig is the harness of the deque stress tests: n numbered items, how
// many times each was taken, and thieves that steal until finish.
type dequeRig struct {
	d      Deque[item]
	items  []item
	taken  []atomic.Int32
	stolen atomic.Int64
	stop   atomic.Bool
	hold   atomic.Bool // thieves start no steal while it is set
	wg     sync.WaitGroup
}

func newDequeRig(n, thieves int) *dequeRig {
	r := &dequeRig{items: make([]item, n), taken: make([]atomic.Int32, n)}
	for i := range r.items {
		r.items[i].id = i
	}
	for range thieves {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for !r.stop.Load() {
				if r.hold.Load() {
					runtime.Gosched()
					continue
				}
				if x, res := r.d.Steal(); res == StealSuccess {
					r.take(x)
					r.stolen.Add(1)
				} else if res == StealEmpty {
					runtime.Gosched()
				}
			}
		}()
	}
	return r
}

// take counts x as taken (by the owner or a thief).
func (r *dequeRig) take(x *item) { r.taken[x.id].Add(1) }

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

// TestDequeStress: one owner pushes and pops while thieves steal; every
// item is taken exactly once, across ring growth.
func TestDequeStress(t *testing.T) {
	for _, thieves := range []int{1, 3} {
		n := size()
		r := newDequeRig(n, thieves)
		rng := rand.New(rand.NewPCG(2, uint64(thieves)))
		for next := 0; next < n || r.d.Len() > 0; {
			for b := 1 + rng.IntN(300); b > 0 && next < n; b-- {
				r.d.Push(&r.items[next])
				next++
			}
			for p := rng.IntN(200); p > 0; p-- {
				if x := r.d.Pop(); x != nil {
					r.take(x)
				}
			}
			if rng.IntN(8) == 0 {
				runtime.Gosched()
			}
		}
		r.finish(t, thieves)
		t.Logf("thieves=%d: %d items, %d stolen", thieves, n, r.stolen.Load())
	}
}

// TestDequeTrimStress: the owner pushes bursts, some far larger than the
// ring a deque keeps, and pops until it finds the deque empty, while
// thieves steal; every item is taken exactly once, and a deque found empty
// by its owner keeps a ring of at most DequeKeep slots (J4).
func TestDequeTrimStress(t *testing.T) {
	for _, thieves := range []int{1, 3} {
		// Enough items for several bursts past DequeKeep, however scaled.
		n := max(3*size()/4, 16*DequeKeep)
		r := newDequeRig(n, thieves)
		rng := rand.New(rand.NewPCG(7, uint64(thieves)))
		trims := 0
		for next := 0; next < n; {
			// The thieves hold off while the burst is pushed, so that it
			// grows the ring (under qemu they kept up with the pushes);
			// one already inside a steal may still take an item.
			r.hold.Store(true)
			for burst := 2*DequeKeep + rng.IntN(6*DequeKeep); burst > 0 && next < n; burst-- {
				r.d.Push(&r.items[next])
				next++
			}
			grown := r.d.Cap() > DequeKeep
			r.hold.Store(false)
			for {
				if x := r.d.Pop(); x != nil {
					r.take(x)
				} else if r.d.Len() == 0 {
					break
				}
			}
			r.d.Pop() // finds it empty: trims
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

// TestDequeOwnerOrder: alone, the owner pops newest first and a thief
// steals oldest first.
func TestDequeOwnerOrder(t *testing.T) {
	var d Deque[item]
	if d.Pop() != nil || d.Cap() != 0 {
		t.Fatal("a zero Deque is not empty")
	}
	items := make([]item, 100) // past the first ring: it grows
	for i := range items {
		items[i].id = i
		d.Push(&items[i])
	}
	if x, res := d.Steal(); res != StealSuccess || x.id != 0 {
		t.Fatalf("Steal = %v, %v; want item 0", x, res)
	}
	for want := 99; want >= 1; want-- {
		if x := d.Pop(); x == nil || x.id != want {
			t.Fatalf("Pop = %v, want item %d", x, want)
		}
	}
	if x, res := d.Steal(); x != nil || res != StealEmpty {
		t.Fatalf("Steal of an empty deque = %v, %v", x, res)
	}
}

// TestDequeOffsets: the index a thief CASes sits on a cache line of its own,
// away from the owner's.
func TestDequeOffsets(t *testing.T) {
	var d Deque[item]
	if off := unsafe.Offsetof(d.bottom) - unsafe.Offsetof(d.top); off < cacheLinePad {
		t.Fatalf("top and bottom are %d bytes apart, want at least %d", off, cacheLinePad)
	}
}
