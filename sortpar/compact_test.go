package sortpar

import (
	"math"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// wideRecord is large enough (256 bytes) that a packing round holds 16384
// of them, so that modest inputs run several rounds.
type wideRecord struct {
	key int64
	pad [31]int64
}

func TestCompactMatchesSlices(t *testing.T) {
	sizes := testSizes(maxTestSize())
	if !testing.Short() && !raceEnabled {
		sizes = append(sizes, 300_000) // several rounds of int64
	}
	withPools(t, func(t *testing.T, pool *core.Pool) {
		opts := []par.Option{par.WithPool(pool), par.Grain(testCutoff)}
		for p := range patterns {
			for _, n := range sizes {
				x := genPattern(p, n, uint64(n))
				if p%2 == 0 {
					slices.Sort(x) // sorted: runs of equal keys
				} else {
					for i := range x {
						x[i] %= 3 // unsorted, short runs
					}
				}
				checkCompact(t, x, opts)
			}
		}
	})
}

// checkCompact runs CompactWith and CompactFuncWith on copies of x and
// compares them, the zeroed tail included, with slices.Compact.
func checkCompact(t *testing.T, x []int64, opts []par.Option) {
	t.Helper()
	want := slices.Compact(slices.Clone(x))
	got := slices.Clone(x)
	if k := len(Compact(got, opts...)); k != len(want) || !slices.Equal(got[:k], want) {
		t.Fatalf("n=%d: CompactWith kept %d, want %d, or differs", len(x), k, len(want))
	}
	for i := len(want); i < len(x); i++ {
		if got[i] != 0 {
			t.Fatalf("n=%d: CompactWith left [%d] = %d, want it zeroed", len(x), i, got[i])
		}
	}
	// An asymmetric eq (a run goes on while each element is at most one
	// above the one before it) checks the order of eq's arguments.
	near := func(a, b int64) bool { return a-b <= 1 && a >= b }
	want = slices.CompactFunc(slices.Clone(x), near)
	got = slices.Clone(x)
	if k := len(CompactFunc(got, near, opts...)); k != len(want) || !slices.Equal(got[:k], want) {
		t.Fatalf("n=%d: CompactFuncWith kept %d, want %d, or differs", len(x), k, len(want))
	}
}

func TestCompactFuncRounds(t *testing.T) {
	n := 3*(1<<22)/256 + 77 // three rounds of 256-byte records and a bit
	if raceEnabled {
		n = (1<<22)/256 + 77
	}
	withPools(t, func(t *testing.T, pool *core.Pool) {
		for _, p := range []int{0, 4, 5} { // random, few16, sawtooth
			x := genPattern(p, n, 3)
			slices.Sort(x)
			recs := make([]wideRecord, n)
			for i, v := range x {
				recs[i] = wideRecord{key: v % 1000}
				recs[i].pad[0] = int64(i)
			}
			eq := func(a, b wideRecord) bool { return a.key == b.key }
			want := slices.CompactFunc(slices.Clone(recs), eq)
			got := CompactFunc(slices.Clone(recs), eq, par.WithPool(pool), par.Grain(testCutoff))
			if !slices.Equal(got, want) {
				t.Fatalf("pattern %s: CompactFuncWith differs from slices.CompactFunc", patterns[p].name)
			}
		}
	})
}

func TestCompactNaN(t *testing.T) {
	// NaN != NaN: slices.Compact keeps every NaN, and so must Compact.
	x := make([]float64, 3*testCutoff)
	for i := range x {
		x[i] = []float64{1, math.NaN(), math.NaN(), 2}[i%4]
	}
	want := slices.Compact(slices.Clone(x))
	got := Compact(slices.Clone(x), par.Grain(testCutoff))
	if !slices.EqualFunc(got, want, func(a, b float64) bool { return a == b || a != a && b != b }) {
		t.Fatalf("Compact of NaNs: %v, want %v", got, want)
	}
}

func TestCompactFuncPanic(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		x := make([]int64, 50000)
		for i := range x {
			x[i] = int64(i / 3)
		}
		v := func() (v any) {
			defer func() { v = panicValue(recover()) }()
			CompactFunc(x, func(a, b int64) bool {
				if a == 12345 {
					panic("eq saw 12345")
				}
				return a == b
			}, par.WithPool(pool), par.Grain(testCutoff))
			return nil
		}()
		if v != "eq saw 12345" {
			t.Fatalf("recovered %v", v)
		}
	})
	if v := func() (v any) {
		defer func() { v = recover() }()
		CompactFunc([]int{1}, nil)
		return nil
	}(); v != "sortpar: CompactFunc with a nil eq" {
		t.Errorf("nil eq: panic %v", v)
	}
}
