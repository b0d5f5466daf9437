package sortpar

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// A comparator or key that is not consistent (it answers at random, its
// answers change between calls, it sees NaN, it panics part-way) must never
// cost the caller an element: every function of the package returns with
// the slice a permutation of its input, or re-raises the user's own panic
// with the slice still a permutation. These tests drive every function with
// such comparators, at sizes around every cutoff and at several worker
// counts, and check the multiset.

// badCmpPanic is the value the panicking comparators panic with.
const badCmpPanic = "bad comparator gave up"

// badCmp makes one kind of inconsistent comparator for int64s. Each call of
// make returns a fresh comparator (its own call count), safe for concurrent
// use.
type badCmp struct {
	name string
	make func(seed uint64) func(a, b int64) int
}

var badCmps = []badCmp{
	{"random", func(uint64) func(a, b int64) int {
		return func(a, b int64) int { return rand.IntN(3) - 1 }
	}},
	{"flipflop", func(uint64) func(a, b int64) int {
		// Every other call answers the opposite of the true order.
		var calls atomic.Uint64
		return func(a, b int64) int {
			c := cmp.Compare(a, b)
			if calls.Add(1)%2 == 0 {
				return -c
			}
			return c
		}
	}},
	{"reverses", func(seed uint64) func(a, b int64) int {
		// The true order until some call, the reverse order after it: the
		// samplesort's classification and its permutation see different
		// orders.
		var calls atomic.Uint64
		after := seed%50000 + 1
		return func(a, b int64) int {
			if calls.Add(1) > after {
				return cmp.Compare(b, a)
			}
			return cmp.Compare(a, b)
		}
	}},
	{"nontransitive", func(uint64) func(a, b int64) int {
		// Rock-paper-scissors on a%3: a consistent answer for each pair,
		// but no order.
		return func(a, b int64) int {
			x, y := ((a%3)+3)%3, ((b%3)+3)%3
			switch (x - y + 3) % 3 {
			case 0:
				return cmp.Compare(a, b)
			case 1:
				return 1
			}
			return -1
		}
	}},
	{"randomPanics", func(seed uint64) func(a, b int64) int {
		// Random answers, then a panic after a random number of calls.
		var calls atomic.Uint64
		after := seed % 300000
		return func(a, b int64) int {
			if calls.Add(1) > after {
				panic(badCmpPanic)
			}
			return rand.IntN(3) - 1
		}
	}},
}

// badCmpSizes are the lengths the bad-comparator tests sort: tiny ones,
// both sides of the default cutoff, of the samplesort's leaf (64Ki) and of
// the parallel partition, and up to 1e6 without -short.
func badCmpSizes() []int {
	if raceEnabled {
		return []int{1, 2, 17, defaultCutoff + 1, 70_000}
	}
	s := []int{1, 2, 3, 17, 100, defaultCutoff - 1, defaultCutoff, defaultCutoff + 1,
		defaultFuncLeaf - 1, defaultFuncLeaf + 1, 70_000, 100_000}
	if !testing.Short() {
		s = append(s, 300_000, 1_000_000)
	}
	return s
}

// badCmpWorkers are the worker counts: 1, 2 and 4.
var badCmpWorkers = []int{1, 2, 4}

// shuffled returns the values 0..n-1 in a random order.
func shuffled(n int, seed uint64) []int64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([]int64, n)
	for i := range x {
		x[i] = int64(i)
	}
	rng.Shuffle(n, func(i, j int) { x[i], x[j] = x[j], x[i] })
	return x
}

// checkPermutation fails t unless x holds exactly the values 0..len(x)-1.
func checkPermutation(t *testing.T, what string, x []int64) {
	t.Helper()
	seen := make([]bool, len(x))
	missing := len(x)
	for _, v := range x {
		if v < 0 || v >= int64(len(x)) || seen[v] {
			continue
		}
		seen[v] = true
		missing--
	}
	if missing != 0 {
		t.Fatalf("%s: %d of %d values lost (replaced by duplicates)", what, missing, len(x))
	}
}

// callRecovering runs f and returns what it panicked with, or nil.
func callRecovering(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// checkUserPanic fails t unless r is nil or the user's own panic (wrapped in
// a *core.PanicError when it crossed a task): never a runtime error from
// inside the package.
func checkUserPanic(t *testing.T, what string, r any) {
	t.Helper()
	if r == nil {
		return
	}
	if v := panicValue(r); v != badCmpPanic {
		if err, ok := v.(runtime.Error); ok {
			t.Fatalf("%s: a runtime error from inside sortpar: %v", what, err)
		}
		t.Fatalf("%s: recovered %v, want the comparator's own panic", what, r)
	}
}

// TestBadComparatorKeepsElements sorts shuffled distinct values with every
// inconsistent comparator, through SortFunc and SortStableFunc, with the
// default cutoffs and with a small par.Grain (every parallel path on short
// inputs), and checks that no value is lost or duplicated.
func TestBadComparatorKeepsElements(t *testing.T) {
	sorts := []struct {
		name string
		sort func(x []int64, cmp func(a, b int64) int, opts ...par.Option)
	}{
		{"SortFunc", SortFunc[[]int64, int64]},
		{"SortStableFunc", SortStableFunc[[]int64, int64]},
	}
	grains := []struct {
		name string
		opts []par.Option
	}{{"default", nil}, {"grain", []par.Option{par.Grain(testCutoff)}}}
	for _, workers := range badCmpWorkers {
		pool := core.New(core.WithWorkers(workers))
		for _, n := range badCmpSizes() {
			for _, bc := range badCmps {
				for _, s := range sorts {
					for _, g := range grains {
						if g.opts != nil && (n > 1<<17 || raceEnabled && n > 1<<14) {
							continue // small blocks on big inputs: slow, and covered by the default
						}
						seed := uint64(n)*31 + uint64(workers)
						x := shuffled(n, seed)
						what := fmt.Sprintf("P=%d n=%d %s %s %s", workers, n, bc.name, s.name, g.name)
						opts := append([]par.Option{par.WithPool(pool)}, g.opts...)
						r := callRecovering(func() { s.sort(x, bc.make(seed), opts...) })
						checkUserPanic(t, what, r)
						checkPermutation(t, what, x)
					}
				}
			}
		}
		pool.Close()
	}
}

// TestBadComparatorDefaultPool runs the issue's own call, on the Default
// pool with no options: SortFunc on 1e5 shuffled distinct ints with a
// comparator that answers at random.
func TestBadComparatorDefaultPool(t *testing.T) {
	for i := range 5 {
		x := shuffled(100_000, uint64(i))
		SortFunc(x, func(a, b int64) int { return rand.IntN(3) - 1 })
		checkPermutation(t, fmt.Sprintf("run %d", i), x)
	}
}

// TestNaNComparator sorts floats with NaNs by a comparator written with <
// and >, which is inconsistent on NaN (NaN is "equal" to everything); the
// sort must keep every element, NaNs included.
func TestNaNComparator(t *testing.T) {
	naive := func(a, b float64) int {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	for _, workers := range badCmpWorkers {
		pool := core.New(core.WithWorkers(workers))
		for _, n := range []int{1000, defaultCutoff + 1, 70_000, 200_000} {
			if raceEnabled && n > 1<<16 {
				continue
			}
			rng := rand.New(rand.NewPCG(uint64(n), 3))
			x := make([]float64, n)
			for i := range x {
				x[i] = rng.Float64()
				if rng.IntN(20) == 0 {
					x[i] = math.NaN()
				}
			}
			base := slices.Clone(x)
			for _, sort := range []func([]float64, func(a, b float64) int, ...par.Option){
				SortFunc[[]float64, float64], SortStableFunc[[]float64, float64],
			} {
				y := slices.Clone(base)
				sort(y, naive, par.WithPool(pool))
				if !sameMultiset(y, base, floatBitsCmp) {
					t.Fatalf("P=%d n=%d: elements lost", workers, n)
				}
			}
		}
		pool.Close()
	}
}

// TestBadComparatorMergeFunc merges two sorted runs with every
// inconsistent comparator: dst must receive every element of a and b, and
// a and b are never written.
func TestBadComparatorMergeFunc(t *testing.T) {
	for _, workers := range badCmpWorkers {
		pool := core.New(core.WithWorkers(workers))
		for _, n := range []int{2, 100, defaultCutoff + 1, 70_000} {
			for _, bc := range badCmps {
				x := shuffled(n, uint64(n))
				a, b := x[:n/3], x[n/3:]
				slices.Sort(a)
				slices.Sort(b)
				a0, b0 := slices.Clone(a), slices.Clone(b)
				dst := make([]int64, n)
				what := fmt.Sprintf("P=%d n=%d %s", workers, n, bc.name)
				r := callRecovering(func() { MergeFunc(dst, a, b, bc.make(uint64(n)), par.WithPool(pool)) })
				checkUserPanic(t, what, r)
				if !slices.Equal(a, a0) || !slices.Equal(b, b0) {
					t.Fatalf("%s: the inputs were written", what)
				}
				if r == nil {
					checkPermutation(t, what, dst)
				}
			}
		}
		pool.Close()
	}
}

// TestBadComparatorCompactFunc compacts with eq functions that answer at
// random or panic: on return the result is what eq's answers ask for (the
// first element and every one eq called different from its neighbour, in
// order: a subsequence of the input); on a panic the slice is a permutation
// of its input.
func TestBadComparatorCompactFunc(t *testing.T) {
	for _, workers := range badCmpWorkers {
		pool := core.New(core.WithWorkers(workers))
		for _, n := range []int{1, 2, 100, defaultCutoff + 1, 70_000, 1 << 20} {
			if n > 1<<17 && (testing.Short() || raceEnabled) {
				continue
			}
			for _, panics := range []bool{false, true} {
				x := shuffled(n, uint64(n))
				base := slices.Clone(x)
				var calls atomic.Int64
				after := int64(n) / 2
				eq := func(a, b int64) bool {
					if panics && calls.Add(1) > after {
						panic(badCmpPanic)
					}
					return rand.IntN(2) == 0
				}
				what := fmt.Sprintf("P=%d n=%d panics=%v", workers, n, panics)
				var got []int64
				r := callRecovering(func() { got = CompactFunc(x, eq, par.WithPool(pool), par.Grain(testCutoff)) })
				checkUserPanic(t, what, r)
				if r != nil {
					checkPermutation(t, what, x)
					continue
				}
				if len(got) == 0 || got[0] != base[0] {
					t.Fatalf("%s: the first element was not kept", what)
				}
				// got is a subsequence of base.
				j := 0
				for _, v := range got {
					for j < len(base) && base[j] != v {
						j++
					}
					if j == len(base) {
						t.Fatalf("%s: the result is not a subsequence of the input", what)
					}
					j++
				}
				for _, v := range x[len(got):] {
					if v != 0 {
						t.Fatalf("%s: the tail past the result is not zeroed", what)
					}
				}
			}
		}
		pool.Close()
	}
}

// TestBadComparatorIsSortedFunc checks that IsSortedFunc with an
// inconsistent comparator answers (true or false) or re-raises the user's
// panic, and never writes the slice.
func TestBadComparatorIsSortedFunc(t *testing.T) {
	for _, workers := range badCmpWorkers {
		pool := core.New(core.WithWorkers(workers))
		for _, n := range []int{2, defaultCutoff + 1, 70_000} {
			for _, bc := range badCmps {
				x := shuffled(n, 5)
				slices.Sort(x)
				base := slices.Clone(x)
				what := fmt.Sprintf("P=%d n=%d %s", workers, n, bc.name)
				r := callRecovering(func() { IsSortedFunc(x, bc.make(uint64(n)), par.WithPool(pool)) })
				checkUserPanic(t, what, r)
				if !slices.Equal(x, base) {
					t.Fatalf("%s: the slice was written", what)
				}
			}
		}
		pool.Close()
	}
}

// TestBadKeySortStableByKey sorts by key functions that answer at random or
// panic part-way: the slice is a permutation of its input either way.
func TestBadKeySortStableByKey(t *testing.T) {
	for _, workers := range badCmpWorkers {
		pool := core.New(core.WithWorkers(workers))
		for _, n := range []int{1, 100, defaultCutoff + 1, 70_000} {
			for _, panics := range []bool{false, true} {
				x := shuffled(n, uint64(n))
				var calls atomic.Int64
				key := func(v int64) int64 {
					if panics && calls.Add(1) > int64(n)/2 {
						panic(badCmpPanic)
					}
					return rand.Int64()
				}
				what := fmt.Sprintf("P=%d n=%d panics=%v", workers, n, panics)
				r := callRecovering(func() { SortStableByKey(x, key, par.WithPool(pool)) })
				checkUserPanic(t, what, r)
				checkPermutation(t, what, x)
			}
		}
		pool.Close()
	}
}

// FuzzBadComparator sorts a fuzzer-chosen slice with a comparator whose
// answers come from the fuzzer's bytes, cycling: consistent or not, every
// element must survive.
func FuzzBadComparator(f *testing.F) {
	f.Add(uint16(1000), []byte{0, 1, 2}, uint8(2), false)
	f.Add(uint16(9000), []byte{2, 2, 0, 1}, uint8(1), true)
	f.Add(uint16(40000), []byte{1}, uint8(4), false)
	pools := map[uint8]*core.Pool{}
	f.Cleanup(func() {
		for _, p := range pools {
			p.Close()
		}
	})
	f.Fuzz(func(t *testing.T, n uint16, answers []byte, workers uint8, stable bool) {
		if len(answers) == 0 {
			answers = []byte{0}
		}
		w := workers%4 + 1
		pool, ok := pools[w]
		if !ok {
			pool = core.New(core.WithWorkers(int(w)))
			pools[w] = pool
		}
		x := shuffled(int(n), uint64(n))
		var calls atomic.Uint64
		bad := func(a, b int64) int {
			i := calls.Add(1)
			return int(answers[i%uint64(len(answers))]%3) - 1
		}
		sort := SortFunc[[]int64, int64]
		if stable {
			sort = SortStableFunc[[]int64, int64]
		}
		sort(x, bad, par.WithPool(pool), par.Grain(testCutoff))
		checkPermutation(t, "fuzz", x)
	})
}
