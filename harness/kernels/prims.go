package kernels

import (
	"math/rand/v2"
	"slices"

	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// The parallel primitives' inputs and serial programs: each primitive of
// par, reduce and sortpar runs beside the loop or the slices function a Go
// user has, and beside that loop calling its callback through a func value
// (the "Func" programs, noinline so the call is not devirtualized), which
// is what any generic serial version pays.
const (
	PrimN      = 10_000_000  // elements of most primitives
	PrimScanN  = 100_000_000 // elements of the scans
	PrimCacheN = 1_000_000   // elements of a scan that stays in the last-level cache
	Buckets    = 1 << 16     // histogram buckets
	PrimAt     = 500         // an early match of the searches
)

// PrimSize returns n at the Full scale, n/10 at the Quick scale.
func PrimSize(s Scale, n int) int { return pick(s, n, n/10) }

// Add is the scans' and reductions' op.
func Add(a, b int64) int64 { return a + b }

// ScanInput returns the scans' input, n random int64 in [0, 1000), a dst
// as long, and their sum.
func ScanInput(n int) (src, dst []int64, sum int64) {
	src, dst = make([]int64, n), make([]int64, n)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range src {
		src[i] = rng.Int64N(1000)
		sum += src[i]
	}
	return src, dst, sum
}

// ScanSerial is the exclusive running sum; it returns the total.
func ScanSerial(dst, src []int64) int64 {
	var s int64
	for i, v := range src {
		dst[i] = s
		s += v
	}
	return s
}

// ScanSerialOp is ScanSerial calling op through a func value.
//
//go:noinline
func ScanSerialOp[E any](dst, src []E, acc E, op func(E, E) E) E {
	for i, v := range src {
		dst[i] = acc
		acc = op(acc, v)
	}
	return acc
}

// ScanInclusiveSerial is the inclusive running sum.
func ScanInclusiveSerial(dst, src []int64) {
	var s int64
	for i, v := range src {
		s += v
		dst[i] = s
	}
}

// ScanInclusiveSerialOp is ScanInclusiveSerial calling op through a func
// value; it returns the total.
//
//go:noinline
func ScanInclusiveSerialOp[E any](dst, src []E, acc E, op func(E, E) E) E {
	for i, v := range src {
		acc = op(acc, v)
		dst[i] = acc
	}
	return acc
}

// ScanBlocksSum is the running sum as ScanBlocks' doc writes it: the
// serial loops over a block, the fold in two accumulators.
func ScanBlocksSum(dst, src []int64, opts ...par.Option) int64 {
	return reduce.ScanBlocks(len(src), 0, Add,
		func(lo, hi int) int64 {
			var s0, s1 int64
			s := src[lo:hi]
			for ; len(s) >= 2; s = s[2:] {
				s0 += s[0]
				s1 += s[1]
			}
			for _, v := range s {
				s0 += v
			}
			return s0 + s1
		},
		func(lo, hi int, acc int64) int64 {
			d, s := dst[lo:hi], src[lo:hi]
			for i, v := range s {
				d[i] = acc
				acc += v
			}
			return acc
		}, opts...)
}

// Random returns n random uint64 of the given seed and how many are
// multiples of 3.
func Random(n int, seed uint64) (x []uint64, thirds int) {
	x = make([]uint64, n)
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := range x {
		x[i] = rng.Uint64()
		if x[i]%3 == 0 {
			thirds++
		}
	}
	return x, thirds
}

// Third reports whether v is a multiple of 3: the filters' test.
func Third(v uint64) bool { return v%3 == 0 }

// FilterAppend is the append loop with the test written in it.
func FilterAppend(s []uint64) []uint64 {
	var out []uint64
	for _, v := range s {
		if v%3 == 0 {
			out = append(out, v)
		}
	}
	return out
}

// FilterAppendFunc is the append loop calling keep through a func value.
//
//go:noinline
func FilterAppendFunc[E any](s []E, keep func(E) bool) []E {
	var out []E
	for _, v := range s {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}

// FilterBlocksThirds is par.FilterBlocks with the append loop written out.
func FilterBlocksThirds(x []uint64, opts ...par.Option) []uint64 {
	return par.FilterBlocks(len(x), func(lo, hi int, dst []uint64) []uint64 {
		for _, v := range x[lo:hi] {
			if v%3 == 0 {
				dst = append(dst, v)
			}
		}
		return dst
	}, opts...)
}

// Top16 is the histograms' bucket: the top 16 bits.
func Top16(v uint64) int { return int(v >> 48) }

// HistSerial is the counting loop by the top 16 bits.
func HistSerial(s []uint64, buckets int) []int {
	h := make([]int, buckets)
	for _, v := range s {
		h[v>>48]++
	}
	return h
}

// HistSerialFunc is the counting loop calling bucket through a func value.
//
//go:noinline
func HistSerialFunc[E any](s []E, buckets int, bucket func(E) int) []int {
	h := make([]int, buckets)
	for _, v := range s {
		h[bucket(v)]++
	}
	return h
}

// StableInput returns n Records with random keys whose Payload is their
// index, so a stable sort keeps it increasing among equal keys.
func StableInput(n int) []Record {
	in := make([]Record, n)
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range in {
		in[i] = Record{Key: int64(rng.Uint64()), Payload: int64(i)}
	}
	return in
}

// RecordKey is a Record's key.
func RecordKey(r Record) int64 { return r.Key }

// ShuffleSerial is rand.Shuffle on a PCG seeded with seed.
func ShuffleSerial(x []int64, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0))
	r.Shuffle(len(x), func(i, j int) { x[i], x[j] = x[j], x[i] })
}

// MergeInput returns two sorted runs of random int64 of n in all and a
// dst as long.
func MergeInput(n int) (a, b, dst []int64) {
	rng := rand.New(rand.NewPCG(6, 6))
	a, b = make([]int64, n/2), make([]int64, n-n/2)
	for i := range a {
		a[i] = rng.Int64()
	}
	for i := range b {
		b[i] = rng.Int64()
	}
	slices.Sort(a)
	slices.Sort(b)
	return a, b, make([]int64, n)
}

// MergeTwoFinger is the serial two-finger merge.
func MergeTwoFinger(dst, a, b []int64) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if b[j] < a[i] {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// MergeTwoFingerFunc is MergeTwoFinger calling cmp through a func value.
//
//go:noinline
func MergeTwoFingerFunc[E any](dst, a, b []E, cmp func(x, y E) int) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// CompactInput returns n sorted random int64 in [0, n/10): about 10
// copies of each value.
func CompactInput(n int) []int64 {
	in := make([]int64, n)
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range in {
		in[i] = rng.Int64N(int64(max(n/10, 1)))
	}
	slices.Sort(in)
	return in
}

// IndexBlocksOne is par.IndexBlocks with the search loop for a 1 written
// out.
func IndexBlocksOne(x []int64, opts ...par.Option) int {
	return par.IndexBlocks(len(x), func(lo, hi int) int {
		for i, v := range x[lo:hi] {
			if v == 1 {
				return lo + i
			}
		}
		return -1
	}, opts...)
}

// KeysInput returns n random keys below buckets.
func KeysInput(n, buckets int) []uint32 {
	keys := make([]uint32, n)
	rng := rand.New(rand.NewPCG(8, 8))
	for i := range keys {
		keys[i] = uint32(rng.IntN(buckets))
	}
	return keys
}

// CountLoop is the counting loop over keys below buckets.
func CountLoop(keys []uint32, buckets int) []int {
	counts := make([]int, buckets)
	for _, k := range keys {
		counts[k]++
	}
	return counts
}

// CountsBlocks is reduce.HistogramBlocks with the counting loop written
// out.
func CountsBlocks(keys []uint32, buckets int, opts ...par.Option) []int {
	return reduce.HistogramBlocks(len(keys), buckets, func(lo, hi int, counts []int) {
		for _, k := range keys[lo:hi] {
			counts[k]++
		}
	}, opts...)
}

// SumInput returns n random int64 in [0, 1000) and their sum.
func SumInput(n int) (x []int64, sum int64) {
	x = make([]int64, n)
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range x {
		x[i] = rng.Int64N(1000)
		sum += x[i]
	}
	return x, sum
}

// SumLoop is the summing loop.
func SumLoop(s []int64) int64 {
	var t int64
	for _, v := range s {
		t += v
	}
	return t
}

// ReduceBlocksSum is reduce.Reduce with the summing loop written out: the
// block form of MapReduce.
func ReduceBlocksSum(x []int64, opts ...par.Option) int64 {
	return reduce.Reduce(0, len(x), 0, func(lo, hi int, acc int64) int64 {
		for _, v := range x[lo:hi] {
			acc += v
		}
		return acc
	}, Add, opts...)
}
