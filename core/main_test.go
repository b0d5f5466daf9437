package core

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// The Default pool, once started by a test or an example, lives for the
	// whole process by design.
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*Worker).waitWake"),
		goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*governor).run"))
}

// closeChecked closes p and fails t if its governor had to wake a sleeper
// that the sleep protocol should have woken (Stats.LostWakeups): a lost
// wake-up, which the protocol rules out.
func closeChecked(t testing.TB, p *Pool) {
	t.Helper()
	p.Close()
	if n := p.Stats().LostWakeups; n != 0 {
		t.Errorf("the governor woke %d sleepers while shared work waited and nobody searched (lost wake-ups)", n)
	}
}
