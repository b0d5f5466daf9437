package loop_test

import (
	"testing"

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
