package uts

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/gofork/gofork/harness/pooltest"

	"github.com/gofork/gofork/core"
)

func TestMain(m *testing.M) {
	// Search without WithPool runs on the process-wide pool, whose workers
	// live as long as the process: start it first and ignore exactly its
	// goroutines, so that any other leak still fails the run.
	core.Default()
	goleak.VerifyTestMain(m, append(pooltest.IgnoreDefault(), goleak.IgnoreCurrent())...)
}
