package sortpar

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// mergeSizes are the run lengths the merge tests pair up.
func mergeSizes() []int {
	s := testSizes(maxTestSize() / 2)
	if !testing.Short() && !raceEnabled {
		s = append(s, 500_000)
	}
	return s
}

// sortedPattern returns n values of pattern p, sorted.
func sortedPattern(p, n int, seed uint64) []int64 {
	x := genPattern(p, n, seed)
	slices.Sort(x)
	return x
}

func TestMergeMatchesStableSort(t *testing.T) {
	sizes := mergeSizes()
	withPools(t, func(t *testing.T, pool *core.Pool) {
		opts := []par.Option{par.WithPool(pool), par.Grain(testCutoff)}
		for p := range patterns {
			for i, na := range sizes {
				// Pair each length with a few others, not all: the
				// pairs cover short/long, long/short and equal runs.
				for _, nb := range []int{sizes[len(sizes)-1-i], na, sizes[(i*7)%len(sizes)]} {
					if max(na, nb) > 1<<14 && (p != 0 && p != 4 || !bigWorkers(pool)) {
						continue // long runs: random and few16, on 1, 2 and 8 workers
					}
					a := sortedPattern(p, na, uint64(na))
					b := sortedPattern((p+3)%len(patterns), nb, uint64(nb)+1)
					checkMerges(t, a, b, opts)
				}
			}
		}
	})
}

// pair64 is a key and the index of its origin, for stability checks on
// int64 keys.
type pair64 struct {
	key int64
	idx int
}

func cmpPair64(a, b pair64) int { return cmp.Compare(a.key, b.key) }

// checkMerges merges a and b with every form and compares with a stable
// sort of a then b; (key, origin) pairs check that ties take a first.
func checkMerges(t *testing.T, a, b []int64, opts []par.Option) {
	t.Helper()
	want := slices.Concat(a, b)
	slices.Sort(want)
	dst := make([]int64, len(a)+len(b))
	Merge(dst, a, b, opts...)
	if !slices.Equal(dst, want) {
		t.Fatalf("na=%d nb=%d: MergeWith differs from slices.Sort", len(a), len(b))
	}
	// The keys stay int64: converted to int they would lose their order
	// on 32-bit ports, and the runs would no longer be sorted.
	pa, pb := make([]pair64, len(a)), make([]pair64, len(b))
	for i, v := range a {
		pa[i] = pair64{v, i}
	}
	for i, v := range b {
		pb[i] = pair64{v, len(a) + i}
	}
	wantp := slices.Concat(pa, pb)
	slices.SortStableFunc(wantp, cmpPair64)
	dstp := make([]pair64, len(dst))
	MergeFunc(dstp, pa, pb, cmpPair64, opts...)
	if !slices.Equal(dstp, wantp) {
		t.Fatalf("na=%d nb=%d: MergeFuncWith is not the stable merge", len(a), len(b))
	}
}

func TestMergeFloats(t *testing.T) {
	// NaNs first, as slices.Sort orders them; -0 and +0 are equal, so
	// a's comes first.
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{math.NaN(), math.Inf(-1), -1, math.Copysign(0, -1), 0, 1, math.Inf(1)}
	withPools(t, func(t *testing.T, pool *core.Pool) {
		for _, n := range []int{0, 1, 5, 100, 3000} {
			a, b := make([]float64, n), make([]float64, n/2+1)
			for i := range a {
				a[i] = special[rng.IntN(len(special))]
			}
			for i := range b {
				b[i] = special[rng.IntN(len(special))]
			}
			slices.Sort(a)
			slices.Sort(b)
			want := slices.Concat(a, b)
			slices.SortStableFunc(want, cmp.Compare[float64])
			dst := make([]float64, len(want))
			Merge(dst, a, b, par.WithPool(pool), par.Grain(testCutoff))
			if !slices.EqualFunc(dst, want, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) {
				t.Fatalf("n=%d: %v, want %v", n, dst, want)
			}
		}
	})
}

func TestMergeUnsorted(t *testing.T) {
	// Unsorted runs give no order, but every element lands once.
	rng := rand.New(rand.NewPCG(9, 9))
	for iter := range 300 {
		a, b := make([]int64, rng.IntN(3000)), make([]int64, rng.IntN(3000))
		for i := range a {
			a[i] = rng.Int64N(100)
		}
		for i := range b {
			b[i] = rng.Int64N(100)
		}
		if iter%2 == 0 {
			slices.Sort(a) // one sorted run, one not
		}
		dst := make([]int64, len(a)+len(b))
		Merge(dst, a, b, par.Grain(testCutoff))
		if !sameMultiset(dst, slices.Concat(a, b), cmp.Compare[int64]) {
			t.Fatalf("unsorted merge of %d and %d lost or duplicated elements", len(a), len(b))
		}
	}
}

func TestMergeBadArguments(t *testing.T) {
	buf := make([]int64, 20)
	other := make([]int64, 20)
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"lengths", func() { Merge(buf[:5], other[:3], other[3:6]) }, "sortpar: Merge: len(dst) = 5, want len(a)+len(b) = 3+3"},
		{"dst is a", func() { Merge(buf[:6], buf[2:5], other[:3]) }, "sortpar: Merge: dst[2] is a[0]: dst must not overlap a or b"},
		{"b in dst", func() { MergeFunc(buf[4:10], other[:3], buf[6:9], cmp.Compare[int64]) },
			"sortpar: MergeFunc: dst[2] is b[0]: dst must not overlap a or b"},
		{"nil cmp", func() { MergeFunc(buf[:2], other[:1], other[1:2], nil) }, "sortpar: MergeFunc with a nil cmp"},
	} {
		for i := range buf {
			buf[i] = int64(i)
		}
		got := func() (v any) {
			defer func() { v = recover() }()
			c.f()
			return nil
		}()
		if fmt.Sprint(got) != c.want {
			t.Errorf("%s: panic %v, want %q", c.name, got, c.want)
		}
		for i, v := range buf {
			if v != int64(i) {
				t.Fatalf("%s: buf[%d] written before the panic", c.name, i)
			}
		}
	}
}

func TestMergeFuncPanic(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		a, b := make([]int64, 20000), make([]int64, 20000)
		for i := range a {
			a[i], b[i] = int64(2*i), int64(2*i+1)
		}
		dst := make([]int64, 40000)
		v := func() (v any) {
			defer func() { v = panicValue(recover()) }()
			MergeFunc(dst, a, b, func(x, y int64) int {
				if x == 30001 || y == 30001 {
					panic("cmp saw 30001")
				}
				return cmp.Compare(x, y)
			}, par.WithPool(pool), par.Grain(testCutoff))
			return nil
		}()
		if v != "cmp saw 30001" {
			t.Fatalf("recovered %v", v)
		}
	})
}

// bigWorkers reports whether the long inputs run on pool: the worker counts
// 1, 2 and 8 cover the serial path, the common case and many thieves.
func bigWorkers(pool *core.Pool) bool {
	w := pool.Workers()
	return w == 1 || w == 2 || w == 8
}
