package core

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gofork/gofork/internal/lockfree"
)

// The owner side of the deque as Join drives it, for tests: push stores the
// frame in the next slot, pop takes back the newest one or reports it stolen.

func (d *deque) testPush(h *frameHeader) {
	i := d.head
	if int(i) >= len(d.slots) {
		d.grow()
	}
	d.slots[i] = h
	d.head = i + 1
	if d.allStolen || d.moveSplit.Load() {
		d.share()
	}
}

// testPop returns the newest frame if the owner got it back, or nil if it was
// stolen; then it waits for the thief to mark it done, as Join does, yielding
// meanwhile: the thief may need this goroutine's P, and a loop without a call
// can be stopped only by asynchronous preemption, which emulators (qemu-user)
// deliver late or never, so a stop-the-world GC would wait on it for good.
func (d *deque) testPop() *frameHeader {
	i := d.head - 1
	h := d.slots[i]
	if i >= d.split || d.reclaim(i) {
		d.head = i
		return h
	}
	for h.state.Load() != frameDone {
		runtime.Gosched()
	}
	h.state.Store(framePending)
	d.stolenReturn(i)
	return nil
}

// item is a frame that carries an id, for exactly-once accounting.
type item struct {
	hdr frameHeader
	id  int
}

func (it *item) execute(*Worker) {}
func (it *item) release()        {}

func newItems(n int) []*item {
	items := make([]*item, n)
	for i := range items {
		items[i] = &item{id: i}
		items[i].hdr.job = items[i]
	}
	return items
}

func itemOf(h *frameHeader) *item { return (*item)(unsafe.Pointer(h)) }

func newTestDeque() *deque {
	d := new(deque)
	d.init(false)
	return d
}

func TestDequeOwnerLIFO(t *testing.T) {
	d := newTestDeque()
	items := newItems(1000) // forces several grows from 64 slots
	for _, it := range items {
		d.testPush(&it.hdr)
	}
	for k := len(items) - 1; k >= 0; k-- {
		h := d.testPop()
		if h == nil || itemOf(h).id != k {
			t.Fatalf("pop %d: got %v", k, h)
		}
	}
	if d.head != 0 {
		t.Fatalf("head = %d after popping everything", d.head)
	}
}

func TestDequeThiefFIFO(t *testing.T) {
	d := newTestDeque()
	items := newItems(10)
	for _, it := range items {
		d.testPush(&it.hdr)
	}
	// Only the first push is shared (the deque starts all-stolen); a thief
	// takes it, then asks for more, and the next push shares half of the
	// private part, oldest first.
	want := 0
	for round := 0; round < 3; round++ {
		for {
			h, r := d.steal()
			if r != lockfree.StealSuccess {
				break
			}
			if got := itemOf(h).id; got != want {
				t.Fatalf("steal: got %d, want %d (thieves take the oldest first)", got, want)
			}
			want++
		}
		if !d.moveSplit.Load() {
			t.Fatalf("a thief that found nothing did not ask for work")
		}
		extra := newItems(1)[0]
		extra.id = -1
		d.testPush(&extra.hdr)
		if d.moveSplit.Load() {
			t.Fatalf("the owner's push did not answer the request")
		}
	}
	if want < 5 {
		t.Fatalf("thieves got only %d frames in 3 rounds", want)
	}
}

func TestDequeOffsets(t *testing.T) {
	var d deque
	// Fields written by thieves must not share a cache line with the owner's.
	owner := unsafe.Offsetof(d.pub) + unsafe.Sizeof(d.pub)
	for name, off := range map[string]uintptr{
		"ts":              unsafe.Offsetof(d.ts),
		"sharedAllStolen": unsafe.Offsetof(d.sharedAllStolen),
		"moveSplit":       unsafe.Offsetof(d.moveSplit),
	} {
		if off < owner+64 {
			t.Errorf("%s at offset %d shares a cache line with the owner's fields (end %d)", name, off, owner)
		}
	}
	if unsafe.Offsetof(d.moveSplit)-unsafe.Offsetof(d.ts) < 64 {
		t.Errorf("moveSplit and ts share a cache line")
	}
	tail, split := unpackTS(packTS(7, 1<<31+3))
	if tail != 7 || split != 1<<31+3 {
		t.Errorf("packTS/unpackTS round trip: %d %d", tail, split)
	}
}

// TestDequeStress has one owner pushing and popping in random bursts while
// several thieves steal: every item must be taken exactly once, by the owner
// or by one thief.
func TestDequeStress(t *testing.T) {
	for _, thieves := range []int{1, 3, 7} {
		n := scale(2_000_000)
		if raceEnabled {
			n /= 4
		}
		d := newTestDeque()
		items := newItems(n)
		taken := make([]atomic.Int32, n)
		var stop atomic.Bool
		var wg sync.WaitGroup
		var stolen atomic.Int64
		for k := 0; k < thieves; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					h, r := d.steal()
					if r == lockfree.StealSuccess {
						taken[itemOf(h).id].Add(1)
						stolen.Add(1)
						h.state.Store(frameDone)
					} else if r == lockfree.StealEmpty {
						runtime.Gosched()
					}
				}
			}()
		}
		rng := rand.New(rand.NewPCG(1, uint64(thieves)))
		next, waited := 0, false
		for next < n || d.head > 0 {
			// Push a burst (deep enough to grow the deque now and then), then
			// pop part of it.
			if next < n {
				burst := 1 + rng.IntN(200)
				for b := 0; b < burst && next < n; b++ {
					d.testPush(&items[next].hdr)
					next++
				}
			}
			if rng.IntN(8) == 0 {
				runtime.Gosched() // let the thieves in on a loaded machine
			}
			if next == n && !waited && stolen.Load() == 0 {
				waited = true
				// Under -race on a loaded 2-core machine the thieves may not
				// have run at all yet: leave the rest on offer until one
				// steals, so the test always checks a contended steal.
				// The rest is on offer only if the owner answers a thief's
				// request (the pops may have taken back every shared
				// frame), so answer as Worker.Poll does.
				for deadline := time.Now().Add(10 * time.Second); stolen.Load() == 0 && time.Now().Before(deadline); {
					if d.moveSplit.Load() && !d.allStolen && d.head > d.split {
						d.share()
					}
					time.Sleep(100 * time.Microsecond)
				}
			}
			pops := 1 + rng.IntN(int(d.head))
			for p := 0; p < pops && d.head > 0; p++ {
				if h := d.testPop(); h != nil {
					taken[itemOf(h).id].Add(1)
				}
			}
		}
		stop.Store(true)
		wg.Wait()
		for i := range taken {
			if c := taken[i].Load(); c != 1 {
				t.Fatalf("thieves=%d: item %d taken %d times", thieves, i, c)
			}
		}
		if stolen.Load() == 0 {
			t.Errorf("thieves=%d: no item was ever stolen", thieves)
		}
		t.Logf("thieves=%d: %d items, %d stolen", thieves, n, stolen.Load())
	}
}
