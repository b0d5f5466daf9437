// Package pooltest holds test helpers shared by gofork's packages.
package pooltest

import (
	"fmt"
	"testing"

	"github.com/gofork/gofork/core"
)

// WorkerCounts are the pool sizes Each runs a test on.
var WorkerCounts = []int{1, 2, 4, 8}

// Each runs f as a subtest once per worker count with a fresh pool, and on
// HelpFirst pools of 1, 2 and 4 workers, where the right half of a Join runs
// first. The pools are closed when f returns.
func Each(t *testing.T, f func(t *testing.T, p *core.Pool)) {
	t.Helper()
	for _, w := range WorkerCounts {
		t.Run(fmt.Sprintf("p=%d", w), func(t *testing.T) {
			p := core.New(core.WithWorkers(w))
			defer p.Close()
			f(t, p)
		})
	}
	for _, w := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("p=%d/helpfirst", w), func(t *testing.T) {
			p := core.New(core.WithWorkers(w), core.WithPolicy(core.HelpFirst))
			defer p.Close()
			f(t, p)
		})
	}
}
