package par_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gofork/gofork/par"
)

// TestNilOptionPanics checks that a nil Option is refused by every entry
// point whatever the input's size, not only where the input is large
// enough to be split: a call that works on a short slice must not start
// panicking when the slice grows.
func TestNilOptionPanics(t *testing.T) {
	for _, n := range []int{0, 1, 10, 1 << 16} {
		s := make([]int, n)
		seq := slices.Values(s)
		calls := map[string]func(){
			"For":         func() { par.For(0, n, func(int) {}, nil) },
			"ForRange":    func() { par.ForRange(0, n, func(int, int) {}, nil) },
			"ForCtx":      func() { _ = par.ForCtx(context.Background(), 0, n, func(int) {}, nil) },
			"ForRangeCtx": func() { _ = par.ForRangeCtx(context.Background(), 0, n, func(int, int) {}, nil) },
			"ForEach":     func() { par.ForEach(s, func(int, *int) {}, nil) },
			"Map":         func() { par.Map(s, func(x int) int { return x }, nil) },
			"Split": func() {
				par.Split(uint64(n), 0, par.Ops[int]{Leaf: func(a, b uint64, acc int) int { return acc }}, nil)
			},
			"PoolOf":       func() { par.PoolOf(nil) },
			"Filter":       func() { par.Filter(s, func(int) bool { return true }, nil) },
			"DeleteFunc":   func() { par.DeleteFunc(slices.Clone(s), func(int) bool { return false }, nil) },
			"IndexFunc":    func() { par.IndexFunc(s, func(int) bool { return false }, nil) },
			"ContainsFunc": func() { par.ContainsFunc(s, func(int) bool { return false }, nil) },
			"Shuffle":      func() { par.Shuffle(slices.Clone(s), 1, nil) },
			"ForEachSeq":   func() { par.ForEachSeq(seq, func(int) {}, nil) },
			"MapSeq":       func() { par.MapSeq(seq, func(x int) int { return x }, nil) },
			"NewGroup":     func() { par.NewGroup(nil) },
			"WithContext":  func() { par.WithContext(context.Background(), nil) },
		}
		for name, call := range calls {
			if v := catch(call); v == nil || !strings.Contains(fmt.Sprint(v), "par: nil Option") {
				t.Errorf("n=%d: %s with a nil Option: panic %v, want \"par: nil Option\"", n, name, v)
			}
		}
	}
}
