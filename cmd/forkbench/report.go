package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// fmtDur prints d with three significant digits.
func fmtDur(ns int64) string {
	if ns <= 0 {
		return "-"
	}
	d := float64(ns)
	switch {
	case d < 1e3:
		return fmt.Sprintf("%.0fns", d)
	case d < 1e6:
		return fmt.Sprintf("%.3gµs", d/1e3)
	case d < 1e9:
		return fmt.Sprintf("%.3gms", d/1e6)
	default:
		return fmt.Sprintf("%.3gs", d/1e9)
	}
}

// fmtRSS prints bytes as MiB.
func fmtRSS(b int64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fMiB", float64(b)/(1<<20))
}

func ratio(num, den int64) float64 {
	if num <= 0 || den <= 0 {
		return 0
	}
	return float64(num) / float64(den)
}

func fmtRatio(r float64, format string) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprintf(format, r)
}

// serialFor returns the serial reference for bench at p: its own per-P
// measurement when the problem depends on P, else the one at P=1.
func (r *Results) serialFor(bench string, p int) *Config {
	if c := r.find(bench, variantSerial, p); c != nil {
		return c
	}
	return r.find(bench, variantSerial, 1)
}

// speedup returns Ts/Tp for c, a measured configuration, against its
// benchmark's serial program, and whether it has one: not when there is no
// serial run, nor in a latency row, whose serial variant is no serial
// program (kindLatency). x is 0 when ok is false.
func (r *Results) speedup(c *Config) (x float64, ok bool) {
	s := r.serialFor(c.Bench, c.P)
	if s == nil || c.MedianNS <= 0 || r.kind(c.Bench) == kindLatency {
		return 0, false
	}
	return ratio(s.MedianNS, c.MedianNS), true
}

// benchOrder lists the benchmarks of suite in the order they were measured.
func (r *Results) benchOrder(suite string) []string {
	var names []string
	for _, c := range r.Configs {
		if c.Suite == suite && !slices.Contains(names, c.Bench) {
			names = append(names, c.Bench)
		}
	}
	return names
}

// workers lists the worker counts measured for bench/variant, ascending.
func (r *Results) workers(bench, variant string) []int {
	var ps []int
	for _, c := range r.Configs {
		if c.Bench == bench && c.Variant == variant && !slices.Contains(ps, c.P) {
			ps = append(ps, c.P)
		}
	}
	slices.Sort(ps)
	return ps
}

func (r *Results) fit(bench, variant string) *Fit {
	for i := range r.Fits {
		if r.Fits[i].Bench == bench && r.Fits[i].Variant == variant {
			return &r.Fits[i]
		}
	}
	return nil
}

func mark(c *Config) string {
	if c != nil && c.Error != "" {
		return " FAIL"
	}
	return ""
}

// tableGroup is the benchmarks of one table: one suite's benchmarks of one
// kind of row, or those of a suite that have several baselines (designs),
// whose table has a column per design.
type tableGroup struct {
	suite   string
	kind    string // one of kinds; "" for designs
	designs bool
	names   []string
}

// kind returns the kind of benchmark name's rows.
func (r *Results) kind(name string) string {
	if bi := r.info(name); bi != nil && bi.Kind != "" {
		return bi.Kind
	}
	return kindAsWritten
}

// designs reports whether benchmark name has several baselines.
func (r *Results) designs(name string) bool {
	bi := r.info(name)
	return bi != nil && len(bi.Variants) > 3
}

// groups splits the measured benchmarks into tables: per suite, in the
// order measured, first the rows as a user writes them (the user's
// question), then the rows that fork everywhere (the runtime's cost), then
// the latency and waiting rows, then the benchmarks with a column per design.
func (r *Results) groups() []tableGroup {
	var suites []string
	for _, c := range r.Configs {
		if !slices.Contains(suites, c.Suite) {
			suites = append(suites, c.Suite)
		}
	}
	var out []tableGroup
	for _, suite := range suites {
		var gs []tableGroup
		for _, kind := range kinds {
			gs = append(gs, tableGroup{suite: suite, kind: kind})
		}
		for _, g := range append(gs, tableGroup{suite: suite, designs: true}) {
			for _, name := range r.benchOrder(suite) {
				if r.designs(name) == g.designs && (g.designs || r.kind(name) == g.kind) {
					g.names = append(g.names, name)
				}
			}
			if len(g.names) > 0 {
				out = append(out, g)
			}
		}
	}
	return out
}

// kindHeading says under a table's title what its rows do.
var kindHeading = map[string]string{
	kindAsWritten: "serial below a cutoff, the same for gofork and its Go baseline, " +
		"so both do the same work (cutoffs below)",
	kindForkEverywhere: "a fork at every call, no cutoff: libfork's runtime-overhead setting, " +
		"where T1/Ts is what the forks cost; a Go baseline forks at every call too",
	kindLatency: "the time is a latency or mostly waiting, not CPU work, so there is no speedup " +
		"over a serial program; compare gofork with its Go baseline",
}

// writeTables prints every table, then how to read them.
func writeTables(w io.Writer, r *Results) {
	var standard []string
	for _, g := range r.groups() {
		if g.designs {
			writeDesignsTable(w, r, g)
		} else {
			writeTable(w, r, g)
			standard = append(standard, g.names...)
		}
		writeMetrics(w, r, g.names)
		writeBenchNotes(w, r, g.names)
		fmt.Fprintln(w)
	}
	if len(standard) == 0 {
		return
	}
	fmt.Fprintln(w, "speedup = Ts/Tp; effic. = speedup/P; T1/Ts = overhead of one worker over the serial program;")
	fmt.Fprintln(w, "spread = (max-min)/median; base/gofork = the Go baseline's time over gofork's, above 1x gofork is faster.")
	var fits []string
	for _, name := range standard {
		for _, v := range []string{variantGofork, variantBaseline} {
			if f := r.fit(name, v); f != nil {
				fits = append(fits, fmt.Sprintf("%s/%s n=%.2f b=%s", name, v, f.N, fmtRSS(int64(f.B))))
			}
		}
	}
	if len(fits) > 0 {
		fmt.Fprintf(w, "memory fit MRSS ≈ a + b·P^n, a = serial peak RSS, excess under %s read as %s:\n  %s\n",
			fmtRSS(rssNoiseFloor), fmtRSS(rssNoiseFloor), strings.Join(fits, "\n  "))
	}
	fmt.Fprintln(w)
}

// baselineFor returns the Go baseline's configuration for bench at p: the
// serial program itself when that is the baseline (slices.Sort).
func (r *Results) baselineFor(bench string, p int) *Config {
	bi := r.info(bench)
	switch {
	case bi == nil || bi.BaselineVariant == "":
		return nil
	case bi.BaselineVariant == variantSerial:
		return r.serialFor(bench, p)
	default:
		return r.find(bench, bi.BaselineVariant, p)
	}
}

// writeTable prints one standard table: per benchmark a serial row and one
// row per P for gofork, with the Go baseline alongside.
func writeTable(w io.Writer, r *Results, g tableGroup) {
	fmt.Fprintf(w, "%s, %s: %s\n", g.suite, kindTitle[g.kind], kindHeading[g.kind])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tP\tmedian\tspread\tspeedup\teffic.\tT1/Ts\tpeak RSS\tbaseline\tbase/gofork\t")
	for _, name := range g.names {
		if s := r.find(name, variantSerial, 1); s != nil {
			fmt.Fprintf(tw, "%s\tserial\t%s\t%s\t\t\t\t%s\t\t%s\t\n", name, fmtDur(s.MedianNS), spread(s), fmtRSS(s.PeakRSS), mark(s))
		}
		t1 := r.find(name, variantGofork, 1)
		for _, p := range r.workers(name, variantGofork) {
			gc := r.find(name, variantGofork, p)
			s := r.serialFor(name, p)
			var ts int64
			if s != nil {
				ts = s.MedianNS
			}
			sp, _ := r.speedup(gc) // 0, printed as "-", where there is none
			over := "-"
			if p == 1 && t1 != nil && g.kind != kindLatency {
				over = fmtRatio(ratio(t1.MedianNS, ts), "%.2f")
			}
			base, rel := "-", "-"
			if bl := r.baselineFor(name, p); bl != nil {
				base = fmtDur(bl.MedianNS) + mark(bl)
				rel = fmtRatio(ratio(bl.MedianNS, gc.MedianNS), "%.2fx")
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, p, fmtDur(gc.MedianNS), spread(gc),
				fmtRatio(sp, "%.2fx"), fmtRatio(100*sp/float64(p), "%.0f%%"), over, fmtRSS(gc.PeakRSS), base, rel, mark(gc))
		}
	}
	tw.Flush()
}

// writeMetrics prints under a table the figures its benchmarks report
// beside their times (kernels.Job.Metrics), median of the runs, one line
// per configuration that has some.
func writeMetrics(w io.Writer, r *Results, names []string) {
	header := false
	for _, c := range r.Configs {
		if len(c.Metrics) == 0 || !slices.Contains(names, c.Bench) {
			continue
		}
		if !header {
			fmt.Fprintln(w, "figures beside the time, median of the runs:")
			header = true
		}
		fmt.Fprintf(w, "  %s %s P=%d: %s\n", c.Bench, c.Variant, c.P, fmtMetrics(c.Metrics, " "))
	}
}

// fmtMetrics prints figures as name=value, by name, joined by sep.
func fmtMetrics(m map[string]float64, sep string) string {
	names := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = name + "=" + strconv.FormatFloat(m[name], 'g', 4, 64)
	}
	return strings.Join(parts, sep)
}

// writeBenchNotes prints under a table the problem sizes, where each
// benchmark stops forking and what its Go baseline is, and its note.
func writeBenchNotes(w io.Writer, r *Results, names []string) {
	var sizes []string
	for _, name := range names {
		if c := r.find(name, variantGofork, 1); c != nil {
			sizes = append(sizes, name+" "+c.Size)
		}
	}
	fmt.Fprintf(w, "sizes: %s\n", strings.Join(sizes, "; "))
	fmt.Fprintln(w, "where gofork and its Go baseline stop forking:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, name := range names {
		bi := r.info(name)
		if bi == nil {
			continue
		}
		cut, base := bi.Cutoff, "none"
		if cut == "" {
			cut = "-"
		}
		if bi.BaselineVariant != "" {
			base = bi.Baseline
		}
		fmt.Fprintf(tw, "  %s\t%s\tbaseline: %s\n", name, cut, base)
	}
	tw.Flush()
	for _, name := range names {
		if b := lookup(name); b != nil && b.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", name, b.Note)
		}
	}
}

func spread(c *Config) string {
	if c == nil || c.MedianNS <= 0 || len(c.RunsNS) < 2 {
		return "-"
	}
	return fmt.Sprintf("±%.0f%%", 50*float64(c.MaxNS-c.MinNS)/float64(c.MedianNS))
}

// designColumns lists the non-serial variants of the benchmarks in names,
// in the order they declare them: the columns of a designs table.
func (r *Results) designColumns(names []string) []string {
	var cols []string
	for _, name := range names {
		if bi := r.info(name); bi != nil && len(bi.Variants) > 1 {
			for _, v := range bi.Variants[1:] {
				if !slices.Contains(cols, v) {
					cols = append(cols, v)
				}
			}
		}
	}
	return cols
}

// writeDesignsTable prints per benchmark and P the time and speedup of
// every design against the serial run of the same tasks.
func writeDesignsTable(w io.Writer, r *Results, g tableGroup) {
	cols := r.designColumns(g.names)
	fmt.Fprintf(w, "%s: median time (speedup over serial) of each design, every result verified\n", g.suite)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "test\tP\tserial\t")
	for _, d := range cols {
		fmt.Fprintf(tw, "%s\t", d)
	}
	fmt.Fprintln(tw)
	for _, name := range g.names {
		for _, p := range r.workers(name, variantGofork) {
			s := r.serialFor(name, p)
			var ts int64
			if s != nil {
				ts = s.MedianNS
			}
			fmt.Fprintf(tw, "%s\t%d\t%s%s\t", name, p, fmtDur(ts), mark(s))
			for _, d := range cols {
				c := r.find(name, d, p)
				if c == nil {
					fmt.Fprint(tw, "-\t")
					continue
				}
				fmt.Fprintf(tw, "%s (%s)%s\t", fmtDur(c.MedianNS), fmtRatio(ratio(ts, c.MedianNS), "%.2fx"), mark(c))
			}
			fmt.Fprintln(tw)
		}
	}
	tw.Flush()
}

// writeCSV writes one row per configuration with its summary and raw runs.
func writeCSV(w io.Writer, r *Results) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"bench", "suite", "size", "variant", "p", "median_ns", "min_ns", "max_ns",
		"speedup", "efficiency", "peak_rss_bytes", "verified", "error", "runs_ns", "metrics"})
	for _, c := range r.Configs {
		sp, eff := "", ""
		if x, ok := r.speedup(&c); ok {
			sp = strconv.FormatFloat(x, 'f', 4, 64)
			eff = strconv.FormatFloat(x/float64(c.P), 'f', 4, 64)
		}
		runs := make([]string, len(c.RunsNS))
		for i, ns := range c.RunsNS {
			runs[i] = strconv.FormatInt(ns, 10)
		}
		cw.Write([]string{c.Bench, c.Suite, c.Size, c.Variant, strconv.Itoa(c.P),
			strconv.FormatInt(c.MedianNS, 10), strconv.FormatInt(c.MinNS, 10), strconv.FormatInt(c.MaxNS, 10),
			sp, eff, strconv.FormatInt(c.PeakRSS, 10), strconv.FormatBool(c.Verified), c.Error,
			strings.Join(runs, " "), fmtMetrics(c.Metrics, ";")})
	}
	cw.Flush()
	return cw.Error()
}
