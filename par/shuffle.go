package par

import (
	"math/bits"

	"github.com/gofork/gofork/internal/loop"
)

// The sizes Shuffle is built around. They are variables only so that tests
// can reach the parallel path with small slices; the permutation for a seed
// depends on them, so they never change otherwise.
var (
	// shuffleSerialMax is the length up to which Shuffle is one serial
	// Fisher-Yates pass.
	shuffleSerialMax = 1 << 15
	// shuffleBucketLen is the mean number of elements per bucket of the
	// parallel shuffle: a bucket's elements stay in the cache while they
	// are shuffled.
	shuffleBucketLen = 1 << 14
)

// Shuffle permutes the elements of s uniformly at random, in parallel. The
// permutation depends only on seed and len(s): every worker count, pool and
// partitioner gives the same one, and two slices of the same length shuffled
// with the same seed are permuted alike. It allocates a buffer of len(s)
// elements (none when len(s) <= 32768). The random numbers come from the
// SplitMix64 mixer, not from a cryptographic source.
//
// Slices longer than 32768 elements are shuffled in three phases (the
// scatter-then-shuffle scheme of ParlayLib's random_shuffle): every element
// draws one of about len(s)/16384 buckets from a hash of (seed, its index),
// each block of s counts its elements per bucket, the counts are summed
// bucket by bucket, each block copies its elements into their buckets of the
// buffer, in order, and each bucket is shuffled by Fisher-Yates (inside out,
// from the buffer back into s) with a generator seeded by (seed, bucket).
// Drawing the buckets independently and uniformly, then permuting each bucket
// uniformly, gives every permutation of s the same probability.
func Shuffle[S ~[]E, E any](s S, seed uint64, opts ...Option) {
	c := resolve("par.Shuffle", loop.Loops, opts)
	n := len(s)
	if n <= shuffleSerialMax {
		r := newSplitMix(seed, 0)
		for i := n - 1; i > 0; i-- {
			j := r.below(uint64(i) + 1)
			s[i], s[j] = s[j], s[i]
		}
		return
	}
	nb := uint64((n + shuffleBucketLen - 1) / shuffleBucketLen) // depends on n only
	draw := bucketDraw{key: mix64(seed ^ 0x6a09e667f3bcc909), n: nb}
	// Blocks only split the counting and the scatter; the scatter is stable
	// whatever the blocks, so their number may depend on the pool.
	nblk := min(4*c.Pool.Workers(), n/shuffleBucketLen)
	counts := make([]int, nblk*int(nb)) // block-major: counts[blk*nb+k]
	buf := make([]E, n)
	starts := make([]int, nb+1)
	block := func(blk int) (lo, hi int, cnt []int) {
		// chunkBound: blk*n overflows a 32-bit int from n > 2^31/nblk.
		lo = int(loop.ChunkBound(uint64(blk), uint64(nblk), uint64(n)))
		hi = int(loop.ChunkBound(uint64(blk+1), uint64(nblk), uint64(n)))
		return lo, hi, counts[blk*int(nb) : (blk+1)*int(nb)]
	}
	onPool(c, func() {
		loop.Split(uint64(nblk), none{}, loop.Ops[none]{Leaf: rangeLeaf(0, func(b0, b1 int) {
			for blk := b0; blk < b1; blk++ {
				lo, hi, cnt := block(blk)
				for i := lo; i < hi; i++ {
					cnt[draw.bucket(uint64(i))]++
				}
			}
		})}, c, nil)
		sum := 0
		for k := range int(nb) {
			starts[k] = sum
			for blk := range nblk {
				i := blk*int(nb) + k
				sum, counts[i] = sum+counts[i], sum
			}
		}
		starts[nb] = n
		loop.Split(uint64(nblk), none{}, loop.Ops[none]{Leaf: rangeLeaf(0, func(b0, b1 int) {
			for blk := b0; blk < b1; blk++ {
				lo, hi, next := block(blk)
				for i, v := range s[lo:hi] {
					k := draw.bucket(uint64(lo + i))
					buf[next[k]] = v
					next[k]++
				}
			}
		})}, c, nil)
		loop.Split(nb, none{}, loop.Ops[none]{Leaf: rangeLeaf(0, func(k0, k1 int) {
			for k := k0; k < k1; k++ {
				lo, hi := starts[k], starts[k+1]
				r := newSplitMix(seed, uint64(k)+1)
				d, src := s[lo:hi], buf[lo:hi]
				for i, v := range src {
					j := r.below(uint64(i) + 1)
					d[i] = d[j]
					d[j] = v
				}
			}
		})}, c, nil)
	})
}

// mix64 is the SplitMix64 output function (Steele, Lea and Flood, "Fast
// splittable pseudorandom number generators", OOPSLA 2014).
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// golden is SplitMix64's increment, 2^64 divided by the golden ratio.
const golden = 0x9e3779b97f4a7c15

// splitMix is a SplitMix64 generator.
type splitMix struct{ state uint64 }

// newSplitMix returns the generator of stream k of seed.
func newSplitMix(seed, k uint64) splitMix {
	return splitMix{mix64(seed+golden*k) ^ mix64(k^0xbb67ae8584caa73b)}
}

func (r *splitMix) next() uint64 {
	r.state += golden
	return mix64(r.state)
}

// below returns a uniform value in [0, m), m > 0, by Lemire's multiply-shift
// with rejection ("Fast random integer generation in an interval", 2019).
func (r *splitMix) below(m uint64) uint64 {
	hi, lo := bits.Mul64(r.next(), m)
	if lo < m {
		for t := -m % m; lo < t; {
			hi, lo = bits.Mul64(r.next(), m)
		}
	}
	return hi
}

// bucketDraw gives every index a bucket in [0, n), uniform and independent
// across indices: Lemire's method on a hash of the index, rehashed on the
// rare rejection.
type bucketDraw struct {
	key, n uint64
}

func (d bucketDraw) bucket(i uint64) uint64 {
	z := mix64(d.key + golden*i)
	hi, lo := bits.Mul64(z, d.n)
	if lo < d.n {
		for t := -d.n % d.n; lo < t; {
			z = mix64(z + golden)
			hi, lo = bits.Mul64(z, d.n)
		}
	}
	return hi
}
