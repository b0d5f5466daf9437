//go:build gofork_debug

package core

import (
	"strings"
	"testing"
)

// TestInvariantChecksPanic: in a gofork_debug build, breaking an invariant
// of the idle protocol panics at once.
func TestInvariantChecksPanic(t *testing.T) {
	p := New(WithWorkers(1))
	defer p.Close()
	w := p.roster.Load().all[0]
	v := catch(func() { p.count(w, 0, -1) }) // a sleeper uncounted that was never counted
	if s, _ := v.(string); !strings.HasPrefix(s, "core: invariant") {
		t.Fatalf("uncounting a sleeper nobody counted panicked with %v, want an invariant panic", v)
	}
	p.count(w, 0, 1) // undo, so that Close finds the counts as they were
}
