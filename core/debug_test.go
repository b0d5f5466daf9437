//go:build gofork_debug

package core

import (
	"strings"
	"testing"
	"time"
)

// TestInvariantChecksPanic: in a gofork_debug build, breaking an invariant
// of the idle protocol panics at once. With the pool's one worker asleep
// and sleep.mu held, nobody else touches the counts meanwhile.
func TestInvariantChecksPanic(t *testing.T) {
	p := New(WithWorkers(1))
	defer p.Close()
	if !waitAllAsleep(p, 10*time.Second) {
		t.Fatal("the worker did not go to sleep")
	}
	w := p.roster.Load().all[0]
	p.sleep.mu.Lock()
	v := catch(func() { p.count(w, 0, -1) }) // a sleeper uncounted while it is still in the idle list
	p.count(w, 0, 1)                         // undo, so that the counts are as they were
	p.sleep.mu.Unlock()
	if s, _ := v.(string); !strings.HasPrefix(s, "core: invariant") {
		t.Fatalf("uncounting a listed sleeper panicked with %v, want an invariant panic", v)
	}
}
