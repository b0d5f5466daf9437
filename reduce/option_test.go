package reduce_test

import (
	"fmt"
	"testing"

	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// testBody is a ReduceBody that counts its iterations.
type testBody struct{ n int }

func (b *testBody) Accumulate(lo, hi int) { b.n += hi - lo }
func (b *testBody) Split() *testBody      { return &testBody{} }
func (b *testBody) Join(o *testBody)      { b.n += o.n }

// TestNilOptionPanics checks that a nil par.Option is refused whatever the
// input's size, as package par refuses it, with a message naming this
// package.
func TestNilOptionPanics(t *testing.T) {
	for _, n := range []int{0, 1, 10, 1 << 16} {
		s := make([]int, n)
		add := func(a, b int) int { return a + b }
		calls := map[string]func(){
			"Reduce":             func() { reduce.Reduce(0, n, 0, func(lo, hi, acc int) int { return acc }, add, nil) },
			"Deterministic":      func() { reduce.Deterministic(0, n, 0, func(lo, hi, acc int) int { return acc }, add, nil) },
			"ReduceBody":         func() { reduce.ReduceBody(0, n, &testBody{}, nil) },
			"Sum":                func() { reduce.Sum(s, nil) },
			"Min":                func() { reduce.Min(append(s, 1), nil) },
			"Max":                func() { reduce.Max(append(s, 1), nil) },
			"MinFunc":            func() { reduce.MinFunc(append(s, 1), func(a, b int) int { return a - b }, nil) },
			"MaxFunc":            func() { reduce.MaxFunc(append(s, 1), func(a, b int) int { return a - b }, nil) },
			"CountFunc":          func() { reduce.CountFunc(s, func(int) bool { return true }, nil) },
			"MapReduce":          func() { reduce.MapReduce(s, 0, func(x int) int { return x }, add, nil) },
			"Scan":               func() { reduce.Scan(make([]int, n), s, 0, add, nil) },
			"ScanInclusive":      func() { reduce.ScanInclusive(make([]int, n), s, add, nil) },
			"Histogram":          func() { reduce.Histogram(s, 1, func(int) int { return 0 }, nil) },
			"PrefixSum":          func() { reduce.PrefixSum(make([]int, n), s, nil) },
			"PrefixSumInclusive": func() { reduce.PrefixSumInclusive(make([]int, n), s, nil) },
			"ScanBlocks": func() {
				reduce.ScanBlocks(n, 0, add, func(int, int) int { return 0 }, func(int, int, int) int { return 0 }, nil)
			},
			"Counts":          func() { reduce.Counts(s, 1, nil) },
			"HistogramBlocks": func() { reduce.HistogramBlocks(n, 1, func(int, int, []int) {}, nil) },
		}
		for name, call := range calls {
			want := "reduce: nil Option passed to reduce." + name
			if v := catch(call); fmt.Sprint(v) != want {
				t.Errorf("n=%d: %s with a nil Option: panic %v, want %q", n, name, v, want)
			}
		}
	}
}

// TestOptionNotApplicable checks that an option a function does not use
// makes it panic, naming the option and the function, whatever the size of
// the input.
func TestOptionNotApplicable(t *testing.T) {
	for _, n := range []int{0, 1 << 16} {
		s := make([]int, n)
		add := func(a, b int) int { return a + b }
		for _, tc := range []struct {
			call, opt string
			f         func()
		}{
			{"reduce.Reduce", "par.InFlight", func() { reduce.Reduce(0, n, 0, func(lo, hi, acc int) int { return acc }, add, par.InFlight(2)) }},
			{"reduce.Sum", "par.InFlight", func() { reduce.Sum(s, par.InFlight(2)) }},
			{"reduce.Histogram", "par.InFlight", func() { reduce.Histogram(s, 1, func(int) int { return 0 }, par.InFlight(2)) }},
			{"reduce.Scan", "par.Grain", func() { reduce.Scan(make([]int, n), s, 0, add, par.Grain(64)) }},
			{"reduce.ScanInclusive", "par.Static", func() { reduce.ScanInclusive(make([]int, n), s, add, par.Static()) }},
			{"reduce.PrefixSum", "par.Grain", func() { reduce.PrefixSum(make([]int, n), s, par.Grain(64)) }},
			{"reduce.PrefixSumInclusive", "par.Simple", func() { reduce.PrefixSumInclusive(make([]int, n), s, par.Simple(64)) }},
			{"reduce.ScanBlocks", "par.Static", func() {
				reduce.ScanBlocks(n, 0, add, func(int, int) int { return 0 }, func(int, int, int) int { return 0 }, par.Static())
			}},
			{"reduce.ScanBlocks", "par.InFlight", func() {
				reduce.ScanBlocks(n, 0, add, func(int, int) int { return 0 }, func(int, int, int) int { return 0 }, par.InFlight(2))
			}},
			{"reduce.Counts", "par.InFlight", func() { reduce.Counts(s, 1, par.InFlight(2)) }},
			{"reduce.HistogramBlocks", "par.InFlight", func() { reduce.HistogramBlocks(n, 1, func(int, int, []int) {}, par.InFlight(2)) }},
		} {
			want := "reduce: option " + tc.opt + " does not apply to " + tc.call
			if v := catch(tc.f); fmt.Sprint(v) != want {
				t.Errorf("n=%d: %s with %s: panic %v, want %q", n, tc.call, tc.opt, v, want)
			}
		}
	}
}
