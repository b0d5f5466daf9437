package sortpar

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
)

// testCutoff is the par.Grain the oracle tests use, so that inputs of a
// few thousand elements already run every parallel path (parallel
// partition from 8·testCutoff on).
const testCutoff = 32

// patterns are the input shapes of the issue; each maps an index (and an
// RNG) to a value in [0, n) or a full-range random value.
var patterns = []struct {
	name string
	gen  func(rng *rand.Rand, i, n int) int64
}{
	{"random", func(rng *rand.Rand, _, _ int) int64 { return rng.Int64() - math.MaxInt64/2 }},
	{"sorted", func(_ *rand.Rand, i, _ int) int64 { return int64(i) }},
	{"reversed", func(_ *rand.Rand, i, n int) int64 { return int64(n - i) }},
	{"equal", func(_ *rand.Rand, _, _ int) int64 { return 7 }},
	{"few16", func(rng *rand.Rand, _, _ int) int64 { return int64(rng.IntN(16)) - 8 }},
	{"sawtooth", func(_ *rand.Rand, i, n int) int64 { return int64(i % (n/16 + 1)) }},
	{"organpipe", func(_ *rand.Rand, i, n int) int64 { return int64(min(i, n-i)) }},
	{"sortedtail", func(rng *rand.Rand, i, n int) int64 { // sorted with a few random ones
		if rng.IntN(100) == 0 {
			return rng.Int64N(int64(n) + 1)
		}
		return int64(i)
	}},
}

// genPattern returns n values of pattern p.
func genPattern(p int, n int, seed uint64) []int64 {
	rng := rand.New(rand.NewPCG(seed, uint64(p)))
	x := make([]int64, n)
	for i := range x {
		x[i] = patterns[p].gen(rng, i, n)
	}
	return x
}

// testSizes are 0, 1, 2, 3, the cutoffs ±1 and 2^k±1 up to max.
func testSizes(max int) []int {
	s := []int{0, 1, 2, 3, testCutoff - 1, testCutoff, testCutoff + 1,
		8*testCutoff - 1, 8 * testCutoff, 8*testCutoff + 1,
		defaultCutoff - 1, defaultCutoff, defaultCutoff + 1}
	for k := 2; 1<<k <= max; k += 2 {
		s = append(s, 1<<k-1, 1<<k+1)
	}
	s = slices.DeleteFunc(s, func(n int) bool { return n > max })
	slices.Sort(s)
	return slices.Compact(s)
}

// maxTestSize bounds the oracle inputs: well under a second per package
// under -race -short.
func maxTestSize() int {
	switch {
	case testing.Short() && raceEnabled:
		return 1 << 11
	case testing.Short() || raceEnabled:
		return 1 << 13
	}
	return 1 << 15
}

// testWorkers are the worker counts the oracle tests cover.
func testWorkers() []int {
	if testing.Short() || raceEnabled {
		return []int{1, 2, 3, 8}
	}
	return []int{1, 2, 3, 4, 5, 6, 7, 8}
}

// withPools runs f once per worker count with a pool of that size.
func withPools(t *testing.T, f func(t *testing.T, p *core.Pool)) {
	for _, workers := range testWorkers() {
		t.Run(fmt.Sprintf("p=%d", workers), func(t *testing.T) {
			p := core.New(core.WithWorkers(workers))
			defer p.Close()
			f(t, p)
		})
	}
}

// sameMultiset reports whether a and b hold the same elements, ordering
// copies of them with cmp (which must be a total order on the bits).
func sameMultiset[E any](a, b []E, cmp func(x, y E) int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, cmp)
	slices.SortFunc(b, cmp)
	return slices.EqualFunc(a, b, func(x, y E) bool { return cmp(x, y) == 0 })
}

// floatBitsCmp orders float64s by their bits: a total order that tells
// -0 from +0 and NaN payloads apart.
func floatBitsCmp(a, b float64) int {
	return cmp.Compare(math.Float64bits(a), math.Float64bits(b))
}

// panicValue unwraps what a recovered panic carries: the raw value, or a
// wrapper with a Value field (the runtime's *core.PanicError) or an Unwrap method.
func panicValue(r any) any {
	for range 4 {
		v := reflect.ValueOf(r)
		if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			if f := v.Elem().FieldByName("Value"); f.IsValid() && f.CanInterface() {
				r = f.Interface()
				continue
			}
		}
		if u, ok := r.(interface{ Unwrap() error }); ok && u.Unwrap() != nil {
			r = u.Unwrap()
			continue
		}
		break
	}
	return r
}

// lg is floor(log2(n)) for n >= 1.
func lg(n int) int { return bits.Len(uint(n)) - 1 }
