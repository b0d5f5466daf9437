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
