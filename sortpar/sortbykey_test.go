package sortpar

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// record is what the SortByKey tests sort: a key, the element's input
// position, and a check word that ties the two (a torn record shows).
type record[K any] struct {
	key   K
	idx   int
	check int
}

func newRecords[K any](keys []K) []record[K] {
	s := make([]record[K], len(keys))
	for i, k := range keys {
		s[i] = record[K]{k, i, i * 7919}
	}
	return s
}

// checkPermutation fails unless s holds every record of its input exactly
// once, untorn: each index once, with its own key (equal by bits, compared
// with same) and check word.
func checkPermutation[K any](t *testing.T, what string, s []record[K], keys []K, same func(a, b K) bool) {
	t.Helper()
	seen := make([]bool, len(keys))
	for i, r := range s {
		if r.idx < 0 || r.idx >= len(keys) || seen[r.idx] || r.check != r.idx*7919 || !same(r.key, keys[r.idx]) {
			t.Fatalf("%s n=%d: [%d] = %v: lost, duplicated or torn", what, len(keys), i, r)
		}
		seen[r.idx] = true
	}
}

// checkSortedByKey sorts records with keys by SortByKey and checks the
// result against cmp.Compare and the input multiset; it also checks that
// key is called at most bound times per element.
func checkSortedByKey[K cmp.Ordered](t *testing.T, keys []K, bound int, opts []par.Option) {
	t.Helper()
	s := newRecords(keys)
	calls := make([]atomic.Int32, len(keys))
	SortByKey(s, func(r record[K]) K { calls[r.idx].Add(1); return r.key }, opts...)
	checkPermutation(t, fmt.Sprintf("SortByKey[%T]", keys[:0]), s, keys, func(a, b K) bool { return cmp.Compare(a, b) == 0 && sameBits(a, b) })
	for i := 1; i < len(s); i++ {
		if cmp.Compare(s[i-1].key, s[i].key) > 0 {
			t.Fatalf("SortByKey[%T] n=%d: [%d] = %v > [%d] = %v", keys[:0], len(keys), i-1, s[i-1].key, i, s[i].key)
		}
	}
	for i := range calls {
		if c := calls[i].Load(); int(c) > bound {
			t.Fatalf("SortByKey[%T] n=%d: key called %d times for element %d, more than %d", keys[:0], len(keys), c, i, bound)
		}
	}
}

// sameBits reports whether a and b are the same key to the bit (floats:
// -0 is not +0).
func sameBits[K cmp.Ordered](a, b K) bool {
	switch x := any(a).(type) {
	case float64:
		y := any(b).(float64)
		return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
	case float32:
		y := any(b).(float32)
		return math.Float32bits(x) == math.Float32bits(y) || x != x && y != y
	}
	return a == b
}

// numberBound is the documented bound on key calls for a w-byte key.
func numberBound(w int) int { return w + 2 }

// stringBound is the documented bound on key calls for string keys of at
// most l bytes.
func stringBound(l int) int { return 2 + 9*(l/7+1) }

func convert[K any](x []int64, f func(int64) K) []K {
	k := make([]K, len(x))
	for i, v := range x {
		k[i] = f(v)
	}
	return k
}

func TestSortByKey(t *testing.T) {
	sizes := testSizes(maxTestSize())
	withPools(t, func(t *testing.T, pool *core.Pool) {
		for _, opts := range [][]par.Option{{par.WithPool(pool), par.Grain(testCutoff)}, {par.WithPool(pool)}} {
			for p := range patterns {
				for _, n := range sizes {
					x := genPattern(p, n, uint64(n))
					checkSortedByKey(t, x, numberBound(8), opts)
					checkSortedByKey(t, convert(x, func(v int64) int8 { return int8(v) }), numberBound(1), opts)
					checkSortedByKey(t, convert(x, func(v int64) uint16 { return uint16(v) }), numberBound(2), opts)
					checkSortedByKey(t, convert(x, func(v int64) int32 { return int32(v >> 7) }), numberBound(4), opts)
					checkSortedByKey(t, convert(x, func(v int64) float64 { return float64(v) / 1024 }), numberBound(8), opts)
					checkSortedByKey(t, convert(x, func(v int64) float32 { return float32(v) }), numberBound(4), opts)
					checkSortedByKey(t, convert(x, func(v int64) string { return fmt.Sprintf("%x", v) }), stringBound(16), opts)
				}
			}
		}
	})
}

// TestSortByKeySpecialFloats sorts NaNs, infinities, both zeros and the
// extremes among ordinary values.
func TestSortByKeySpecialFloats(t *testing.T) {
	special := []float64{math.NaN(), -math.NaN(), math.Float64frombits(0x7ff8000000000123), math.Inf(1), math.Inf(-1),
		0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
		-math.SmallestNonzeroFloat64, 1, -1}
	withPools(t, func(t *testing.T, pool *core.Pool) {
		opts := []par.Option{par.WithPool(pool), par.Grain(testCutoff)}
		for _, n := range testSizes(maxTestSize()) {
			rng := rand.New(rand.NewPCG(uint64(n), 3))
			x := make([]float64, n)
			x32 := make([]float32, n)
			for i := range x {
				x[i] = special[rng.IntN(len(special))]
				if rng.IntN(4) == 0 {
					x[i] = rng.NormFloat64()
				}
				x32[i] = float32(x[i])
			}
			checkSortedByKey(t, x, numberBound(8), opts)
			checkSortedByKey(t, x32, numberBound(4), opts)
		}
	})
}

// TestSortByKeyStrings sorts strings that are empty, prefixes of each
// other, hold zero bytes, or share long prefixes.
func TestSortByKeyStrings(t *testing.T) {
	long := strings.Repeat("prefix-", 9) // 63 bytes: nine words
	withPools(t, func(t *testing.T, pool *core.Pool) {
		opts := []par.Option{par.WithPool(pool), par.Grain(testCutoff)}
		for _, n := range testSizes(maxTestSize()) {
			rng := rand.New(rand.NewPCG(uint64(n), 4))
			gens := []func() string{
				func() string { return "" },
				func() string { return strings.Repeat("a", rng.IntN(20)) },
				func() string { return strings.Repeat("\x00", rng.IntN(20)) },
				func() string { return long + fmt.Sprint(rng.IntN(n+1)) },
				func() string { return long[:rng.IntN(len(long)+1)] },
				func() string { return fmt.Sprintf("%s%c%s", long, rune(rng.IntN(3)), long) },
			}
			for g := range gens {
				x := make([]string, n)
				for i := range x {
					x[i] = gens[g]()
					if g > 0 && rng.IntN(8) == 0 {
						x[i] = gens[rng.IntN(len(gens))]()
					}
				}
				checkSortedByKey(t, x, stringBound(2*len(long)+1), opts)
			}
		}
	})
}
