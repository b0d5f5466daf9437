// Package beamtest is what the example's test binaries share: a TestMain that
// starts Beam quietly and, after the tests, checks that no goroutine was left
// behind.
package beamtest

import (
	"flag"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"go.uber.org/goleak"
)

// Main is a TestMain: it parses the flags, starts Beam with warnings and
// errors logged only (Beam and prism log each job's progress at info level,
// which would also cut benchmark lines), runs the tests and fails the binary
// if a goroutine other than those LeakOptions names is left.
func Main(m *testing.M) {
	flag.Parse()
	log.LogLevel = "warn"
	beam.Init()
	goleak.VerifyTestMain(m, LeakOptions()...)
}

// LeakOptions are the goroutines that outlive a test on purpose, and nothing
// else:
//   - the job server prism.Execute starts in-process on the first run and
//     never stops, so that later pipelines of the process are submitted to
//     it (Beam's design; the worker pools it starts per job are stopped);
//   - the idle workers and the resting governor of core.Default(), the pool
//     every DoFn shares, which lives for the whole process by design. A
//     worker still running a task is not ignored (waitWake is where a worker
//     with nothing to do sleeps), and neither is any goroutine of a pool a
//     test starts and forgets to Close while it is busy.
func LeakOptions() []goleak.Option {
	return []goleak.Option{
		goleak.IgnoreAnyFunction("github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism/internal/jobservices.(*Server).Serve"),
		goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*Worker).waitWake"),
		goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*governor).run"),
	}
}
