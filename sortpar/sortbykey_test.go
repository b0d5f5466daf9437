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

// checkRecords fails unless s holds every record of its input exactly
// once, untorn: each index once, with its own key (equal by bits, compared
// with same) and check word.
func checkRecords[K any](t *testing.T, what string, s []record[K], keys []K, same func(a, b K) bool) {
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
	checkRecords(t, fmt.Sprintf("SortByKey[%T]", keys[:0]), s, keys, func(a, b K) bool { return cmp.Compare(a, b) == 0 && sameBits(a, b) })
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

// withKeyPools runs f with pools of 1, 2 and 4 workers: the SortByKey
// tests' worker counts (one worker, as many as the CI machine's cores,
// more workers than cores).
func withKeyPools(t *testing.T, f func(t *testing.T, p *core.Pool)) {
	for _, workers := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("p=%d", workers), func(t *testing.T) {
			p := core.New(core.WithWorkers(workers))
			defer p.Close()
			f(t, p)
		})
	}
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
	withKeyPools(t, func(t *testing.T, pool *core.Pool) {
		for g, opts := range [][]par.Option{{par.WithPool(pool), par.Grain(testCutoff)}, {par.WithPool(pool)}} {
			for p := range patterns {
				for _, n := range sizes {
					if g == 1 && (n <= keyLeaf || p > 4) {
						continue // default cutoffs: long inputs of the first patterns
					}
					x := genPattern(p, n, uint64(n))
					checkSortedByKey(t, x, numberBound(8), opts)
					checkSortedByKey(t, convert(x, func(v int64) float64 { return float64(v) / 1024 }), numberBound(8), opts)
					if p != 0 && p != 4 {
						continue // strings and narrow keys: random and few16
					}
					checkSortedByKey(t, convert(x, func(v int64) string { return fmt.Sprintf("%x", v) }), stringBound(16), opts)
					checkSortedByKey(t, convert(x, func(v int64) int8 { return int8(v) }), numberBound(1), opts)
					checkSortedByKey(t, convert(x, func(v int64) uint16 { return uint16(v) }), numberBound(2), opts)
					checkSortedByKey(t, convert(x, func(v int64) int32 { return int32(v >> 7) }), numberBound(4), opts)
					checkSortedByKey(t, convert(x, func(v int64) float32 { return float32(v) }), numberBound(4), opts)
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
	withKeyPools(t, func(t *testing.T, pool *core.Pool) {
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
	withKeyPools(t, func(t *testing.T, pool *core.Pool) {
		opts := []par.Option{par.WithPool(pool), par.Grain(testCutoff)}
		for _, n := range testSizes(maxTestSize() / 4) {
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

// badKeySizes are the lengths the bad-key tests sort: every partition path
// from one element to a parallel top level.
func badKeySizes() []int {
	s := []int{1, 2, 3, 100, keyLeaf, keyLeaf + 1, 5000, 70_000}
	switch {
	case testing.Short() && raceEnabled:
		return s[:6]
	case testing.Short() || raceEnabled:
		return s
	}
	return append(s, 1_000_000)
}

// mix is a cheap hash of a call's number, for keys that answer at random.
func mix(x uint64) uint64 {
	x ^= x >> 31
	x *= 0x9E3779B97F4A7C15
	return x ^ x>>29
}

// TestSortByKeyBadKeys sorts with key functions that are not functions
// of the element: random answers, answers that flip between two values on
// each call, keys of strings that change length. Whatever the order, s
// must end a permutation of its input, with no panic from inside sortpar.
func TestSortByKeyBadKeys(t *testing.T) {
	for _, p := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("p=%d", p), func(t *testing.T) {
			pool := core.New(core.WithWorkers(p))
			defer pool.Close()
			for _, n := range badKeySizes() {
				for g, opts := range [][]par.Option{{par.WithPool(pool)}, {par.WithPool(pool), par.Grain(testCutoff)}} {
					if n > 100_000 && g > 0 {
						continue // the long input: the default cutoffs only
					}
					keys := make([]int64, n)
					for i := range keys {
						keys[i] = int64(mix(uint64(i)))
					}
					var calls atomic.Uint64
					flips := make([]atomic.Uint32, n)

					s := newRecords(keys)
					SortByKey(s, func(record[int64]) int64 { return int64(mix(calls.Add(1))) }, opts...)
					checkRecords(t, "random int64 key", s, keys, func(a, b int64) bool { return a == b })

					s = newRecords(keys)
					SortByKey(s, func(r record[int64]) float64 {
						if flips[r.idx].Add(1)&1 == 0 {
							return float64(r.key)
						}
						return math.NaN()
					}, opts...)
					checkRecords(t, "flip-flopping float64 key", s, keys, func(a, b int64) bool { return a == b })

					if n > 100_000 {
						continue // string keys cost more than the sort
					}
					s = newRecords(keys)
					SortByKey(s, func(r record[int64]) string {
						c := calls.Add(1)
						return strings.Repeat("x", int(c%13)) + fmt.Sprint(mix(c)%5)
					}, opts...)
					checkRecords(t, "random string key", s, keys, func(a, b int64) bool { return a == b })

					s = newRecords(keys)
					SortByKey(s, func(r record[int64]) uint8 {
						if flips[r.idx].Add(1)&1 == 0 {
							return uint8(r.key)
						}
						return ^uint8(r.key)
					}, opts...)
					checkRecords(t, "flip-flopping uint8 key", s, keys, func(a, b int64) bool { return a == b })
				}
			}
		})
	}
}

// TestSortByKeyPanic panics in key after a given number of calls, in the
// scan, a partition or a leaf: the panic must reach the caller with s a
// permutation of its input.
func TestSortByKeyPanic(t *testing.T) {
	for _, p := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("p=%d", p), func(t *testing.T) {
			pool := core.New(core.WithWorkers(p))
			defer pool.Close()
			for _, n := range badKeySizes() {
				for _, after := range []int{0, n / 2, n + n/3, 2*n + 1, 3 * n} {
					for _, grain := range []int{defaultCutoff, testCutoff} {
						if n > 100_000 && (grain != defaultCutoff || after%2 == 0) {
							continue // the long input: a few cases
						}
						keys := make([]string, n)
						for i := range keys {
							keys[i] = fmt.Sprint(mix(uint64(i)) % 1000)
						}
						s := newRecords(keys)
						var calls atomic.Int64
						v := func() (v any) {
							defer func() { v = panicValue(recover()) }()
							SortByKey(s, func(r record[string]) string {
								if calls.Add(1) == int64(after)+1 {
									panic("key gave up")
								}
								return r.key
							}, par.WithPool(pool), par.Grain(grain))
							return nil
						}()
						if v != nil && v != "key gave up" {
							t.Fatalf("n=%d, panic after %d calls: recovered %v", n, after, v)
						}
						if v == nil && calls.Load() > int64(after) {
							t.Fatalf("n=%d: key panicked on call %d and SortByKey returned", n, after+1)
						}
						checkRecords(t, "panicking key", s, keys, func(a, b string) bool { return a == b })
					}
				}
			}
		})
	}
	if v := func() (v any) {
		defer func() { v = recover() }()
		SortByKey([]int{2, 1}, (func(int) int)(nil))
		return nil
	}(); v != "sortpar: SortByKey with a nil key" {
		t.Errorf("nil key: panic %v", v)
	}
}
