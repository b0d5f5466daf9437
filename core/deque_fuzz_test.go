package core

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/gofork/gofork/internal/lockfree"
)

// FuzzDeque drives the owner side of a deque with an op script while thieves
// steal concurrently, and checks the result against a sequential model of
// the owner's stack:
//
//   - every pushed item is taken exactly once, by the owner or by one thief;
//   - a pop that gets its frame back gets the newest one the model holds (LIFO);
//   - once a pop finds its frame stolen, every older frame still in the model
//     was stolen too (thieves take the oldest first), so no later pop gets it back;
//   - each thief takes items in increasing push order (FIFO).
//
// Script bytes: the first picks 1 to 3 thieves; then each byte b is an op
// b&3 with argument a = b>>2 (0 to 63):
//
//	0  push 1 + a%8 items
//	1  pop 1 + a%8 items (as many as there are)
//	2  push a burst of 60 + 4a items, which makes the deque grow past its
//	   64 initial slots while thieves hold views of the old array
//	3  yield a%4 times so thieves get in; a == 63 pops everything
//
// Run longer with: go test ./core -run '^$' -fuzz '^FuzzDeque$' -fuzztime 5m
func FuzzDeque(f *testing.F) {
	f.Add([]byte{1, 0, 1, 0, 5})
	f.Add([]byte{2, 0x02, 0x03, 0x01, 0xfd, 0x02, 0x05, 0x07})
	f.Add([]byte{3, 0xfe, 0xfe, 0xfd, 0x04, 0x00, 0x05, 0xfc, 0x09, 0x03, 0xff})
	f.Fuzz(checkDequeScript)
}

// checkDequeScript runs one FuzzDeque script; see FuzzDeque.
func checkDequeScript(t *testing.T, script []byte) {
	if len(script) == 0 {
		return
	}
	const maxOps, maxItems = 256, 1 << 15
	if len(script) > maxOps {
		script = script[:maxOps]
	}
	thieves := 1 + int(script[0])%3
	script = script[1:]

	d := newTestDeque()
	var (
		items  []*item
		stack  []int // the model: ids of the frames in the deque, oldest first
		floor  int   // every model position below floor is known stolen
		owner  []int // ids the owner's pops got back
		stolen = make([][]int, thieves)
		stop   = make(chan struct{})
		wg     sync.WaitGroup
	)
	for k := range thieves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				h, r := d.steal()
				switch r {
				case lockfree.StealSuccess:
					stolen[k] = append(stolen[k], itemOf(h).id)
					h.state.Store(frameDone) // the owner's pop waits for this
				case lockfree.StealEmpty:
					runtime.Gosched()
				}
			}
		}()
	}
	push := func(n int) {
		for range n {
			if len(items) == maxItems {
				return
			}
			it := &item{id: len(items)}
			it.hdr.job = it
			items = append(items, it)
			d.testPush(&it.hdr)
			stack = append(stack, it.id)
		}
	}
	pop := func(n int) {
		for ; n > 0 && len(stack) > 0; n-- {
			pos := len(stack) - 1
			want := stack[pos]
			stack = stack[:pos]
			h := d.testPop()
			if h == nil {
				floor = pos // the frame at pos was stolen, so were all below it
				continue
			}
			if pos < floor {
				t.Fatalf("pop at depth %d got item %d back, but a pop above it found its frame stolen (depths below %d are stolen)", pos, itemOf(h).id, floor)
			}
			if got := itemOf(h).id; got != want {
				t.Fatalf("pop at depth %d got item %d, want %d (the newest: owner pops are LIFO)", pos, got, want)
			}
			owner = append(owner, want)
		}
		floor = min(floor, len(stack))
	}
	for _, b := range script {
		a := int(b >> 2)
		switch b & 3 {
		case 0:
			push(1 + a%8)
		case 1:
			pop(1 + a%8)
		case 2:
			push(60 + 4*a)
		case 3:
			if a == 63 {
				pop(len(stack))
			}
			for range a % 4 {
				runtime.Gosched()
			}
		}
	}
	pop(len(stack))
	if d.head != 0 {
		t.Fatalf("head = %d after popping every item", d.head)
	}
	close(stop)
	wg.Wait()

	taken := make([]int, len(items))
	for _, id := range owner {
		taken[id]++
	}
	for k, ids := range stolen {
		for i, id := range ids {
			taken[id]++
			if i > 0 && id <= ids[i-1] {
				t.Fatalf("thief %d stole item %d after item %d (thieves take the oldest first)", k, id, ids[i-1])
			}
		}
	}
	for id, n := range taken {
		if n != 1 {
			t.Fatalf("item %d taken %d times (owner got %d items back, thieves stole %d)", id, n, len(owner), len(items)-len(owner))
		}
	}
}

// TestDequeScripts runs FuzzDeque's checks on random scripts, so that a plain
// go test covers more than the seed corpus.
func TestDequeScripts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for range scale(300) {
		script := make([]byte, 1+rng.IntN(200))
		for i := range script {
			script[i] = byte(rng.Uint32())
		}
		checkDequeScript(t, script)
	}
}
