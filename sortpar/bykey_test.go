package sortpar

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// keyed is an element sorted by key; idx records its input position.
type keyed[K any] struct {
	key K
	idx int
}

// checkByKey sorts (key, index) records with keys x converted to K and
// compares with slices.SortStableFunc; it also checks that key is called
// once per element.
func checkByKey[K constraints.Integer](t *testing.T, x []int64, opts []par.Option) {
	t.Helper()
	s := make([]keyed[K], len(x))
	for i, v := range x {
		s[i] = keyed[K]{K(v), i}
	}
	want := slices.Clone(s)
	slices.SortStableFunc(want, func(a, b keyed[K]) int { return cmp.Compare(a.key, b.key) })
	var calls atomic.Int64
	SortStableByKey(s, func(e keyed[K]) K { calls.Add(1); return e.key }, opts...)
	if !slices.Equal(s, want) {
		i := 0
		for i < len(s) && s[i] == want[i] {
			i++
		}
		t.Fatalf("%T n=%d: [%d] = %v, want %v", K(0), len(x), i, s[i], want[i])
	}
	if got := calls.Load(); len(x) >= 2 && got != int64(len(x)) {
		t.Fatalf("%T n=%d: key called %d times", K(0), len(x), got)
	}
}

func TestSortStableByKey(t *testing.T) {
	type level int16
	sizes := testSizes(maxTestSize())
	if !testing.Short() && !raceEnabled {
		sizes = append(sizes, 1_000_000)
	}
	withPools(t, func(t *testing.T, pool *core.Pool) {
		opts := []par.Option{par.WithPool(pool), par.Grain(testCutoff)}
		for p := range patterns {
			for _, n := range sizes {
				if n > 1<<16 && (p != 0 && p != 4 || !bigWorkers(pool)) {
					continue // long inputs: random and few16, on 1, 2 and 8 workers
				}
				x := genPattern(p, n, uint64(n))
				checkByKey[int64](t, x, opts)
				if n > 1<<16 {
					continue
				}
				checkByKey[uint64](t, x, opts)
				checkByKey[int8](t, x, opts)
				checkByKey[uint8](t, x, opts)
				checkByKey[level](t, x, opts)
				checkByKey[int32](t, x, opts)
				checkByKey[uintptr](t, x, opts)
			}
		}
	})
}

func TestSortStableByKeyDefaults(t *testing.T) {
	// The default cutoff, on the default pool, and the serial path.
	for _, n := range []int{0, 1, 2, 100, defaultCutoff + 5, 70_000} {
		x := genPattern(0, n, 1)
		for i := range x {
			x[i] %= 1000
		}
		checkByKey[int](t, x, nil)
		p := core.New(core.WithWorkers(1))
		checkByKey[int](t, x, []par.Option{par.WithPool(p)})
		p.Close()
	}
}

func TestSortStableByKeyPanic(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		x := make([]int, 40000)
		for i := range x {
			x[i] = len(x) - i
		}
		orig := slices.Clone(x)
		v := func() (v any) {
			defer func() { v = panicValue(recover()) }()
			SortStableByKey(x, func(e int) int {
				if e == 777 {
					panic("key saw 777")
				}
				return e
			}, par.WithPool(pool), par.Grain(testCutoff))
			return nil
		}()
		if v != "key saw 777" {
			t.Fatalf("recovered %v", v)
		}
		if !slices.Equal(x, orig) {
			t.Fatalf("s changed by a SortStableByKey whose key panicked")
		}
	})
	if v := func() (v any) {
		defer func() { v = recover() }()
		SortStableByKey([]int{2, 1}, (func(int) int)(nil))
		return nil
	}(); v != "sortpar: SortStableByKey with a nil key" {
		t.Errorf("nil key: panic %v", v)
	}
}

// checkStableByKeyOrdered sorts (key, index) records with keys by
// SortStableByKey and compares with slices.SortStableFunc on cmp.Compare,
// to the bit (-0 and +0 keep their input order).
func checkStableByKeyOrdered[K cmp.Ordered](t *testing.T, keys []K, opts []par.Option) {
	t.Helper()
	s := make([]keyed[K], len(keys))
	for i, k := range keys {
		s[i] = keyed[K]{k, i}
	}
	want := slices.Clone(s)
	slices.SortStableFunc(want, func(a, b keyed[K]) int { return cmp.Compare(a.key, b.key) })
	var calls atomic.Int64
	SortStableByKey(s, func(e keyed[K]) K { calls.Add(1); return e.key }, opts...)
	for i := range s {
		if s[i].idx != want[i].idx {
			t.Fatalf("%T n=%d: [%d] = %v, want %v", keys[:0], len(keys), i, s[i], want[i])
		}
	}
	if got := calls.Load(); len(keys) >= 2 && got != int64(len(keys)) {
		t.Fatalf("%T n=%d: key called %d times", keys[:0], len(keys), got)
	}
}

// TestSortStableByKeyOrdered covers the keys beyond integers: floats with
// NaNs, infinities and both zeros, and strings.
func TestSortStableByKeyOrdered(t *testing.T) {
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1.5, -1.5}
	sizes := testSizes(maxTestSize() / 4)
	withKeyPools(t, func(t *testing.T, pool *core.Pool) {
		for _, opts := range [][]par.Option{{par.WithPool(pool), par.Grain(testCutoff)}, {par.WithPool(pool)}} {
			for _, n := range sizes {
				rng := rand.New(rand.NewPCG(uint64(n), 5))
				f := make([]float64, n)
				f32 := make([]float32, n)
				str := make([]string, n)
				for i := range f {
					f[i] = special[rng.IntN(len(special))]
					if rng.IntN(3) == 0 {
						f[i] = float64(rng.IntN(100)) - 50
					}
					f32[i] = float32(f[i])
					str[i] = strings.Repeat("ab", rng.IntN(4)) + fmt.Sprint(rng.IntN(50))
				}
				checkStableByKeyOrdered(t, f, opts)
				checkStableByKeyOrdered(t, f32, opts)
				checkStableByKeyOrdered(t, str, opts)
			}
		}
	})
}
