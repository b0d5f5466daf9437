package sortpar

import (
	"fmt"
	"strings"
	"testing"
)

// TestNilOptionPanics checks that every ...With function refuses a nil
// Option with a clear message whatever the input's length, including the
// lengths that are sorted serially without looking at the pool.
func TestNilOptionPanics(t *testing.T) {
	for _, n := range []int{0, 1, 10, 1 << 16} {
		s := make([]int, n)
		c := func(a, b int) int { return a - b }
		calls := map[string]func(){
			"SortWith":            func() { SortWith(s, nil) },
			"SortFuncWith":        func() { SortFuncWith(s, c, nil) },
			"SortStableWith":      func() { SortStableWith(s, nil) },
			"SortStableFuncWith":  func() { SortStableFuncWith(s, c, nil) },
			"MergeWith":           func() { MergeWith(make([]int, 2*n), s, s[:n:n], nil) },
			"MergeFuncWith":       func() { MergeFuncWith(make([]int, 2*n), s, s[:n:n], c, nil) },
			"CompactWith":         func() { CompactWith(s, nil) },
			"CompactFuncWith":     func() { CompactFuncWith(s, func(a, b int) bool { return a == b }, nil) },
			"SortStableByKeyWith": func() { SortStableByKeyWith(s, func(x int) int { return x }, nil) },
		}
		for name, call := range calls {
			v := func() (v any) {
				defer func() { v = recover() }()
				call()
				return nil
			}()
			if v == nil || !strings.Contains(fmt.Sprint(v), "sortpar: nil Option") {
				t.Errorf("n=%d: %s with a nil Option: panic %v, want \"sortpar: nil Option\"", n, name, v)
			}
		}
	}
}
