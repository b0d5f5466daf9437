package par

import (
	"strings"
	"sync/atomic"

	"github.com/gofork/gofork/internal/loop"
)

const (
	// searchHead is how many elements IndexFunc checks on the calling
	// goroutine before it starts any task: an early match costs what
	// slices.IndexFunc costs.
	searchHead = 1 << 11
	// searchBlock is how many elements a leaf checks between looks at the
	// best match found so far.
	searchBlock = 256
)

// IndexFunc returns the smallest index i with f(s[i]) true, or -1 if there
// is none, like slices.IndexFunc, searching in parallel. f may be called from
// several workers at once, and on elements after the first match; once a
// match is known, a leaf calls it on at most 256 more elements.
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
	return indexFrom(s, head, f, c)
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

// indexFrom is IndexFunc's search of s[head:] in doubling ranges, for a
// slice with no match before head.
func indexFrom[E any](s []E, head int, f func(E) bool, c loop.Config) int {
	n := len(s)
	var best atomic.Int64 // the smallest match found, n if none: CAS-min by every leaf, read between blocks
	best.Store(int64(n))
	lo := head // the range searched now starts here
	leaf := func(a, b uint64, _ none) none {
		for i := lo + int(a); i < lo+int(b); i += searchBlock {
			if best.Load() <= int64(i) {
				return none{} // a match before this block is known
			}
			if j := indexSerial(s[i:min(i+searchBlock, lo+int(b))], f); j >= 0 {
				for m := int64(i + j); ; {
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

// ContainsFunc reports whether f(e) is true for some element e of s, like
// slices.ContainsFunc: IndexFunc(s, f, opts...) >= 0.
func ContainsFunc[S ~[]E, E any](s S, f func(E) bool, opts ...Option) bool {
	return indexFunc("par.ContainsFunc", s, f, opts) >= 0
}
