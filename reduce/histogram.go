package reduce

import (
	"fmt"
	"math"

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
// addition, and with more one per steal.
//
// Counts is the form without a call per element for integer keys, and
// HistogramBlocks the block form, for when bucket is cheap.
func Histogram[S ~[]E, E any](s S, buckets int, bucket func(E) int, opts ...par.Option) []int {
	return histogram(s, buckets, bucket, math.MaxUint32, opts)
}

// histogram is Histogram with the most elements a histogram of uint32
// counters takes before it is added into one of ints (math.MaxUint32; the
// tests make it small to reach the flushes).
func histogram[E any](s []E, buckets int, bucket func(E) int, limit uint64, opts []par.Option) []int {
	if buckets < 0 {
		panic(fmt.Sprintf("reduce: Histogram with %d buckets", buckets))
	}
	if bucket == nil {
		panic("reduce: Histogram with a nil bucket")
	}
	c := resolve("reduce.Histogram", opts)
	h := &histCtx[E]{s: s, bucket: bucket, buckets: buckets, limit: limit}
	root := &histBody[E]{h: h, narrow: make([]uint32, buckets)}
	if len(s) <= histSerialMax {
		root.Accumulate(0, len(s))
	} else {
		reduceBody(c, 0, len(s), root)
	}
	if i, k, found := h.bad.get(); found {
		panic(fmt.Sprintf("reduce: Histogram: bucket(s[%d]) = %d, outside [0, %d)", i, k, buckets))
	}
	root.flush()
	return root.wide
}

// histSerialMax is the length up to which Histogram counts on the calling
// goroutine.
const histSerialMax = 1 << 12

// histCtx is what the leaves of one Histogram share.
type histCtx[E any] struct {
	s       []E
	bucket  func(E) int
	buckets int
	limit   uint64 // the most elements counted into narrow between flushes
	bad     badKey // the first bucket out of range, reported after the run
}

// histBody is the histogram a run of leaves counts into, a Body of
// ReduceBody: a range a thief takes counts into a fresh one (Split), added
// into its left neighbour's when both are done (Join).
//
// It counts in uint32s (narrow): half the bytes of ints for every table a
// thief splits off to allocate, zero and join (with 2^16 buckets, 256 KiB
// instead of 512; measured, that is where the gain is, not in the counting
// loop). After limit elements, and at the end, narrow is added into the
// ints (wide) and cleared, so no counter can overflow.
type histBody[E any] struct {
	h      *histCtx[E]
	narrow []uint32
	held   uint64 // elements counted into narrow since the last flush
	wide   []int  // nil until the first flush
}

// Accumulate counts s[a:b], flushing narrow whenever it holds limit
// elements. It stops at the first element whose bucket is out of range,
// having recorded it in h.bad.
func (hb *histBody[E]) Accumulate(a, b int) {
	for a < b {
		if hb.held == hb.h.limit {
			hb.flush()
		}
		m := int(min(uint64(b-a), hb.h.limit-hb.held))
		if !hb.count(a, a+m) {
			return
		}
		hb.held += uint64(m)
		a += m
	}
}

// count counts s[a:b] into narrow, which has room for them, and reports
// whether every bucket was in range: at the first that is not, it records
// the element in h.bad and returns false (the counts are then partial, and
// the call panics once its leaves are done). The loop is
// unrolled by four, as the scan kernels are: a call through a func value
// keeps no register. It is never inlined, as they are not, so that under
// PGO bucket is inlined into it and it is not inlined into Accumulate
// (10^7 elements into 2^16 buckets at one worker: 0.74 of the counting
// loop's speed without PGO or inlined under it, 1.08 with PGO and kept
// apart).
//
//go:noinline
func (hb *histBody[E]) count(a, b int) bool {
	h := hb.h
	counts := hb.narrow[:h.buckets]
	bucket := h.bucket
	s := h.s[a:b]
	i := 0
	for ; i+4 <= len(s); i += 4 {
		x := (*[4]E)(s[i:])
		k0, k1, k2, k3 := bucket(x[0]), bucket(x[1]), bucket(x[2]), bucket(x[3])
		if uint(k0) >= uint(len(counts)) || uint(k1) >= uint(len(counts)) ||
			uint(k2) >= uint(len(counts)) || uint(k3) >= uint(len(counts)) {
			for m, k := range [4]int{k0, k1, k2, k3} {
				if uint(k) >= uint(len(counts)) {
					h.bad.note(a+i+m, k)
					return false
				}
			}
		}
		counts[k0]++
		counts[k1]++
		counts[k2]++
		counts[k3]++
	}
	for ; i < len(s); i++ {
		k := bucket(s[i])
		if uint(k) >= uint(len(counts)) {
			h.bad.note(a+i, k)
			return false
		}
		counts[k]++
	}
	return true
}

// wideCounts returns wide, allocating it on first use.
func (hb *histBody[E]) wideCounts() []int {
	if hb.wide == nil {
		hb.wide = make([]int, hb.h.buckets)
	}
	return hb.wide
}

// flush adds narrow into wide and clears it.
func (hb *histBody[E]) flush() {
	wide := hb.wideCounts()[:len(hb.narrow)]
	for k, c := range hb.narrow {
		wide[k] += int(c)
	}
	clear(hb.narrow)
	hb.held = 0
}

// Split gives a stolen right half a histogram of its own.
func (hb *histBody[E]) Split() *histBody[E] {
	return &histBody[E]{h: hb.h, narrow: make([]uint32, hb.h.buckets)}
}

// Join adds the counts of right, the range just after hb's, into hb's.
func (hb *histBody[E]) Join(right *histBody[E]) {
	if right.wide != nil {
		wide := hb.wideCounts()
		for k, c := range right.wide[:len(wide)] {
			wide[k] += c
		}
	}
	if hb.held+right.held > hb.h.limit {
		hb.flush()
	}
	rc := right.narrow[:len(hb.narrow)]
	for k, c := range rc {
		hb.narrow[k] += c
	}
	hb.held += right.held
}
