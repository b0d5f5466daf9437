package loop_test

import (
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/internal/pooltest"
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
