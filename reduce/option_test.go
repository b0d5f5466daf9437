package reduce_test

import (
	"fmt"
	"strings"
	"testing"

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
			"Reduce":        func() { reduce.Reduce(0, n, 0, func(lo, hi, acc int) int { return acc }, add, nil) },
			"Deterministic": func() { reduce.Deterministic(0, n, 0, func(lo, hi, acc int) int { return acc }, add, nil) },
			"ReduceBody":    func() { reduce.ReduceBody(0, n, &testBody{}, nil) },
			"Sum":           func() { reduce.Sum(s, nil) },
			"Min":           func() { reduce.Min(append(s, 1), nil) },
			"Max":           func() { reduce.Max(append(s, 1), nil) },
			"MinFunc":       func() { reduce.MinFunc(append(s, 1), func(a, b int) int { return a - b }, nil) },
			"MaxFunc":       func() { reduce.MaxFunc(append(s, 1), func(a, b int) int { return a - b }, nil) },
			"Count":         func() { reduce.Count(s, func(int) bool { return true }, nil) },
			"MapReduce":     func() { reduce.MapReduce(s, 0, func(x int) int { return x }, add, nil) },
			"Scan":          func() { reduce.Scan(make([]int, n), s, 0, add, nil) },
			"ScanInclusive": func() { reduce.ScanInclusive(make([]int, n), s, add, nil) },
			"Histogram":     func() { reduce.Histogram(s, 1, func(int) int { return 0 }, nil) },
		}
		for name, call := range calls {
			if v := catch(call); v == nil || !strings.Contains(fmt.Sprint(v), "reduce: nil par.Option") {
				t.Errorf("n=%d: %s with a nil Option: panic %v, want \"reduce: nil par.Option\"", n, name, v)
			}
		}
	}
}
