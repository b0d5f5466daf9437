package sortpar

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/gofork/gofork/harness/pooltest"

	"github.com/gofork/gofork/core"
)

func TestMain(m *testing.M) {
	// The Default pool lives for the whole process by design: start it
	// first and ignore its workers, so that any pool a test forgets to
	// Close is still reported.
	core.Default()
	goleak.VerifyTestMain(m, append(pooltest.IgnoreDefault(), goleak.IgnoreCurrent())...)
}
