// Command beam runs the percentiles pipeline: exact per-service latency
// percentiles over generated request records, with gofork inside the DoFns.
//
// It runs on any Beam runner; only the flags change. With no flags it runs on
// Beam's embedded prism runner:
//
//	go run . --output=/tmp/percentiles.txt
//
// and on a Flink cluster whose job server listens on localhost:8099, with the
// DoFns in this process (LOOPBACK) or in a container built from it (DOCKER):
//
//	go run . --runner=flink --endpoint=localhost:8099 --environment_type=LOOPBACK --output=/tmp/percentiles.txt
//
// The flags of the pipeline are listed by -help together with Beam's own
// (--runner, --endpoint, --environment_type, --parallelism, ...).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/gofork/gofork/examples/beam/percentiles"
)

var (
	records  = flag.Int64("records", percentiles.Default().Records, "request records to generate")
	services = flag.Int("services", percentiles.Default().Services, "distinct services (grouping keys)")
	skew     = flag.Float64("skew", percentiles.Default().Skew, "Zipf exponent (> 1) of the service distribution")
	seed     = flag.Uint64("seed", percentiles.Default().Seed, "seed of the generated records")
	sources  = flag.Int("sources", percentiles.Default().Sources, "independent source branches the records are split among")
	serial   = flag.Bool("serial", false, "use DoFns without gofork (slices.Sort, serial loops): the baseline")
	output   = flag.String("output", "percentiles.txt", "file the summaries are written to, one line per service")
)

func init() {
	register.Function1x1(formatSummary)
}

// formatSummary is the DoFn that turns a summary into its output line.
func formatSummary(s percentiles.Summary) string { return s.String() }

// build returns the pipeline that computes cfg's summaries and writes them to
// output.
func build(cfg percentiles.Config, output string) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	summaries := percentiles.Build(s, cfg)
	textio.Write(s, output, beam.ParDo(s, formatSummary, summaries))
	return p
}

func main() {
	flag.Parse()
	// On a worker started by a runner, Init runs the SDK harness and does not
	// return; in the launching process it returns at once.
	beam.Init()

	cfg := percentiles.Config{
		Records:  *records,
		Services: *services,
		Skew:     *skew,
		Seed:     *seed,
		Sources:  *sources,
		Serial:   *serial,
	}
	start := time.Now()
	if err := beamx.Run(context.Background(), build(cfg, *output)); err != nil {
		fmt.Fprintln(os.Stderr, "beam:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "beam: %d records, %d services: summaries in %s (%v)\n",
		cfg.Records, cfg.Services, *output, time.Since(start).Round(time.Millisecond))
}
