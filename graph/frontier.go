package graph

import (
	"math/bits"
	"sync/atomic"

	"github.com/gofork/gofork/par"
)

// A frontier is a set of vertices in one of two forms (Beamer, Asanović and
// Patterson, "Direction-Optimizing Breadth-First Search", SC 2012; Ligra's
// vertexSubset): a sparse list of ids, for small sets, or a dense bitmap of
// one bit per vertex, for large ones. The traversals keep two of each and
// swap them level by level.

// vertexQueue is a list of vertices that many leaves of a loop append to at
// once: each leaf gathers vertices in a buffer of its own and reserves room
// for the whole buffer with one atomic add on tail.
type vertexQueue struct {
	ids []int32 // capacity: every vertex; ids[:tail] is the list
	// tail is the length of the list. Writers reserve ids[old:old+k] by
	// tail.Add(k); the slots are theirs alone, and the loop's join orders
	// their writes before any read of the list.
	tail atomic.Int64
}

// queueBatch is the number of vertices a leaf gathers before it reserves.
const queueBatch = 256

// list returns the vertices appended so far; only after the loop joined.
func (q *vertexQueue) list() []int32 { return q.ids[:q.tail.Load()] }

// reset empties the list; only between loops.
func (q *vertexQueue) reset() { q.tail.Store(0) }

// append adds batch to the list; many leaves may call it at once.
func (q *vertexQueue) append(batch []int32) {
	at := q.tail.Add(int64(len(batch))) - int64(len(batch)) // reserve ids[at:at+len]
	copy(q.ids[at:], batch)
}

// bitmap is a dense vertex set: bit v%64 of word v/64.
type bitmap []uint64

func newBitmap(n int) bitmap { return make(bitmap, (n+63)/64) }

func (b bitmap) has(v int32) bool { return b[v>>6]&(1<<(uint(v)&63)) != 0 }

// clear empties b in parallel.
func (b bitmap) clear(opt par.Option) {
	par.ForRange(0, len(b), func(lo, hi int) { clear(b[lo:hi]) }, opt)
}

// fromList sets the bits of ids in b (which must be empty), in parallel:
// ids from different leaves may share a word, so each bit is set by an
// atomic OR (no ordering needed beyond the loop's join).
func (b bitmap) fromList(ids []int32, opt par.Option) {
	par.ForRange(0, len(ids), func(lo, hi int) {
		for _, v := range ids[lo:hi] {
			atomic.OrUint64(&b[v>>6], 1<<(uint(v)&63))
		}
	}, opt)
}

// toList appends the members of b to q (which must be empty), in parallel.
func (b bitmap) toList(q *vertexQueue, opt par.Option) {
	par.ForRange(0, len(b), func(lo, hi int) {
		var batch [queueBatch]int32
		k := 0
		for wi := lo; wi < hi; wi++ {
			for w := b[wi]; w != 0; w &= w - 1 {
				if k == len(batch) {
					q.append(batch[:k])
					k = 0
				}
				batch[k] = int32(wi<<6 | bits.TrailingZeros64(w))
				k++
			}
		}
		q.append(batch[:k])
	}, opt)
}
