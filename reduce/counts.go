package reduce

import (
	"fmt"
	"sync"

	"golang.org/x/exp/constraints"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
)

// countsSerialMax is the length up to which Counts counts on the calling
// goroutine: starting tasks and adding a second table costs more.
const countsSerialMax = 1 << 14

// countsMergeGrain is the most buckets one task of the final merge adds up.
const countsMergeGrain = 1 << 13

// Counts returns the histogram of keys: counts of length buckets where
// counts[k] is the number of elements of keys equal to k, as the counting
// loop
//
//	for _, k := range keys {
//		counts[k]++
//	}
//
// would, computed in parallel on the pool named by opts. It is Histogram
// with the key as its own bucket, with no call per element: the form to
// use for integer keys. It panics if buckets is negative, and, naming the
// key and its index, if a key is outside [0, buckets). It takes the options
// of a loop: par.WithPool, par.Grain and a partitioner.
//
// Each worker counts into a table of its own, whatever the partitioner
// does, and the tables are added up at the end, in parallel over the
// buckets: with p workers taking part, work n + p·buckets, span
// n/p + buckets/p + log n.
func Counts[S ~[]K, K constraints.Integer](keys S, buckets int, opts ...par.Option) []int {
	c := resolve("reduce.Counts", opts)
	if buckets < 0 {
		panic(fmt.Sprintf("reduce: Counts with %d buckets", buckets))
	}
	var bad badKey
	count := func(lo, hi int, counts []int) {
		if i := countKeys(keys[lo:hi], counts); i >= 0 {
			bad.note(lo+i, 0) // the key is read back from keys, in its own type
		}
	}
	var counts []int
	if len(keys) <= countsSerialMax || c.Pool.Workers() == 1 {
		counts = make([]int, buckets)
		count(0, len(keys), counts)
	} else {
		counts = histogramBlocks(c, len(keys), buckets, count)
	}
	if i, _, found := bad.get(); found {
		panic(fmt.Sprintf("reduce: Counts: keys[%d] = %d, outside [0, %d)", i, keys[i], buckets))
	}
	return counts
}

// countKeys adds keys into counts up to the first key outside [0,
// len(counts)), and returns that key's index, or -1 if there is none.
func countKeys[K constraints.Integer](keys []K, counts []int) int {
	for i, k := range keys {
		// In 64 bits: a negative key is huge there, and a key past 2^32
		// keeps its high bits on a 32-bit port.
		if uint64(k) >= uint64(len(counts)) {
			return i
		}
		counts[int(k)]++
	}
	return -1
}

// HistogramBlocks is the block form of Histogram and Counts, for when the
// bucket function is cheap: count(lo, hi, counts) is the caller's own loop
// over the elements lo..hi-1 of [0, n), which adds each into counts (a
// table of length buckets), so that the bucket computation compiles into
// it. HistogramBlocks returns the sum of the tables, of length buckets:
//
//	counts := reduce.HistogramBlocks(len(s), 1<<16, func(lo, hi int, counts []int) {
//		for _, v := range s[lo:hi] {
//			counts[v>>48]++
//		}
//	})
//
// count is called for disjoint blocks that cover [0, n) exactly once, from
// several workers at once, each call with a table that no other call uses
// at the same time; it may add any amount to any bucket (a weighted
// histogram). Each worker counts into tables of its own, added up at the
// end, as Counts does. It panics if n or buckets is negative or count is
// nil; a panic in count reaches the caller. It takes Counts' options.
func HistogramBlocks(n, buckets int, count func(lo, hi int, counts []int), opts ...par.Option) []int {
	c := resolve("reduce.HistogramBlocks", opts)
	if n < 0 {
		panic(fmt.Sprintf("reduce: HistogramBlocks with n = %d", n))
	}
	if buckets < 0 {
		panic(fmt.Sprintf("reduce: HistogramBlocks with %d buckets", buckets))
	}
	if count == nil {
		panic("reduce: HistogramBlocks with a nil count")
	}
	if n == 0 {
		return make([]int, buckets)
	}
	return histogramBlocks(c, n, buckets, count)
}

// histTable is one table of a histogramBlocks call.
type histTable struct {
	counts []int
	// busy is set while a leaf counts into the table. Only the worker the
	// table belongs to reads and writes it; a leaf that finds it set is
	// nested in another leaf on the same worker (count ran a parallel loop
	// that took a leaf of this one) and counts into a table of its own.
	busy bool
}

// histTables are the tables of one histogramBlocks call: one per worker
// ID the pool had when the call started, each made by its worker the first
// time it runs a leaf, and the tables of leaves that could not use those
// (a worker started later, a nested leaf), kept under a lock.
type histTables struct {
	buckets  int
	byWorker []*histTable // byWorker[id]: written only by worker id, read after the loop
	mu       sync.Mutex
	others   []*histTable
}

// take returns a table for a leaf on w to count into.
func (h *histTables) take(w *core.Worker) *histTable {
	if id := w.ID(); id < len(h.byWorker) {
		t := h.byWorker[id]
		if t == nil {
			t = &histTable{counts: make([]int, h.buckets)}
			h.byWorker[id] = t
		}
		if !t.busy {
			return t
		}
	}
	t := &histTable{counts: make([]int, h.buckets)}
	h.mu.Lock()
	h.others = append(h.others, t)
	h.mu.Unlock()
	return t
}

// histogramBlocks runs count over [0, n), n > 0, as a loop with c's
// options, each worker counting into its own tables, and returns their sum.
func histogramBlocks(c loop.Config, n, buckets int, count func(lo, hi int, counts []int)) []int {
	h := &histTables{buckets: buckets, byWorker: make([]*histTable, c.Pool.MaxWorkerID())}
	// One task runs the loop and the merge, so that the merge's loop starts
	// on a worker instead of waking the pool from outside.
	return core.RunValue(c.Pool, func(*core.Worker) []int {
		loop.Split(uint64(n), struct{}{}, loop.Ops[struct{}]{
			LeafOn: func(w *core.Worker, a, b uint64, _ struct{}) struct{} {
				t := h.take(w)
				t.busy = true
				count(int(a), int(b), t.counts)
				t.busy = false
				return struct{}{}
			},
		}, c, nil)
		var tables [][]int
		for _, t := range h.byWorker {
			if t != nil {
				tables = append(tables, t.counts)
			}
		}
		for _, t := range h.others {
			tables = append(tables, t.counts)
		}
		return addTables(c, tables)
	})
}

// addTables adds tables[1:] into tables[0] and returns it, in parallel over
// the buckets where there are enough of them.
func addTables(c loop.Config, tables [][]int) []int {
	sum, rest := tables[0], tables[1:]
	if len(rest) == 0 {
		return sum
	}
	add := func(lo, hi int) {
		s := sum[lo:hi]
		for _, t := range rest {
			for k, v := range t[lo:hi] {
				s[k] += v
			}
		}
	}
	if len(sum)*len(rest) <= countsMergeGrain {
		add(0, len(sum))
		return sum
	}
	par.ForRange(0, len(sum), add, par.WithPool(c.Pool), par.Grain(countsMergeGrain))
	return sum
}
