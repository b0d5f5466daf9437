// Package pooltest holds test helpers shared by gofork's packages.
package pooltest

import (
	"fmt"
	"testing"

	"go.uber.org/goleak"

	"github.com/gofork/gofork/core"
)

// WorkerCounts are the pool sizes Each runs a test on.
var WorkerCounts = []int{1, 2, 4, 8}

// Each runs f as a subtest once per worker count with a fresh pool, and on
// HelpFirst pools of 1, 2 and 4 workers, where the right half of a Join runs
// first. The pools are closed when f returns, and checked for lost
// wake-ups (Close).
func Each(t *testing.T, f func(t *testing.T, p *core.Pool)) {
	t.Helper()
	for _, w := range WorkerCounts {
		t.Run(fmt.Sprintf("p=%d", w), func(t *testing.T) {
			p := core.New(core.WithWorkers(w))
			defer Close(t, p)
			f(t, p)
		})
	}
	for _, w := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("p=%d/helpfirst", w), func(t *testing.T) {
			p := core.New(core.WithWorkers(w), core.WithPolicy(core.HelpFirst))
			defer Close(t, p)
			f(t, p)
		})
	}
}

// Close closes p and fails t if p's governor had to wake a sleeper that the
// sleep protocol should have woken (core.Stats.LostWakeups): a lost wake-up,
// which the protocol rules out.
func Close(t testing.TB, p *core.Pool) {
	t.Helper()
	p.Close()
	if n := p.Stats().LostWakeups; n != 0 {
		t.Errorf("the governor woke %d sleepers while shared work waited and nobody searched (lost wake-ups)", n)
	}
}

// IgnoreDefault are goleak options that ignore the goroutines of
// core.Default(), which live for the whole process by design: its workers
// and spares waiting for work (sleeping, parked by the limit, retired) and
// its governor at rest. Any other goroutine a test leaves behind, a worker
// of a pool it forgot to Close included, is still reported when it is busy;
// an idle worker of a forgotten pool looks like Default's and is not.
func IgnoreDefault() []goleak.Option {
	return []goleak.Option{
		goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*Worker).waitWake"),
		goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*governor).run"),
	}
}
