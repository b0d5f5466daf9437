package par

import (
	"fmt"
	"sync/atomic"

	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/internal/pack"
)

// FilterBlocks is the block form of Filter, for when keep is cheap:
// filter(lo, hi, dst) is the caller's own loop over the elements lo..hi-1
// of [0, n), which appends the ones to keep to dst and returns it, as an
// append loop does, so that the test compiles into it. FilterBlocks returns
// the concatenation, in index order, of what the calls appended (nil if
// nothing):
//
//	out := par.FilterBlocks(len(s), func(lo, hi int, dst []uint64) []uint64 {
//		for _, v := range s[lo:hi] {
//			if v%3 == 0 {
//				dst = append(dst, v)
//			}
//		}
//		return dst
//	})
//
// filter may append anything (a mapped element, several per index, none);
// it must only append: the elements of dst it is given are other blocks'
// output. It is called for disjoint blocks of at most 1024 indices that
// cover [0, n) once each, from several workers at once, each call with a
// dst that no other call uses at the same time (with one worker, or
// n <= 8192, it is one call for all of [0, n)).
//
// Each run of blocks on one worker appends into a buffer of its own (a
// range a thief takes starts a new one); the buffers are then copied into
// one result of the exact length, in parallel, each block's output to its
// place, which the counts summed in block order give. When one buffer got
// everything it is the result, with no copy. It panics if n is negative or
// filter is nil, and, naming the block, if filter returns a slice shorter
// than the dst it was given; a panic in filter reaches the caller. It takes
// Filter's options.
func FilterBlocks[E any](n int, filter func(lo, hi int, dst []E) []E, opts ...Option) []E {
	c := resolve("par.FilterBlocks", loop.Loops, opts)
	if n < 0 {
		panic(fmt.Sprintf("par: FilterBlocks with n = %d", n))
	}
	if filter == nil {
		panic("par: FilterBlocks with a nil filter")
	}
	if n <= filterSerialMax || c.Pool.Workers() == 1 {
		out := checkedFilter(filter, nil, 0, n)
		if len(out) == 0 {
			return nil
		}
		return out
	}
	f := &filterBlocks[E]{n: n, filter: filter, blocks: make([]filterBlock[E], pack.Blocks(n))}
	var out []E
	onPool(c, func() { out = f.run(c) })
	return out
}

// filterBlocks is what the leaves of one FilterBlocks call share.
type filterBlocks[E any] struct {
	n      int
	filter func(lo, hi int, dst []E) []E
	// blocks[b] records where block b's output is; written by the leaf
	// that runs block b, read after the loop.
	blocks []filterBlock[E]
	// runs counts the buffers made (Add by the leaves that start one).
	runs atomic.Int32
}

// filterBlock is where one block's output lies: out.buf[at : at+count].
type filterBlock[E any] struct {
	out       *filterRun[E]
	at, count int
}

// filterRun is the buffer a run of blocks on one worker appends to.
type filterRun[E any] struct {
	buf []E
}

// run filters the blocks in parallel with c's partitioner and gathers
// their output.
func (f *filterBlocks[E]) run(c loop.Config) []E {
	bc := c
	bc.Grain = (c.Grain + pack.BlockLen - 1) / pack.BlockLen
	bc.Simple = (c.Simple + pack.BlockLen - 1) / pack.BlockLen
	first := &filterRun[E]{}
	f.runs.Store(1)
	loop.Split(uint64(len(f.blocks)), first, loop.Ops[*filterRun[E]]{
		Leaf: func(a, b uint64, r *filterRun[E]) *filterRun[E] {
			for blk := int(a); blk < int(b); blk++ {
				lo := blk * pack.BlockLen // at most n: no overflow
				hi := lo + min(pack.BlockLen, f.n-lo)
				at := len(r.buf)
				r.buf = checkedFilter(f.filter, r.buf, lo, hi)
				f.blocks[blk] = filterBlock[E]{out: r, at: at, count: len(r.buf) - at}
			}
			return r
		},
		Right: func(parent *filterRun[E], stolen bool) *filterRun[E] {
			if !stolen {
				return parent // runs after the left half, on the same worker: append on
			}
			f.runs.Add(1)
			return &filterRun[E]{}
		},
	}, bc, nil)
	if f.runs.Load() == 1 {
		if len(first.buf) == 0 {
			return nil
		}
		return first.buf
	}
	// Each block's place in the result: the counts summed in block order.
	k := 0
	for b := range f.blocks {
		cnt := f.blocks[b].count
		f.blocks[b].count = k // now the block's offset in the result
		k += cnt
	}
	if k == 0 {
		return nil
	}
	out := make([]E, k)
	blockRunner(c)(len(f.blocks), func(lo, hi int) {
		for b := lo; b < hi; b++ {
			end := k
			if b+1 < len(f.blocks) {
				end = f.blocks[b+1].count
			}
			blk := f.blocks[b]
			copy(out[blk.count:end], blk.out.buf[blk.at:])
		}
	})
	return out
}

// checkedFilter calls filter(lo, hi, dst) and panics if it returned less
// than dst.
func checkedFilter[E any](filter func(lo, hi int, dst []E) []E, dst []E, lo, hi int) []E {
	n := len(dst)
	dst = filter(lo, hi, dst)
	if len(dst) < n {
		panic(fmt.Sprintf("par: FilterBlocks: filter(%d, %d, dst) returned %d elements, less than the %d of dst", lo, hi, len(dst), n))
	}
	return dst
}
