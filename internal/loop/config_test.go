package loop_test

import (
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
)

// TestResolveWithoutOptionsAllocatesNothing checks that a call with no
// options pays no allocation for them: the Config stays on the stack
// unless an option writes to it through a pointer.
func TestResolveWithoutOptionsAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var c loop.Config
	if n := testing.AllocsPerRun(100, func() { c = loop.Resolve[par.Option]("test", loop.Loops, nil) }); n != 0 {
		t.Errorf("Resolve with no options: %v allocations, want 0", n)
	}
	if c.Kind != loop.Auto || c.Grain != 1 || c.Pool == nil {
		t.Errorf("Resolve with no options: %+v, want Auto, grain 1 and a pool", c)
	}
}

// TestResolveWithOptionsAllocatesNothing checks that resolving options
// allocates nothing in steady state: the Config the options write comes
// from a pool of them, so a short call with par.WithPool pays no
// allocation for it.
func TestResolveWithOptionsAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates, and sync.Pool drops items at random under it")
	}
	opts := []par.Option{par.Grain(64)}
	loop.Resolve("par.For", loop.Loops, opts) // fills the pool of Configs
	if n := testing.AllocsPerRun(100, func() {
		if c := loop.Resolve("par.For", loop.Loops, opts); c.Grain != 64 {
			t.Fatalf("Grain = %d, want 64", c.Grain)
		}
	}); n != 0 {
		t.Errorf("Resolve with an option: %v allocations, want 0", n)
	}
}

// TestClosedPoolRefusedAtAnySize checks that a call naming a closed pool
// panics with the same value, naming the call, whether or not its input
// would have reached the pool.
func TestClosedPoolRefusedAtAnySize(t *testing.T) {
	p := core.New(core.WithWorkers(2))
	p.Close()
	for _, n := range []int{0, 1, 1 << 16} {
		func() {
			defer func() {
				if got, want := recover(), "par: par.For on a closed Pool"; got != want {
					t.Errorf("n=%d: par.For on a closed pool panicked with %v, want %q", n, got, want)
				}
			}()
			par.For(0, n, func(int) {}, par.WithPool(p))
		}()
	}
}
