package par

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/gofork/gofork/internal/loop"
)

const (
	// searchHead is how many elements IndexFunc checks on the calling
	// goroutine before it starts any task: an early match costs what
	// slices.IndexFunc costs.
	searchHead = 1 << 11
	// searchBlock is how many elements a leaf of IndexFunc checks between
	// looks at the best match found so far.
	searchBlock = 256
	// indexBlock is searchBlock for Index and IndexBlocks, whose loops cost
	// a fraction of a nanosecond per element: a block costs a call, a loop
	// exit and a look at the best match, which took a third of the time
	// on blocks of 256 int64s and a few percent on 16384.
	indexBlock = 1 << 14
)

// IndexFunc returns the smallest index i with f(s[i]) true, or -1 if there
// is none, like slices.IndexFunc, searching in parallel. f may be called from
// several workers at once, and on elements after the first match; once a
// match is known, a leaf calls it on at most 256 more elements. Index is the
// form without a call per element for a search by ==, and IndexBlocks the
// block form, for when f is cheap.
//
// The search stops early: when the first match is at i, f is called
// O(i + p·b) times for p workers and b = 256, the elements a leaf checks
// between looks at the best match so far. The first 2048 elements are
// checked serially, then ranges that double in length, each searched in
// parallel (one fork-join phase per range, its leaves cut by the
// partitioner named by opts), until one holds a match. It takes For's
// options.
func IndexFunc[S ~[]E, E any](s S, f func(E) bool, opts ...Option) int {
	return indexFunc("par.IndexFunc", s, f, opts)
}

// ContainsFunc reports whether f(e) is true for some element e of s, like
// slices.ContainsFunc: IndexFunc(s, f, opts...) >= 0. Contains is its form
// for a search by ==, and IndexBlocks its block form, for when f is cheap.
func ContainsFunc[S ~[]E, E any](s S, f func(E) bool, opts ...Option) bool {
	return indexFunc("par.ContainsFunc", s, f, opts) >= 0
}

// indexFunc is IndexFunc for the entry point call.
func indexFunc[E any](call string, s []E, f func(E) bool, opts []Option) int {
	if f == nil {
		panic(strings.Replace(call, ".", ": ", 1) + " with a nil f")
	}
	c := resolve(call, loop.Loops, opts)
	head := min(len(s), searchHead)
	if i := indexSerial(s[:head], f); i >= 0 || head == len(s) {
		return i
	}
	return searchFrom(c, len(s), head, searchBlock, func(lo, hi int) int {
		if j := indexSerial(s[lo:hi], f); j >= 0 {
			return lo + j
		}
		return -1
	})
}

// Index returns the index of the first element of s equal to v, or -1 if
// there is none, like slices.Index, searching in parallel with IndexFunc's
// algorithm and options. The comparison is compiled into the search's
// loop: there is no call per element.
func Index[S ~[]E, E comparable](s S, v E, opts ...Option) int {
	return index("par.Index", s, v, opts)
}

// Contains reports whether v is an element of s, like slices.Contains:
// Index(s, v, opts...) >= 0.
func Contains[S ~[]E, E comparable](s S, v E, opts ...Option) bool {
	return index("par.Contains", s, v, opts) >= 0
}

// index is Index for the entry point call.
func index[E comparable](call string, s []E, v E, opts []Option) int {
	c := resolve(call, loop.Loops, opts)
	head := min(len(s), searchHead)
	if i := indexEqual(s[:head], v); i >= 0 || head == len(s) {
		return i
	}
	return searchFrom(c, len(s), head, indexBlock, func(lo, hi int) int {
		if j := indexEqual(s[lo:hi], v); j >= 0 {
			return lo + j
		}
		return -1
	})
}

// indexEqual returns the index of the first element of s equal to v, or -1.
func indexEqual[E comparable](s []E, v E) int {
	for i := range s {
		if s[i] == v {
			return i
		}
	}
	return -1
}

// IndexBlocks is the block form of IndexFunc and Index, for when the test
// is cheap: find(lo, hi) is the caller's own loop over the elements
// lo..hi-1 of [0, n), which returns the index of the first one that
// matches, or -1, so that the test compiles into it. IndexBlocks returns
// the smallest index that a call of find returned, or -1 if none found a
// match: the first match of the whole range.
//
//	i := par.IndexBlocks(len(s), func(lo, hi int) int {
//		for i := lo; i < hi; i++ {
//			if s[i] > limit {
//				return i
//			}
//		}
//		return -1
//	})
//
// find is called for disjoint blocks of at most 16384 indices, from several
// workers at once, and on blocks after the first match; once a match is
// known, each leaf searches at most one more block. It runs as IndexFunc
// does, with its options. It panics if n is negative or find is nil, and,
// naming the values, if find returns anything but -1 or an index in
// [lo, hi).
func IndexBlocks(n int, find func(lo, hi int) int, opts ...Option) int {
	c := resolve("par.IndexBlocks", loop.Loops, opts)
	if n < 0 {
		panic(fmt.Sprintf("par: IndexBlocks with n = %d", n))
	}
	if find == nil {
		panic("par: IndexBlocks with a nil find")
	}
	checked := func(lo, hi int) int {
		i := find(lo, hi)
		if i != -1 && (i < lo || i >= hi) {
			panic(fmt.Sprintf("par: IndexBlocks: find(%d, %d) returned %d, neither -1 nor in [%d, %d)", lo, hi, i, lo, hi))
		}
		return i
	}
	head := min(n, searchHead)
	if head == 0 {
		return -1
	}
	if i := checked(0, head); i >= 0 || head == n {
		return i
	}
	return searchFrom(c, n, head, indexBlock, checked)
}

// indexSerial returns the smallest index i with f(s[i]) true, or -1. It is
// unrolled by four: Go keeps no register across a call through a func
// value, so a plain loop would take its counter through memory once per
// element.
func indexSerial[E any](s []E, f func(E) bool) int {
	i := 0
	for ; i+4 <= len(s); i += 4 {
		x := (*[4]E)(s[i:])
		switch {
		case f(x[0]):
			return i
		case f(x[1]):
			return i + 1
		case f(x[2]):
			return i + 2
		case f(x[3]):
			return i + 3
		}
	}
	for ; i < len(s); i++ {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

// searchFrom searches [head, n) for the first match, in doubling ranges,
// for a search with no match before head. find(lo, hi) returns the first
// match in [lo, hi), or -1; it is called on blocks of at most block
// indices.
func searchFrom(c loop.Config, n, head, block int, find func(lo, hi int) int) int {
	var best atomic.Int64 // the smallest match found, n if none: CAS-min by every leaf, read between blocks
	best.Store(int64(n))
	lo := head // the range searched now starts here
	leaf := func(a, b uint64, _ none) none {
		// i and end stay at most n: i+searchBlock could pass the int range
		// where n is near its top.
		for i, end := lo+int(a), lo+int(b); i < end; i += min(block, end-i) {
			if best.Load() <= int64(i) {
				return none{} // a match before this block is known
			}
			if j := find(i, i+min(block, end-i)); j >= 0 {
				for m := int64(j); ; {
					old := best.Load()
					if old <= m || best.CompareAndSwap(old, m) {
						return none{}
					}
				}
			}
		}
		return none{}
	}
	onPool(c, func() {
		// hi and size stay at most n: lo+size and 2*size could pass a
		// 32-bit int's range where n is past 2^30.
		for size := head; lo < n; size = min(size, n-size) + size {
			hi := lo + min(size, n-lo)
			loop.Split(uint64(hi-lo), none{}, loop.Ops[none]{Leaf: leaf}, c, nil)
			if best.Load() < int64(n) {
				return
			}
			lo = hi
		}
	})
	if i := best.Load(); i < int64(n) {
		return int(i)
	}
	return -1
}
