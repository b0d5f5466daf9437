package reduce_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// prefixOracle is the serial loop: the exclusive and inclusive running sums
// and the total.
func prefixOracle[E reduce.Number](src []E) (excl, incl []E, total E) {
	excl, incl = make([]E, len(src)), make([]E, len(src))
	for i, v := range src {
		excl[i] = total
		total += v
		incl[i] = total
	}
	return excl, incl, total
}

// checkPrefix runs PrefixSum and PrefixSumInclusive into a fresh dst and in
// place and compares them with the serial loop.
func checkPrefix[E reduce.Number](t *testing.T, src []E, opts ...par.Option) {
	t.Helper()
	excl, incl, total := prefixOracle(src)
	dst := make([]E, len(src))
	if got := reduce.PrefixSum(dst, src, opts...); got != total {
		t.Fatalf("%T n=%d: PrefixSum returned %v, want %v", src, len(src), got, total)
	}
	if i := firstDiff(dst, excl); i >= 0 {
		t.Fatalf("%T n=%d: PrefixSum: dst[%d] = %v, want %v", src, len(src), i, dst[i], excl[i])
	}
	reduce.PrefixSumInclusive(dst, src, opts...)
	if i := firstDiff(dst, incl); i >= 0 {
		t.Fatalf("%T n=%d: PrefixSumInclusive: dst[%d] = %v, want %v", src, len(src), i, dst[i], incl[i])
	}
	in := slices.Clone(src)
	if got := reduce.PrefixSum(in, in, opts...); got != total {
		t.Fatalf("%T n=%d: in-place PrefixSum returned %v, want %v", src, len(src), got, total)
	}
	if i := firstDiff(in, excl); i >= 0 {
		t.Fatalf("%T n=%d: in-place PrefixSum: [%d] = %v, want %v", src, len(src), i, in[i], excl[i])
	}
	copy(in, src)
	reduce.PrefixSumInclusive(in, in, opts...)
	if i := firstDiff(in, incl); i >= 0 {
		t.Fatalf("%T n=%d: in-place PrefixSumInclusive: [%d] = %v, want %v", src, len(src), i, in[i], incl[i])
	}
}

func TestPrefixSumMatchesSerialLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		opt := par.WithPool(p)
		for _, n := range sizesAround(reduce.PrefixBlockLen[int64]()) {
			x := make([]int64, n)
			for i := range x {
				x[i] = rng.Int64() // sums wrap around, as in the serial loop
			}
			checkPrefix(t, x, opt)
		}
		for _, n := range sizesAround(reduce.PrefixBlockLen[uint8]()) {
			b := make([]uint8, n)
			f := make([]float64, n) // small integers: every sum is exact
			for i := range b {
				b[i] = uint8(rng.Uint32())
				f[i] = float64(rng.IntN(1000) - 500)
			}
			checkPrefix(t, b, opt)
			checkPrefix(t, f, opt)
		}
	})
}

// blockCalls counts the calls ScanBlocks makes per block, keyed by the
// block's first index, and checks that each block is the one its index
// names.
type blockCalls struct {
	block, n     int
	folds, scans []atomic.Int32
	bad          atomic.Value // the first bad block seen, as a string
}

func newBlockCalls(n, block int) *blockCalls {
	nb := (n + block - 1) / block
	return &blockCalls{block: block, n: n, folds: make([]atomic.Int32, nb), scans: make([]atomic.Int32, nb)}
}

// check records a call on [lo, hi) in calls.
func (c *blockCalls) check(lo, hi int, calls []atomic.Int32) {
	if lo%c.block != 0 || hi != min(lo+c.block, c.n) {
		c.bad.CompareAndSwap(nil, fmt.Sprintf("[%d, %d)", lo, hi))
		return
	}
	calls[lo/c.block].Add(1)
}

// verify fails t unless every block was scanned once and folded at most
// once, and never folded if folds must be zero.
func (c *blockCalls) verify(t *testing.T, noFolds bool) {
	t.Helper()
	if v := c.bad.Load(); v != nil {
		t.Fatalf("n=%d block=%d: a call on %s, not a block", c.n, c.block, v)
	}
	for b := range c.scans {
		if s, f := c.scans[b].Load(), c.folds[b].Load(); s != 1 || f > 1 || noFolds && f != 0 {
			t.Fatalf("n=%d block=%d: block %d scanned %d times, folded %d times", c.n, c.block, b, s, f)
		}
	}
}

// scanBlocksAffine runs ScanBlocks over fs with block length block (0:
// the default) as an exclusive scan into dst, counting its calls in calls.
func scanBlocksAffine(dst, fs []affine, block int, calls *blockCalls, opts ...par.Option) affine {
	if block > 0 {
		opts = append(opts, par.Grain(block))
	}
	return reduce.ScanBlocks(len(fs), affineID, then,
		func(lo, hi int) affine {
			calls.check(lo, hi, calls.folds)
			acc := affineID
			for _, f := range fs[lo:hi] {
				acc = then(acc, f)
			}
			return acc
		},
		func(lo, hi int, acc affine) affine {
			calls.check(lo, hi, calls.scans)
			for i := lo; i < hi; i++ {
				f := fs[i]
				dst[i] = acc
				acc = then(acc, f)
			}
			return acc
		}, opts...)
}

func TestScanBlocksMatchesSerialLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, block := range []int{1, 3, 64, 0} {
			size := block
			if block == 0 {
				size = reduce.ScanBlockLen
			}
			for _, n := range sizesAround(size) {
				if block > 0 && block < 64 && n > 1<<14 {
					continue // tens of thousands of blocks: enough for the hand-offs
				}
				fs := make([]affine, n)
				for i := range fs {
					fs[i] = affine{rng.Uint64() | 1, rng.Uint64()}
				}
				excl, _, total := scanOracle(fs, affineID, then)
				for _, inPlace := range []bool{false, true} {
					dst := make([]affine, n)
					if inPlace {
						copy(dst, fs)
					}
					src := fs
					if inPlace {
						src = dst
					}
					calls := newBlockCalls(n, size)
					if got := scanBlocksAffine(dst, src, block, calls, par.WithPool(p)); got != total {
						t.Fatalf("block=%d n=%d in-place=%v: ScanBlocks returned %v, want %v", block, n, inPlace, got, total)
					}
					if i := firstDiff(dst, excl); i >= 0 {
						t.Fatalf("block=%d n=%d in-place=%v: dst[%d] = %v, want %v", block, n, inPlace, i, dst[i], excl[i])
					}
					calls.verify(t, p.Workers() == 1)
				}
			}
		}
	})
}

// TestScanBlocksHandOff scans thousands of short blocks, or fifty, on more
// workers than processors, with callbacks that spin a little and yield at random,
// so that blocks are folded, handed off and taken over in every order. The
// scan of block 0 waits (for at most 100 ms) until a fold has started
// elsewhere, so that the other workers are at work before the first block
// is resolved.
func TestScanBlocksHandOff(t *testing.T) {
	rounds := 12
	if testing.Short() || raceEnabled {
		rounds = 3
	}
	for _, w := range []int{2, 3, 8} {
		p := core.New(core.WithWorkers(w))
		for r := range rounds {
			rng := rand.New(rand.NewPCG(uint64(r), uint64(w)))
			n := 2000 + rng.IntN(2000)
			x := make([]int64, n)
			for i := range x {
				x[i] = rng.Int64N(100)
			}
			excl, _, total := prefixOracle(x)
			dst := make([]int64, n)
			// Thousands of one-to-three-element blocks, or about 50 (two
			// lanes on two workers).
			grain := 1 + r%3
			if r%2 == 1 {
				grain = n/50 + 1
			}
			var folds atomic.Int64
			work := func(lo int) {
				h := uint64(lo)*0x9e3779b97f4a7c15 + 1
				for range 100 + lo%300 {
					h ^= h << 13
					h ^= h >> 7
					h ^= h << 17
				}
				if h%5 == 0 {
					runtime.Gosched()
				}
			}
			got := reduce.ScanBlocks(n, 0, addInt64,
				func(lo, hi int) int64 {
					folds.Add(1)
					work(lo)
					return reduce.Sum(x[lo:hi])
				},
				func(lo, hi int, acc int64) int64 {
					if lo == 0 {
						for start := time.Now(); folds.Load() == 0 && time.Since(start) < 100*time.Millisecond; {
							runtime.Gosched()
						}
					}
					work(lo)
					for i := lo; i < hi; i++ {
						dst[i] = acc
						acc += x[i]
					}
					return acc
				}, par.WithPool(p), par.Grain(grain))
			if got != total {
				t.Fatalf("p=%d round %d: ScanBlocks returned %d, want %d", w, r, got, total)
			}
			if i := firstDiff(dst, excl); i >= 0 {
				t.Fatalf("p=%d round %d: dst[%d] = %d, want %d", w, r, i, dst[i], excl[i])
			}
		}
		p.Close()
	}
}

// TestScanBlocksNested runs a parallel loop inside every scan callback, so
// that a worker waiting for it may take another block of the same scan:
// that block must not wait for the one it interrupted.
func TestScanBlocksNested(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		const n = 1 << 12
		x := make([]int64, n)
		for i := range x {
			x[i] = int64(i)
		}
		excl, _, total := prefixOracle(x)
		dst := make([]int64, n)
		got := reduce.ScanBlocks(n, 0, addInt64,
			func(lo, hi int) int64 {
				return reduce.Sum(x[lo:hi], par.Grain(8)) // nested, on the same pool
			},
			func(lo, hi int, acc int64) int64 {
				par.For(lo, hi, func(int) {}, par.Grain(4))
				for i := lo; i < hi; i++ {
					dst[i] = acc
					acc += x[i]
				}
				return acc
			}, par.WithPool(p), par.Grain(64))
		if got != total || firstDiff(dst, excl) >= 0 {
			t.Fatalf("nested ScanBlocks: total %d, want %d; first difference at %d", got, total, firstDiff(dst, excl))
		}
	})
}

func TestScanBlocksPanic(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, inFold := range []bool{false, true} {
			const n, bad = 1 << 14, 9000
			v := catch(func() {
				reduce.ScanBlocks(n, 0, addInt64,
					func(lo, hi int) int64 {
						if inFold && lo <= bad && bad < hi {
							panic("bad block")
						}
						return 0
					},
					func(lo, hi int, acc int64) int64 {
						if lo <= bad && bad < hi && (!inFold || p.Workers() == 1) {
							panic("bad block")
						}
						return acc
					}, par.WithPool(p), par.Grain(100))
			})
			// A fold runs only where the carry is not known: the panic in
			// fold may not happen, but it must reach the caller if it does.
			if v != "bad block" && !(inFold && v == nil) {
				t.Errorf("fold=%v: recovered %v", inFold, v)
			}
		}
	})
	for name, f := range map[string]func(){
		"n": func() {
			reduce.ScanBlocks(-1, 0, addInt64, func(int, int) int64 { return 0 }, func(int, int, int64) int64 { return 0 })
		},
		"op": func() {
			reduce.ScanBlocks(1, 0, nil, func(int, int) int64 { return 0 }, func(int, int, int64) int64 { return 0 })
		},
		"fold": func() { reduce.ScanBlocks(1, 0, addInt64, nil, func(int, int, int64) int64 { return 0 }) },
		"scan": func() { reduce.ScanBlocks(1, 0, addInt64, func(int, int) int64 { return 0 }, nil) },
	} {
		if v := catch(f); v == nil || !strings.HasPrefix(fmt.Sprint(v), "reduce: ScanBlocks with") {
			t.Errorf("bad %s: recovered %v", name, v)
		}
	}
	if v := catch(func() { reduce.PrefixSum(make([]int, 3), make([]int, 4)) }); fmt.Sprint(v) != "reduce: PrefixSum: len(dst) = 3, len(src) = 4" {
		t.Errorf("PrefixSum, lengths differ: recovered %v", v)
	}
	x := make([]int, 10)
	if v := catch(func() { reduce.PrefixSumInclusive(x[1:], x[:9]) }); fmt.Sprint(v) != "reduce: PrefixSumInclusive: dst[0] is src[1]: dst must be src itself or not overlap it" {
		t.Errorf("PrefixSumInclusive, overlap: recovered %v", v)
	}
}

// TestBlockBoundsNear32Bits checks the block arithmetic where a block's
// end, or its index times the block length, passes 2^31: on a 32-bit port
// an int holds neither.
func TestBlockBoundsNear32Bits(t *testing.T) {
	const n = math.MaxInt32
	for _, block := range []int{1 << 10, 1 << 16, 1<<30 + 1, math.MaxInt32 - 1} {
		nb := (int64(n) + int64(block) - 1) / int64(block)
		for _, i := range []int64{0, 1, nb - 2, nb - 1} {
			if i < 0 {
				continue
			}
			lo, hi := reduce.BlockBounds(int(i), block, n)
			wantLo := i * int64(block)
			wantHi := min(wantLo+int64(block), n)
			if int64(lo) != wantLo || int64(hi) != wantHi {
				t.Errorf("block %d of length %d in [0, %d): [%d, %d), want [%d, %d)", i, block, n, lo, hi, wantLo, wantHi)
			}
		}
	}
	// A whole scan over 2^31-1 indices: the callbacks touch no memory.
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	var covered atomic.Int64
	total := reduce.ScanBlocks(n, 0, addInt64,
		func(lo, hi int) int64 { return int64(hi - lo) },
		func(lo, hi int, acc int64) int64 {
			if int64(acc) != int64(lo) || hi <= lo {
				covered.Store(math.MinInt64)
			}
			covered.Add(int64(hi - lo))
			return acc + int64(hi-lo)
		}, par.WithPool(p), par.Grain(1<<16))
	if total != n || covered.Load() != n {
		t.Errorf("ScanBlocks over [0, %d): total %d, %d indices scanned (negative: a carry was wrong)", n, total, covered.Load())
	}
}
