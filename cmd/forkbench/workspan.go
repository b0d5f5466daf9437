package main

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/kernels"
)

// -workspan: the work/span profile of each benchmark's gofork program
// (core.MeasureWorkSpan), how far it predicts the program scales, and the
// speedup measured here at 2 workers beside the prediction for 2.

// workSpanPs are the worker counts the table predicts speedups for.
var workSpanPs = []int{4, 16, 64, 256}

// workSpanRow is one benchmark's profile and its check on this machine.
type workSpanRow struct {
	name    string
	workers int // the pool the profile was measured on
	ws      core.WorkSpan
	// t1 and t2 are the median times of plain runs at 1 and 2 workers;
	// 0 when not measured (a benchmark without a pool, or -max-workers 1).
	t1, t2 time.Duration
}

// workSpanCSVHeader is the header of workspan.csv: Cilkscale's columns
// (tag, work, span, parallelism, burdened span, burdened parallelism, in
// seconds where they are times), then gofork's.
var workSpanCSVHeader = []string{
	"tag", "work (seconds)", "span (seconds)", "parallelism",
	"burdened_span (seconds)", "burdened_parallelism",
	"forks", "workers", "measured_speedup_p2", "speedup_lo_p2", "speedup_hi_p2",
	"speedup_lo_p4", "speedup_hi_p4", "speedup_lo_p16", "speedup_hi_p16",
	"speedup_lo_p64", "speedup_hi_p64", "speedup_lo_p256", "speedup_hi_p256",
}

// runWorkSpan measures every selected benchmark that has a gofork pool,
// prints the table to stdout and, with -out, writes workspan.csv. The
// profile is the median of -runs measured runs (by parallelism), each
// after a plain warm-up run, on a pool of -max-workers workers; the
// measured speedup is the median plain run at 1 worker over that at 2.
func runWorkSpan(o *options, stdout, stderr io.Writer) int {
	var rows []workSpanRow
	for _, b := range o.benchmarks {
		if !o.quiet {
			fmt.Fprintf(stderr, "forkbench: -workspan: %s\n", b.Name)
		}
		row, ok, err := measureWorkSpan(b, o)
		if err != nil {
			fmt.Fprintf(stderr, "forkbench: -workspan: %s: %v\n", b.Name, err)
			return exitFailure
		}
		if ok {
			rows = append(rows, row)
		}
	}
	writeWorkSpanTable(stdout, rows)
	if o.outDir != "" {
		f, err := os.Create(filepath.Join(o.outDir, "workspan.csv"))
		if err == nil {
			err = writeWorkSpanCSV(f, rows)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "forkbench: -out: %v\n", err)
			return exitFailure
		}
	}
	return exitOK
}

// measureWorkSpan profiles b's gofork program; ok is false for a benchmark
// whose program runs on no pool -workspan can measure on.
func measureWorkSpan(b *benchmark, o *options) (row workSpanRow, ok bool, err error) {
	row = workSpanRow{name: b.Name, workers: o.maxWorkers}
	j, err := b.Setup(variantGofork, o.maxWorkers, kernels.ScaleOf(o.quick))
	if err != nil {
		return row, false, err
	}
	closeJob := func() {
		if j.Close != nil {
			j.Close()
			j.Close = nil
		}
	}
	defer closeJob()
	if j.Pool == nil {
		return row, false, nil
	}
	var profiles []core.WorkSpan
	for range o.runs {
		if _, err := j.Once(); err != nil { // warm-up: caches, frames, the pool's workers
			return row, false, err
		}
		if j.Reset != nil {
			j.Reset()
		}
		_, ws := core.MeasureWorkSpan(j.Pool, func(*core.Worker) struct{} {
			j.Run()
			return struct{}{}
		})
		if err := j.Verify(); err != nil {
			return row, false, fmt.Errorf("measured run: %w", err)
		}
		profiles = append(profiles, ws)
	}
	slices.SortFunc(profiles, func(x, y core.WorkSpan) int {
		return cmp.Compare(x.Parallelism(), y.Parallelism())
	})
	row.ws = profiles[len(profiles)/2]
	closeJob() // its pool and input are not in the way of the timed runs
	if o.maxWorkers >= 2 {
		if row.t1, err = medianTime(b, 1, o); err == nil {
			row.t2, err = medianTime(b, 2, o)
		}
	}
	return row, true, err
}

// medianTime returns the median time of -runs plain runs of b's gofork
// program at p workers, after a warm-up, timed as the plain rows' child
// processes time them: GOMAXPROCS = p (no idle P beside a 1-worker run for
// the collector's background marking) and a collection before each run.
func medianTime(b *benchmark, p int, o *options) (time.Duration, error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
	j, err := b.Setup(variantGofork, p, kernels.ScaleOf(o.quick))
	if err != nil {
		return 0, err
	}
	if j.Close != nil {
		defer j.Close()
	}
	var ts []int64
	for i := range o.runs + 1 { // a warm-up, then the timed runs
		runtime.GC()
		d, err := j.Once()
		if err != nil {
			return 0, err
		}
		if i > 0 {
			ts = append(ts, int64(d))
		}
	}
	m, _, _ := summary(ts)
	return time.Duration(m), nil
}

// measuredSpeedup returns t1/t2, or 0 when either was not measured.
func (r workSpanRow) measuredSpeedup() float64 {
	if r.t1 <= 0 || r.t2 <= 0 {
		return 0
	}
	return float64(r.t1) / float64(r.t2)
}

// writeWorkSpanTable prints one row per benchmark: the profile, the
// speedup measured at 2 workers beside the range predicted for 2, and the
// ranges predicted for workSpanPs.
func writeWorkSpanTable(w io.Writer, rows []workSpanRow) {
	fmt.Fprintf(w, "work/span profiles (core.MeasureWorkSpan; burden %v a steal); speedup ranges: Cilkview's lower bound .. min(P, parallelism)\n\n", core.Burden)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "benchmark\twork\tspan\tparallelism\tburdened\tforks\tT1/T2\tP=2\t")
	for _, p := range workSpanPs {
		fmt.Fprintf(tw, "P=%d\t", p)
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		sp := "-"
		if s := r.measuredSpeedup(); s > 0 {
			sp = fmt.Sprintf("%.2f", s)
		}
		fmt.Fprintf(tw, "%s\t%v\t%v\t%.1f\t%.1f\t%d\t%s\t%s\t", r.name, roundDur(r.ws.Work), roundDur(r.ws.Span),
			r.ws.Parallelism(), r.ws.BurdenedParallelism(), r.ws.Forks, sp, speedupRange(r.ws, 2))
		for _, p := range workSpanPs {
			fmt.Fprintf(tw, "%s\t", speedupRange(r.ws, p))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// speedupRange formats WorkSpan.Speedup(p) as "lo-hi".
func speedupRange(ws core.WorkSpan, p int) string {
	lo, hi := ws.Speedup(p)
	return fmt.Sprintf("%.1f-%.1f", lo, hi)
}

// roundDur rounds d to three significant digits for the table.
func roundDur(d time.Duration) time.Duration {
	for unit := time.Duration(1); unit < time.Hour; unit *= 10 {
		if d < 1000*unit {
			return d.Round(unit)
		}
	}
	return d
}

// writeWorkSpanCSV writes the rows under workSpanCSVHeader.
func writeWorkSpanCSV(w io.Writer, rows []workSpanRow) error {
	cw := csv.NewWriter(w)
	cw.Write(workSpanCSVHeader)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, r := range rows {
		rec := []string{r.name, g(r.ws.Work.Seconds()), g(r.ws.Span.Seconds()), g(r.ws.Parallelism()),
			g(r.ws.BurdenedSpan.Seconds()), g(r.ws.BurdenedParallelism()),
			strconv.FormatUint(r.ws.Forks, 10), strconv.Itoa(r.workers), g(r.measuredSpeedup())}
		for _, p := range append([]int{2}, workSpanPs...) {
			lo, hi := r.ws.Speedup(p)
			rec = append(rec, g(lo), g(hi))
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}
