package reduce_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// splitCounter is a ReduceBody that sums its indices and counts the calls
// of Split and Join.
type splitCounter struct {
	sum           int
	splits, joins *int
}

func (b *splitCounter) Accumulate(lo, hi int) {
	for i := lo; i < hi; i++ {
		b.sum += i
	}
}
func (b *splitCounter) Split() *splitCounter {
	*b.splits++
	return &splitCounter{splits: b.splits, joins: b.joins}
}
func (b *splitCounter) Join(r *splitCounter) { *b.joins++; b.sum += r.sum }

// TestReduceBodySplitsAsDocumented checks ReduceBody's promise on one
// worker: Auto and Simple never split a body, Static and Affinity split one
// per chunk after the first, and every partitioner gets the sum right.
func TestReduceBodySplitsAsDocumented(t *testing.T) {
	pool := core.New(core.WithWorkers(1), core.WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer pool.Close()
	for _, c := range []struct {
		name  string
		opt   par.Option
		split bool
	}{
		{"auto", par.Auto(), false},
		{"simple1", par.Simple(1), false},
		{"static", par.Static(), false}, // one chunk for one worker
		{"affinity", par.Affinity(new(par.AffinityState)), true},
	} {
		var splits, joins int
		b := &splitCounter{splits: &splits, joins: &joins}
		reduce.ReduceBody(0, 1000, b, c.opt, par.WithPool(pool))
		if b.sum != 999*1000/2 {
			t.Errorf("%s: sum %d, want %d", c.name, b.sum, 999*1000/2)
		}
		if splits != joins || (splits > 0) != c.split {
			t.Errorf("%s on one worker: %d Splits and %d Joins (%s)", c.name, splits, joins, thieves(pool))
		}
	}
}

// thieves says which of pool's workers stole, and how many spares it
// started: what a failure of a test that expects no steal needs to tell.
func thieves(pool *core.Pool) string {
	s := pool.Stats()
	var who []string
	for id, w := range s.PerWorker {
		if w.Stolen > 0 {
			who = append(who, fmt.Sprintf("worker %d (spare %v, guest %v) stole %d", id, w.Spare, w.Guest, w.Stolen))
		}
	}
	return fmt.Sprintf("%d spares started; %s", s.SparesStarted, strings.Join(who, ", "))
}
