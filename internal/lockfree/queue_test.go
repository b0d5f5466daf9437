package lockfree

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestQueueStress: producers push numbered values while takers move them
// in batches onto deques of their own and pop them, and now and then trim
// the free segments; every value comes out exactly once, across many
// segments, fresh and reused.
func TestQueueStress(t *testing.T) {
	for _, takers := range []int{1, 3} {
		const producers = 4
		n := size() / producers * producers
		var q Queue[item]
		taken := make([]atomic.Int32, n)
		var wg sync.WaitGroup
		for p := range producers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := p; i < n; i += producers {
					q.Push(item{id: i})
				}
			}()
		}
		var got atomic.Int64
		var tg sync.WaitGroup
		for range takers {
			tg.Add(1)
			go func() {
				defer tg.Done()
				var d Deque[item]
				for k := 0; got.Load() < int64(n); k++ {
					if q.TakeTo(&d, StealMax) == 0 {
						runtime.Gosched()
					}
					if k%1000 == 999 {
						q.Trim()
					}
					for {
						x, ok := d.Pop()
						if !ok {
							break
						}
						taken[x.id].Add(1)
						got.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		tg.Wait()
		if !q.Empty() {
			t.Fatalf("takers=%d: the queue is not empty after every value was taken", takers)
		}
		for i := range taken {
			if c := taken[i].Load(); c != 1 {
				t.Fatalf("takers=%d: value %d taken %d times", takers, i, c)
			}
		}
	}
}

// TestQueueOrder: alone, values come out in the order they were pushed,
// in batches of at most max, across segment ends.
func TestQueueOrder(t *testing.T) {
	var q Queue[item]
	if !q.Empty() || q.TakeTo(new(Deque[item]), 8) != 0 {
		t.Fatal("a zero Queue is not empty")
	}
	const n = 3*segmentLen + 5
	for i := range n {
		q.Push(item{id: i})
	}
	next := 0
	for !q.Empty() {
		var d Deque[item]
		k := q.TakeTo(&d, 10)
		if k == 0 || k > 10 {
			t.Fatalf("TakeTo took %d, want 1 to 10", k)
		}
		// Fewer than StealMax values: the owner's pops take the oldest
		// first, so the batch comes out in push order.
		for range k {
			x, ok := d.Pop()
			if !ok || x.id != next {
				t.Fatalf("took value %v (%v), want %d", x.id, ok, next)
			}
			next++
		}
	}
	if next != n {
		t.Fatalf("took %d values, want %d", next, n)
	}
}

// TestQueuePushUnlessStress: producers push numbered values with
// PushUnless while a closer sets the stop flag and then reads Pushed (Q5),
// as a pool's Close does. Every push the flag did not stop lies below what
// the closer read, every stopped push left the zero value in its slot, and
// a taker moves out each value exactly once.
func TestQueuePushUnlessStress(t *testing.T) {
	for round := range 20 {
		const producers = 3
		n := size() / 20
		var q Queue[item]
		var stop atomic.Bool
		stopped := make([]atomic.Bool, n+1) // by id; ids start at 1: the zero value is the stopped pushes' filler
		pos := make([]int64, n+1)
		var wg sync.WaitGroup
		for p := range producers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := p + 1; i <= n; i += producers {
					at, s := q.PushUnless(item{id: i}, &stop)
					pos[i] = at
					stopped[i].Store(s)
				}
			}()
		}
		closed := make(chan int64)
		go func() {
			for range round * 50 {
				runtime.Gosched()
			}
			DekkerStoreBool(&stop, true) // before the load of tail, as Close does
			closed <- q.Pushed()
		}()
		counted := <-closed
		wg.Wait()
		var d Deque[item]
		taken := make([]int, n+1)
		fillers := 0
		for !q.Empty() {
			q.TakeTo(&d, StealMax)
			for {
				x, ok := d.Pop()
				if !ok {
					break
				}
				if x.id == 0 {
					fillers++
				} else {
					taken[x.id]++
				}
			}
		}
		nStopped := 0
		for i := 1; i <= n; i++ {
			switch {
			case stopped[i].Load():
				nStopped++
				if taken[i] != 0 {
					t.Fatalf("round %d: value %d was stopped but taken %d times", round, i, taken[i])
				}
			case taken[i] != 1:
				t.Fatalf("round %d: value %d taken %d times", round, i, taken[i])
			case pos[i] >= counted:
				t.Fatalf("round %d: value %d pushed at %d, not stopped, but the closer read Pushed %d", round, i, pos[i], counted)
			}
		}
		if fillers != nStopped {
			t.Fatalf("round %d: %d zero values taken for %d stopped pushes", round, fillers, nStopped)
		}
	}
}
