package par

import "sync/atomic"

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
// several workers at once, and on elements after the first match; it is never
// called on an element after a match that is already known.
//
// The search stops early: when the first match is at i, f is called
// O(i + p·b) times for p workers and b = 256, the elements a leaf checks
// between looks at the best match so far. The first 2048 elements are
// checked serially, then ranges that double in length, each searched in
// parallel (one fork-join phase per range, its leaves cut by the
// partitioner named by opts), until one holds a match.
func IndexFunc[S ~[]E, E any](s S, f func(E) bool, opts ...Option) int {
	if f == nil {
		panic("par: IndexFunc with a nil f")
	}
	n := len(s)
	head := min(n, searchHead)
	for i, v := range s[:head] {
		if f(v) {
			return i
		}
	}
	if head == n {
		return -1
	}
	c := resolve(opts)
	var best atomic.Int64 // the smallest match found, n if none: CAS-min by every leaf, read between blocks
	best.Store(int64(n))
	lo := head // the range searched now starts here
	leaf := func(a, b uint64, _ none) none {
		for i := lo + int(a); i < lo+int(b); i += searchBlock {
			if best.Load() <= int64(i) {
				return none{} // a match before this block is known
			}
			for j, v := range s[i:min(i+searchBlock, lo+int(b))] {
				if f(v) {
					for m := int64(i + j); ; {
						old := best.Load()
						if old <= m || best.CompareAndSwap(old, m) {
							return none{}
						}
					}
				}
			}
		}
		return none{}
	}
	onPool(c, func() {
		for size := head; lo < n; size *= 2 {
			hi := min(lo+size, n)
			run(uint64(hi-lo), none{}, Ops[none]{Leaf: leaf}, c, nil)
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
	return IndexFunc(s, f, opts...) >= 0
}
