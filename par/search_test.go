package par_test

import (
	"slices"
	"sync/atomic"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/pooltest"
	"github.com/gofork/gofork/par"
)

// matchPositions returns where the tests put the first match in a slice of
// n: at both ends, around the serial head and the doubling ranges' ends,
// and nowhere (-1).
func matchPositions(n int) []int {
	h := par.SearchHead
	s := []int{-1, 0, 1, h - 1, h, h + 1, 2*h - 1, 2 * h, 3*h + 5, 4*h + 1, n / 2, n - 2, n - 1}
	for k := 14; 1<<k < n && !raceEnabled; k += 3 {
		s = append(s, 1<<k-1, 1<<k+1)
	}
	s = slices.DeleteFunc(s, func(i int) bool { return i >= n })
	slices.Sort(s)
	return slices.Compact(s)
}

func TestIndexFunc(t *testing.T) {
	n := 300_001
	if testing.Short() || raceEnabled {
		n = 40_001
	}
	x := make([]int32, n)
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, at := range matchPositions(n) {
				clear(x)
				if at >= 0 {
					// The first match, then more after it.
					for _, i := range []int{at, at + 1, at + 700, n - 1} {
						if i < n {
							x[i] = 1
						}
					}
				}
				var calls atomic.Int64
				hit := func(v int32) bool { calls.Add(1); return v == 1 }
				if got := par.IndexFunc(x, hit, opts...); got != at {
					t.Fatalf("%s: first match at %d: IndexFunc = %d", pt.name, at, got)
				}
				// Early exit: O(i + p·b) calls. Every range before the one
				// holding the match is at most i long, that range too, and
				// once the match is known each worker ends its block.
				limit := int64(par.SearchHead + 3*(at+1) + 2*p.Workers()*par.SearchBlock)
				if at < 0 {
					limit = int64(n)
				}
				if c := calls.Load(); c > limit {
					t.Errorf("%s: first match at %d: f called %d times, more than %d", pt.name, at, c, limit)
				}
				if got := par.ContainsFunc(x, hit, opts...); got != (at >= 0) {
					t.Fatalf("%s: match at %d: ContainsFunc = %v", pt.name, at, got)
				}
			}
		}
	})
}

func TestIndexFuncPanic(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		x := make([]int, 100_000)
		x[90_000] = 1
		v := catch(func() {
			par.IndexFunc(x, func(v int) bool {
				if v == 1 {
					panic("found it")
				}
				return false
			}, par.WithPool(p))
		})
		if v != "found it" {
			t.Errorf("recovered %v", v)
		}
	})
	if v := catch(func() { par.IndexFunc([]int{1}, nil) }); v != "par: IndexFunc with a nil f" {
		t.Errorf("nil f: %v", v)
	}
	if v := catch(func() { par.ContainsFunc([]int{1}, nil) }); v != "par: ContainsFunc with a nil f" {
		t.Errorf("ContainsFunc, nil f: %v", v)
	}
}
