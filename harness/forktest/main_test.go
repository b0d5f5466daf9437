package forktest

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/gofork/gofork/harness/pooltest"

	"github.com/gofork/gofork/core"
)

// leakOpts ignore the goroutines alive when the tests start: the workers of
// core.Default(), which live for the whole process by design. Every other
// goroutine a test starts must be gone when it ends (goleak.VerifyNone) and
// when the package's tests end.
var leakOpts []goleak.Option

func TestMain(m *testing.M) {
	core.Default()
	leakOpts = append(pooltest.IgnoreDefault(), goleak.IgnoreCurrent())
	goleak.VerifyTestMain(m, leakOpts...)
}
