package par_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gofork/gofork/core"
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
			"For":          func() { par.For(0, n, func(int) {}, nil) },
			"ForRange":     func() { par.ForRange(0, n, func(int, int) {}, nil) },
			"ForCtx":       func() { _ = par.ForCtx(context.Background(), 0, n, func(int) {}, nil) },
			"ForRangeCtx":  func() { _ = par.ForRangeCtx(context.Background(), 0, n, func(int, int) {}, nil) },
			"ForEach":      func() { par.ForEach(s, func(int, *int) {}, nil) },
			"Map":          func() { par.Map(s, func(x int) int { return x }, nil) },
			"Filter":       func() { par.Filter(s, func(int) bool { return true }, nil) },
			"DeleteFunc":   func() { par.DeleteFunc(slices.Clone(s), func(int) bool { return false }, nil) },
			"IndexFunc":    func() { par.IndexFunc(s, func(int) bool { return false }, nil) },
			"ContainsFunc": func() { par.ContainsFunc(s, func(int) bool { return false }, nil) },
			"Index":        func() { par.Index(s, 1, nil) },
			"Contains":     func() { par.Contains(s, 1, nil) },
			"IndexBlocks":  func() { par.IndexBlocks(n, func(int, int) int { return -1 }, nil) },
			"FilterBlocks": func() { par.FilterBlocks(n, func(lo, hi int, dst []int) []int { return dst }, nil) },
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

// TestOptionNotApplicable checks that an option a call does not use makes
// it panic, naming the option and the call, whatever the input's size,
// rather than being ignored.
func TestOptionNotApplicable(t *testing.T) {
	for _, n := range []int{0, 1 << 16} {
		s := make([]int, n)
		seq := slices.Values(s)
		for _, tc := range []struct {
			call string
			opt  string
			f    func()
		}{
			{"par.For", "par.InFlight", func() { par.For(0, n, func(int) {}, par.InFlight(4)) }},
			{"par.ForRange", "par.InFlight", func() { par.ForRange(0, n, func(int, int) {}, par.InFlight(4)) }},
			{"par.ForCtx", "par.InFlight", func() { _ = par.ForCtx(context.Background(), 0, n, func(int) {}, par.InFlight(1)) }},
			{"par.ForEach", "par.InFlight", func() { par.ForEach(s, func(int, *int) {}, par.InFlight(4)) }},
			{"par.Map", "par.InFlight", func() { par.Map(s, func(x int) int { return x }, par.InFlight(4)) }},
			{"par.Filter", "par.InFlight", func() { par.Filter(s, func(int) bool { return true }, par.InFlight(4)) }},
			{"par.IndexFunc", "par.InFlight", func() { par.IndexFunc(s, func(int) bool { return false }, par.InFlight(2)) }},
			{"par.Shuffle", "par.InFlight", func() { par.Shuffle(s, 1, par.InFlight(2)) }},
			{"par.Index", "par.InFlight", func() { par.Index(s, 1, par.InFlight(2)) }},
			{"par.Contains", "par.InFlight", func() { par.Contains(s, 1, par.InFlight(2)) }},
			{"par.IndexBlocks", "par.InFlight", func() { par.IndexBlocks(n, func(int, int) int { return -1 }, par.InFlight(2)) }},
			{"par.FilterBlocks", "par.InFlight", func() { par.FilterBlocks(n, func(lo, hi int, dst []int) []int { return dst }, par.InFlight(2)) }},
			{"par.MapSeq", "par.Grain", func() { par.MapSeq(seq, func(x int) int { return x }, par.Grain(8)) }},
			{"par.ForEachSeq", "par.Static", func() { par.ForEachSeq(seq, func(int) {}, par.Static()) }},
			{"par.NewGroup", "par.Grain", func() { par.NewGroup(par.Grain(8)) }},
			{"par.WithContext", "par.Simple", func() { par.WithContext(context.Background(), par.Simple(2)) }},
		} {
			v := catch(tc.f)
			want := tc.call[:3] + ": option " + tc.opt + " does not apply to " + tc.call
			if fmt.Sprint(v) != want {
				t.Errorf("n=%d: %s with %s: panic %v, want %q", n, tc.call, tc.opt, v, want)
			}
		}
	}
}

// TestCallsRunOnTheCallersPool checks that a call with no WithPool, made
// from inside a task, runs on that task's pool, and from outside on
// core.Default().
func TestCallsRunOnTheCallersPool(t *testing.T) {
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	var wrong atomic.Int32
	check := func(want *core.Pool) func() {
		return func() {
			if core.CurrentPool() != want {
				wrong.Add(1)
			}
		}
	}
	core.RunValue(p, func(*core.Worker) int {
		par.For(0, 1000, func(int) { check(p)() })
		par.Invoke(check(p), check(p), check(p))
		g := par.NewGroup()
		for range 100 {
			g.Go(func() error { check(p)(); return nil })
		}
		_ = g.Wait()
		var zero par.Group
		zero.Go(func() error { check(p)(); return nil })
		_ = zero.Wait()
		for range par.MapSeq(slices.Values(make([]int, 100)), func(int) int { check(p)(); return 0 }) {
		}
		return 0
	})
	par.For(0, 1000, func(int) { check(core.Default())() })
	par.Invoke(check(core.Default()), check(core.Default()))
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d calls ran on another pool than their caller's", n)
	}
}
