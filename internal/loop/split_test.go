package loop_test

import (
	"sync/atomic"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
)

// partitioners are the partitioner options Split is checked under.
func partitioners() []struct {
	name string
	opt  par.Option
} {
	return []struct {
		name string
		opt  par.Option
	}{
		{"auto", par.Auto()},
		{"auto-grain5", par.Grain(5)},
		{"static", par.Static()},
		{"simple1", par.Simple(1)},
		{"simple7", par.Simple(7)},
		{"affinity", par.Affinity(new(par.AffinityState))},
	}
}

// treeSum is the serial reference for a Fixed Split summing offsets with
// leaves of at most g.
func treeSum(a, b, g uint64) uint64 {
	if b-a <= g {
		return (a + b - 1) * (b - a) / 2
	}
	m := a + (b-a)/2
	return treeSum(a, m, g) ^ (treeSum(m, b, g) * 3)
}

func TestSplitFixed(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, n := range []uint64{1, 2, 1000, 5003, 65537} {
			// A non-associative join makes the result depend on the tree.
			ops := loop.Ops[uint64]{
				Leaf:  func(a, b uint64, acc uint64) uint64 { return acc + (a+b-1)*(b-a)/2 },
				Join:  func(x, y uint64) uint64 { return x ^ (y * 3) },
				Fixed: true,
			}
			for _, pt := range partitioners() {
				// Simple(g) names the tree's leaf size; otherwise Grain does.
				g := uint64(7)
				switch pt.name {
				case "simple1":
					g = 1
				case "auto-grain5":
					g = 5 // the later Grain wins
				}
				got, _ := loop.Split(n, 0, ops, loop.Resolve("test", loop.Loops, []par.Option{par.Grain(7), pt.opt, par.WithPool(p)}), nil)
				if want := treeSum(0, n, g); got != want {
					t.Errorf("n=%d %s: %d, want %d", n, pt.name, got, want)
				}
			}
			if got, _ := loop.Split(n, 0, ops, loop.Resolve("test", loop.Loops, []par.Option{par.WithPool(p)}), nil); got != treeSum(0, n, 1024) {
				t.Errorf("n=%d default grain: %d, want %d", n, got, treeSum(0, n, 1024))
			}
		}
	})
}

// TestSplitLeafOn checks that LeafOn gets the worker running each leaf (one
// of the pool's, as core.CurrentPool sees it), that the leaves cover the
// range once, and that setting both Leaf and LeafOn, or neither, panics.
func TestSplitLeafOn(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			for _, fixed := range []bool{false, true} {
				if fixed && (pt.name == "static" || pt.name == "affinity") {
					continue
				}
				const n = 10_000
				var wrong atomic.Int32
				ops := loop.Ops[uint64]{
					LeafOn: func(w *core.Worker, a, b uint64, acc uint64) uint64 {
						if w == nil || w.Pool() != p || core.CurrentPool() != p || w.ID() >= p.MaxWorkerID() {
							wrong.Add(1)
						}
						return acc + (a+b-1)*(b-a)/2
					},
					Join:  func(x, y uint64) uint64 { return x + y },
					Fixed: fixed,
				}
				got, _ := loop.Split(n, 0, ops, loop.Resolve("test", loop.Loops, []par.Option{pt.opt, par.WithPool(p)}), nil)
				if want := uint64(n * (n - 1) / 2); got != want || wrong.Load() != 0 {
					t.Errorf("%s fixed=%v: sum %d, want %d; %d leaves with a wrong worker", pt.name, fixed, got, want, wrong.Load())
				}
			}
		}
	})
	c := loop.Resolve[par.Option]("test", loop.Loops, nil)
	leaf := func(a, b uint64, acc int) int { return acc }
	leafOn := func(w *core.Worker, a, b uint64, acc int) int { return acc }
	for name, ops := range map[string]loop.Ops[int]{
		"both":    {Leaf: leaf, LeafOn: leafOn},
		"neither": {},
	} {
		func() {
			defer func() {
				if v := recover(); v != "loop: Split needs exactly one of Ops.Leaf and Ops.LeafOn" {
					t.Errorf("%s: recovered %v", name, v)
				}
			}()
			loop.Split(10, 0, ops, c, nil)
		}()
	}
}
