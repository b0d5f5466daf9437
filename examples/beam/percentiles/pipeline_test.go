package percentiles

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"

	"github.com/gofork/gofork/examples/beam/internal/beamtest"
)

func TestMain(m *testing.M) { beamtest.Main(m) }

// runTimeout bounds every pipeline a test runs: a hang fails the test.
const runTimeout = 5 * time.Minute

// runPrism runs p on the embedded prism runner, bounded by runTimeout.
func runPrism(t testing.TB, p *beam.Pipeline) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	_, err := beam.Run(ctx, "prism", p)
	if ctx.Err() != nil {
		t.Fatalf("pipeline still running after %v: %v", runTimeout, err)
	}
	return err
}

func testConfig(records int64) Config {
	c := Default()
	c.Records = records
	return c
}

func TestPipelineMatchesSerial(t *testing.T) {
	records := int64(10_000_000)
	if testing.Short() {
		records = 300_000
	}
	for _, tc := range []struct {
		sources int
		serial  bool
	}{{1, false}, {4, false}, {1, true}} {
		t.Run(fmt.Sprintf("sources=%d/serial=%v", tc.sources, tc.serial), func(t *testing.T) {
			cfg := testConfig(records)
			cfg.Sources, cfg.Serial = tc.sources, tc.serial
			want := Serial(cfg)
			p, s := beam.NewPipelineWithRoot()
			passert.EqualsList(s, Build(s, cfg), want)
			if err := runPrism(t, p); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestMalformedRecordFailsPipeline(t *testing.T) {
	cfg := testConfig(200_000)
	cfg.Corrupt = 123_457
	p, s := beam.NewPipelineWithRoot()
	Build(s, cfg)
	err := runPrism(t, p)
	if err == nil {
		t.Fatal("pipeline with a malformed record succeeded")
	}
	if !strings.Contains(err.Error(), "percentiles: malformed record") || !strings.Contains(err.Error(), corruptLatency) {
		t.Fatalf("pipeline failed without the parse panic's message: %v", err)
	}
}
