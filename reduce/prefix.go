package reduce

import (
	"fmt"
	"unsafe"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
)

// prefixBlockBytes is the size of a block of src in PrefixSum and
// PrefixSumInclusive: small enough that a block and its part of dst stay
// in a core's L2 cache between the block's fold and its scan, large enough
// that the few atomic operations a block costs are lost in it.
const prefixBlockBytes = 256 << 10

// scanBlockLen is ScanBlocks' block length when no par.Grain names one:
// prefixBlockBytes of 8-byte elements.
const scanBlockLen = 1 << 15

// PrefixSum writes the exclusive running sum of src into dst,
//
//	dst[0] = 0
//	dst[i] = src[0] + ... + src[i-1]
//
// and returns the sum of all of src, as a serial loop would (integers wrap
// around as they do there). It is Scan with + and 0, with no call per
// element: the form to use for sums.
//
// dst may be src itself; PrefixSum panics, before writing anything, if the
// lengths differ or if dst overlaps src in any other way. Its one option is
// par.WithPool.
//
// It reads src once from memory and writes dst once: src is scanned in
// blocks that fit a core's cache, each block's carry found by looking back
// at the blocks before it (see the package doc), and with one worker it is
// a single serial pass. A float sum can differ from the serial loop's in the
// last bits, and from run to run, as the blocks are added in another
// order; with one worker it is the serial loop's.
func PrefixSum[S ~[]E, E Number](dst, src S, opts ...par.Option) E {
	pool := checkPrefix("reduce.PrefixSum", dst, src, opts)
	block := prefixBlock[E]()
	return runBlockScan(pool, len(src), block, E(0), add[E],
		func(lo, hi int) E { return sumSerial(src[lo:hi]) },
		func(lo, hi int, carry E) E { return prefixExclusive(dst[lo:hi], src[lo:hi], carry) })
}

// PrefixSumInclusive writes the inclusive running sum of src into dst,
//
//	dst[i] = src[0] + ... + src[i]
//
// with PrefixSum's rules, algorithm and option.
func PrefixSumInclusive[S ~[]E, E Number](dst, src S, opts ...par.Option) {
	pool := checkPrefix("reduce.PrefixSumInclusive", dst, src, opts)
	block := prefixBlock[E]()
	runBlockScan(pool, len(src), block, E(0), add[E],
		func(lo, hi int) E { return sumSerial(src[lo:hi]) },
		func(lo, hi int, carry E) E { return prefixInclusive(dst[lo:hi], src[lo:hi], carry) })
}

// ScanBlocks is the block form of Scan, for when op is cheap: the caller's
// own loops do the work over blocks of [0, n), so that their op compiles
// into them, and ScanBlocks links the blocks up. fold(lo, hi) returns the
// combination of elements lo..hi-1 from identity; scan(lo, hi, carry)
// writes the prefix combinations of elements lo..hi-1 starting from carry,
// the combination of every element before lo (identity for lo = 0), and
// returns the combination through element hi-1, which must be
// op(carry, fold(lo, hi)). ScanBlocks returns the combination of all n
// elements (identity for n = 0). For a running sum of int64s:
//
//	total := reduce.ScanBlocks(len(src), 0, func(x, y int64) int64 { return x + y },
//		func(lo, hi int) int64 {
//			var s0, s1 int64 // two chains of additions run at once
//			s := src[lo:hi]
//			for ; len(s) >= 2; s = s[2:] {
//				s0 += s[0]
//				s1 += s[1]
//			}
//			for _, v := range s {
//				s0 += v
//			}
//			return s0 + s1
//		},
//		func(lo, hi int, acc int64) int64 {
//			d, s := dst[lo:hi], src[lo:hi] // sliced once: no bounds check per element
//			for i, v := range s {
//				d[i] = acc
//				acc += v
//			}
//			return acc
//		})
//
// A second worker gains what it saves in scans less what it spends in
// folds, so fold should be as cheap as it can be made: several
// accumulators for a sum, no writes.
//
// op must be associative with identity as its identity; it need not be
// commutative. scan is called exactly once for each block, and fold at
// most once, only for a block whose carry is not known when a worker takes
// it (never with one worker); op is called a few times per block. The
// callbacks run on several workers at once, for different blocks, and a
// block's fold and scan may run on different workers. scan may overwrite
// the input of its own block (an in-place scan), since no callback reads a
// block after its scan has started.
//
// It runs in one pass, as PrefixSum does. Its options are par.WithPool and
// par.Grain, the block length (default 32768: 256 KiB of int64s; a block's
// data should fit in a core's L2 cache). It panics if n is negative or op,
// fold or scan is nil; a panic in a callback reaches the caller, with the
// output partly written.
func ScanBlocks[E any](n int, identity E, op func(x, y E) E,
	fold func(lo, hi int) E, scan func(lo, hi int, carry E) E, opts ...par.Option) E {
	c := loop.Resolve("reduce.ScanBlocks", loop.SetPool|loop.SetGrain, opts)
	if n < 0 {
		panic(fmt.Sprintf("reduce: ScanBlocks with n = %d", n))
	}
	if op == nil || fold == nil || scan == nil {
		panic("reduce: ScanBlocks with a nil op, fold or scan")
	}
	block := scanBlockLen
	if c.Has(loop.SetGrain) {
		block = int(min(c.Grain, uint64(max(n, 1))))
	}
	return runBlockScan(c.Pool, n, block, identity, op, fold, scan)
}

// prefixBlock returns the block length of a prefix sum of E.
func prefixBlock[E any]() int {
	var e E
	return max(prefixBlockBytes/int(unsafe.Sizeof(e)), 1)
}

// checkPrefix is checkScan for the prefix sums, which have no op.
func checkPrefix[E Number](call string, dst, src []E, opts []par.Option) *core.Pool {
	return checkScan(call, dst, src, add[E], opts)
}

// prefixExclusive writes the exclusive running sum of s, starting from acc,
// into d (len(d) = len(s); d may be s) and returns acc plus the sum of s.
func prefixExclusive[E Number](d, s []E, acc E) E {
	d = d[:len(s)]
	i := 0
	for ; i+4 <= len(s); i += 4 {
		x, y := (*[4]E)(s[i:]), (*[4]E)(d[i:])
		v0, v1, v2, v3 := x[0], x[1], x[2], x[3] // read before d, which may be s, is written
		y[0] = acc
		acc += v0
		y[1] = acc
		acc += v1
		y[2] = acc
		acc += v2
		y[3] = acc
		acc += v3
	}
	for ; i < len(s); i++ {
		v := s[i]
		d[i] = acc
		acc += v
	}
	return acc
}

// prefixInclusive writes the inclusive running sum of s, continuing from
// acc, into d (len(d) = len(s); d may be s) and returns the last sum.
func prefixInclusive[E Number](d, s []E, acc E) E {
	d = d[:len(s)]
	i := 0
	for ; i+4 <= len(s); i += 4 {
		x, y := (*[4]E)(s[i:]), (*[4]E)(d[i:])
		acc += x[0]
		y[0] = acc
		acc += x[1]
		y[1] = acc
		acc += x[2]
		y[2] = acc
		acc += x[3]
		y[3] = acc
	}
	for ; i < len(s); i++ {
		acc += s[i]
		d[i] = acc
	}
	return acc
}
