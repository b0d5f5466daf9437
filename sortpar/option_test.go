package sortpar

import (
	"fmt"
	"testing"

	"github.com/gofork/gofork/par"
)

// TestOptionPanics checks that every function refuses a nil Option, and an
// option it does not use, with a message naming the option and the call,
// whatever the input's length, including the lengths that are sorted
// serially without looking at the pool.
func TestOptionPanics(t *testing.T) {
	for _, n := range []int{0, 1, 10, 1 << 16} {
		s := make([]int, n)
		c := func(a, b int) int { return a - b }
		for _, bad := range []struct {
			opt  par.Option
			want string // the panic after "sortpar: "; %s is the call
		}{
			{nil, "nil Option passed to %s"},
			{par.InFlight(2), "option par.InFlight does not apply to %s"},
			{par.Static(), "option par.Static does not apply to %s"},
		} {
			o := bad.opt
			calls := map[string]func(){
				"Sort":            func() { Sort(s, o) },
				"SortFunc":        func() { SortFunc(s, c, o) },
				"SortStable":      func() { SortStable(s, o) },
				"SortStableFunc":  func() { SortStableFunc(s, c, o) },
				"IsSorted":        func() { IsSorted(s, o) },
				"IsSortedFunc":    func() { IsSortedFunc(s, c, o) },
				"Merge":           func() { Merge(make([]int, 2*n), s, s[:n:n], o) },
				"MergeFunc":       func() { MergeFunc(make([]int, 2*n), s, s[:n:n], c, o) },
				"Compact":         func() { Compact(s, o) },
				"CompactFunc":     func() { CompactFunc(s, func(a, b int) bool { return a == b }, o) },
				"SortStableByKey": func() { SortStableByKey(s, func(x int) int { return x }, o) },
			}
			for name, call := range calls {
				v := func() (v any) {
					defer func() { v = recover() }()
					call()
					return nil
				}()
				if want := "sortpar: " + fmt.Sprintf(bad.want, "sortpar."+name); fmt.Sprint(v) != want {
					t.Errorf("n=%d: %s: panic %v, want %q", n, name, v, want)
				}
			}
		}
	}
}
