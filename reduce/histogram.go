package reduce

import (
	"fmt"

	"github.com/gofork/gofork/par"
)

// Histogram returns counts of length buckets where counts[k] is the number of
// elements e of s with bucket(e) == k, computed in parallel on the pool
// named by opts. bucket is called once per element, from several workers at
// once. It panics if buckets is negative or bucket is nil, and, naming the
// element's index and the value returned, if bucket returns a value outside
// [0, buckets); a panic in bucket reaches the caller.
//
// The counting runs in one histogram per run of leaves: a range a thief
// takes counts into a histogram of its own, added into its left neighbour's
// when both are done, so with one worker there is one histogram and no
// addition, and with p workers a few more than p.
func Histogram[S ~[]E, E any](s S, buckets int, bucket func(E) int, opts ...par.Option) []int {
	if buckets < 0 {
		panic(fmt.Sprintf("reduce: Histogram with %d buckets", buckets))
	}
	if bucket == nil {
		panic("reduce: Histogram with a nil bucket")
	}
	root := &histState{counts: make([]int, buckets)}
	if len(s) == 0 {
		return root.counts
	}
	h := histCtx[E]{s: s, bucket: bucket, buckets: buckets}
	if len(s) <= histSerialMax {
		return h.leaf(0, uint64(len(s)), root).counts
	}
	return par.Split(uint64(len(s)), root, par.Ops[*histState]{
		Leaf:  h.leaf,
		Right: h.right,
		Join:  h.join,
	}, opts...).counts
}

// histSerialMax is the length up to which Histogram counts on the calling
// goroutine.
const histSerialMax = 1 << 12

// histState is the histogram a run of leaves counts into.
type histState struct{ counts []int }

// histCtx is what the leaves of one Histogram share.
type histCtx[E any] struct {
	s       []E
	bucket  func(E) int
	buckets int
}

// leaf counts s[a:b] into st. The loop is unrolled by four, as the scan
// kernels are: a call through a func value keeps no register.
func (h *histCtx[E]) leaf(a, b uint64, st *histState) *histState {
	counts := st.counts[:h.buckets]
	bucket := h.bucket
	s := h.s[a:b]
	i := 0
	for ; i+4 <= len(s); i += 4 {
		x := (*[4]E)(s[i:])
		k0, k1, k2, k3 := bucket(x[0]), bucket(x[1]), bucket(x[2]), bucket(x[3])
		if uint(k0) >= uint(len(counts)) || uint(k1) >= uint(len(counts)) ||
			uint(k2) >= uint(len(counts)) || uint(k3) >= uint(len(counts)) {
			for m, k := range [4]int{k0, k1, k2, k3} {
				h.check(int(a)+i+m, k)
			}
		}
		counts[k0]++
		counts[k1]++
		counts[k2]++
		counts[k3]++
	}
	for ; i < len(s); i++ {
		k := bucket(s[i])
		h.check(int(a)+i, k)
		counts[k]++
	}
	return st
}

// check panics if k, the bucket of s[i], is out of range.
func (h *histCtx[E]) check(i, k int) {
	if uint(k) >= uint(h.buckets) {
		panic(fmt.Sprintf("reduce: Histogram: bucket(s[%d]) = %d, outside [0, %d)", i, k, h.buckets))
	}
}

// right gives a stolen right half a histogram of its own.
func (h *histCtx[E]) right(parent *histState, stolen bool) *histState {
	if !stolen {
		return parent
	}
	return &histState{counts: make([]int, h.buckets)}
}

// join adds y's counts into x's, unless both are the same histogram.
func (h *histCtx[E]) join(x, y *histState) *histState {
	if x != y {
		yc := y.counts[:len(x.counts)]
		for k, c := range yc {
			x.counts[k] += c
		}
	}
	return x
}
