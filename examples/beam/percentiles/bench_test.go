package percentiles

import (
	"fmt"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// BenchmarkPipeline times whole runs of the pipeline on prism, the gofork
// DoFns against the serial ones on the same records: a hundred services
// (large groups) from one source branch (prism runs each stage as one bundle
// at a time) and from eight (eight Generate and Parse bundles at once), and
// ten thousand services (groups of about a thousand records, below
// sortpar's cutoff). Run it with -benchtime=1x and -count: one run takes
// seconds.
func BenchmarkPipeline(b *testing.B) {
	records := int64(10_000_000)
	if testing.Short() {
		records = 1_000_000
	}
	for _, c := range []struct{ services, sources int }{{100, 1}, {100, 8}, {10_000, 1}} {
		for _, serial := range []bool{false, true} {
			dofn := "gofork"
			if serial {
				dofn = "serial"
			}
			name := fmt.Sprintf("records=%.0e/services=%d/sources=%d/dofn=%s", float64(records), c.services, c.sources, dofn)
			b.Run(name, func(b *testing.B) {
				cfg := testConfig(records)
				cfg.Services, cfg.Sources, cfg.Serial = c.services, c.sources, serial
				for b.Loop() {
					p, s := beam.NewPipelineWithRoot()
					Build(s, cfg)
					if err := runPrism(b, p); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(records)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
			})
		}
	}
}
