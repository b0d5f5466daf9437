package uts

import (
	"slices"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// BenchmarkSearchRatios runs serial, p=1 and p=2 back to back in every
// iteration, so that drifts in the machine's load hit all three alike, and
// reports the medians of the per-iteration ratios to serial.
func BenchmarkSearchRatios(b *testing.B) {
	for _, c := range []struct {
		n     string
		t     Tree
		large bool
	}{{"T1", T1, false}, {"T3", T3, false}, {"T1L", T1L, true}, {"T3L", T3L, true}} {
		if c.large && testing.Short() {
			continue
		}
		b.Run(c.n, func(b *testing.B) {
			p1 := core.New(core.WithWorkers(1))
			defer p1.Close()
			p2 := core.New(core.WithWorkers(2))
			defer p2.Close()
			var r1, r2 []float64
			var ts []float64
			for b.Loop() {
				t0 := time.Now()
				SearchSerial(c.t)
				t1 := time.Now()
				Search(c.t, par.WithPool(p1))
				t2 := time.Now()
				Search(c.t, par.WithPool(p2))
				t3 := time.Now()
				s := t1.Sub(t0).Seconds()
				ts = append(ts, s)
				r1 = append(r1, t2.Sub(t1).Seconds()/s)
				r2 = append(r2, s/t3.Sub(t2).Seconds())
			}
			med := func(x []float64) float64 { slices.Sort(x); return x[len(x)/2] }
			b.ReportMetric(med(ts), "serial-s")
			b.ReportMetric(med(r1), "T1/Ts")
			b.ReportMetric(med(r2), "Ts/T2")
		})
	}
}
