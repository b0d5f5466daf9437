package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"go.uber.org/goleak"

	"github.com/gofork/gofork/examples/beam/percentiles"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// Beam and prism log each job's progress at info level: warnings and
	// errors are enough here, and benchmark lines stay whole.
	log.LogLevel = "warn"
	beam.Init()
	// The goroutines meant to outlive a run: prism's in-process job server,
	// which serves every later pipeline of the process, and the idle
	// workers and resting governor of core.Default(), the pool the DoFns
	// share. See leakOptions in package percentiles.
	goleak.VerifyTestMain(m,
		goleak.IgnoreAnyFunction("github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism/internal/jobservices.(*Server).Serve"),
		goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*Worker).waitWake"),
		goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*governor).run"))
}

// TestProgramOutput runs the program's pipeline as main does (beamx.Run, so
// on prism when no --runner is given) and checks the file it writes against
// percentiles.Serial, line by line.
func TestProgramOutput(t *testing.T) {
	cfg := percentiles.Default()
	cfg.Records = 1_000_000
	if testing.Short() {
		cfg.Records = 100_000
	}
	cfg.Sources = 2
	out := filepath.Join(t.TempDir(), "percentiles.txt")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := beamx.Run(ctx, build(cfg, out)); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	slices.Sort(got)
	var want []string
	for _, s := range percentiles.Serial(cfg) {
		want = append(want, s.String())
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("output differs from the serial computation:\ngot:\n%s\nwant:\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
