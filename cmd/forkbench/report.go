package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
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

// writeTable prints the main-suite table: per benchmark a serial row and one
// row per P for gofork, with the baseline alongside.
func writeTable(w io.Writer, r *Results) {
	names := r.benchOrder(suiteMain)
	if len(names) == 0 {
		return
	}
	defer fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tP\tmedian\tspread\tspeedup\teffic.\tT1/Ts\tpeak RSS\tbaseline\tgofork/base\t")
	for _, name := range names {
		if s := r.find(name, variantSerial, 1); s != nil {
			fmt.Fprintf(tw, "%s\tserial\t%s\t%s\t\t\t\t%s\t\t%s\t\n", name, fmtDur(s.MedianNS), spread(s), fmtRSS(s.PeakRSS), mark(s))
		}
		t1 := r.find(name, variantGofork, 1)
		for _, p := range r.workers(name, variantGofork) {
			g := r.find(name, variantGofork, p)
			s := r.serialFor(name, p)
			var ts int64
			if s != nil {
				ts = s.MedianNS
			}
			sp := ratio(ts, g.MedianNS)
			over := "-"
			if p == 1 && t1 != nil {
				over = fmtRatio(ratio(t1.MedianNS, ts), "%.2f")
			}
			base, rel := "-", "-"
			bl := r.find(name, variantBaseline, p)
			if b := lookup(name); bl == nil && b != nil && b.baselineIsSerial {
				bl = r.find(name, variantSerial, 1)
			}
			if bl != nil {
				base = fmtDur(bl.MedianNS) + mark(bl)
				rel = fmtRatio(ratio(g.MedianNS, bl.MedianNS), "%.3g")
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, p, fmtDur(g.MedianNS), spread(g),
				fmtRatio(sp, "%.2fx"), fmtRatio(100*sp/float64(p), "%.0f%%"), over, fmtRSS(g.PeakRSS), base, rel, mark(g))
		}
	}
	tw.Flush()
	var fits []string
	for _, name := range names {
		for _, v := range []string{variantGofork, variantBaseline} {
			if f := r.fit(name, v); f != nil {
				fits = append(fits, fmt.Sprintf("%s/%s n=%.2f b=%s", name, v, f.N, fmtRSS(int64(f.B))))
			}
		}
	}
	var sizes []string
	for _, name := range names {
		if c := r.find(name, variantGofork, 1); c != nil {
			sizes = append(sizes, name+" "+c.Size)
		}
	}
	fmt.Fprintf(w, "\nsizes: %s\n", strings.Join(sizes, "; "))
	for _, name := range names {
		if b := lookup(name); b != nil && b.note != "" {
			fmt.Fprintf(w, "%s: %s\n", name, b.note)
		}
	}
	fmt.Fprintln(w, "speedup = Ts/Tp; effic. = speedup/P; T1/Ts = overhead of one worker over the serial program;")
	fmt.Fprintln(w, "spread = (max-min)/median; gofork/base < 1 means gofork is faster than the Go baseline.")
	if len(fits) > 0 {
		fmt.Fprintf(w, "memory fit MRSS ≈ a + b·P^n, a = serial peak RSS, excess under %s read as %s:\n  %s\n",
			fmtRSS(rssNoiseFloor), fmtRSS(rssNoiseFloor), strings.Join(fits, "\n  "))
	}
}

func spread(c *Config) string {
	if c == nil || c.MedianNS <= 0 || len(c.RunsNS) < 2 {
		return "-"
	}
	return fmt.Sprintf("±%.0f%%", 50*float64(c.MaxNS-c.MinNS)/float64(c.MedianNS))
}

// poolDesigns is the column order of the pools table.
var poolDesigns = []string{variantGofork, variantGlobal, variantLocal, variantGoroutine}

// writePoolsTable prints per Zorro test and P the time and speedup of every
// pool design against the serial run of the same tasks.
func writePoolsTable(w io.Writer, r *Results) {
	names := r.benchOrder(suitePools)
	if len(names) == 0 {
		return
	}
	fmt.Fprintln(w, "pools: time (speedup vs serial) per design; every task checked to run exactly once")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "test\tP\tserial\t")
	for _, d := range poolDesigns {
		fmt.Fprintf(tw, "%s\t", d)
	}
	fmt.Fprintln(tw)
	for _, name := range names {
		for _, p := range r.workers(name, variantGofork) {
			s := r.serialFor(name, p)
			var ts int64
			if s != nil {
				ts = s.MedianNS
			}
			fmt.Fprintf(tw, "%s\t%d\t%s%s\t", name, p, fmtDur(ts), mark(s))
			for _, d := range poolDesigns {
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
		"speedup", "efficiency", "peak_rss_bytes", "verified", "error", "runs_ns"})
	for _, c := range r.Configs {
		sp, eff := "", ""
		if s := r.serialFor(c.Bench, c.P); s != nil && c.MedianNS > 0 {
			x := ratio(s.MedianNS, c.MedianNS)
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
			strings.Join(runs, " ")})
	}
	cw.Flush()
	return cw.Error()
}

// comparison is one line of the -compare table.
type comparison struct {
	Bench, Variant string
	P              int
	Old, New       int64
	Ratio          float64 // new/old median time
	Regression     bool
}

// compareResults matches configurations present in both files.
func compareResults(old, cur *Results, threshold float64) []comparison {
	var out []comparison
	for _, c := range cur.Configs {
		o := old.find(c.Bench, c.Variant, c.P)
		if o == nil || o.MedianNS <= 0 || c.MedianNS <= 0 {
			continue
		}
		x := ratio(c.MedianNS, o.MedianNS)
		out = append(out, comparison{c.Bench, c.Variant, c.P, o.MedianNS, c.MedianNS, x, x > threshold})
	}
	return out
}

// writeCompare prints the ratio table; regressions are marked, in red on a terminal.
func writeCompare(w io.Writer, old, cur *Results, threshold float64, color bool) int {
	cs := compareResults(old, cur, threshold)
	fmt.Fprintf(w, "\ncompare with %s (commit %.12s, %s): new/old median time, > %.2f marked\n",
		old.Started.Format(time.DateTime), old.Machine.Commit, old.Machine.CPU, threshold)
	if old.Machine.CPU != cur.Machine.CPU || old.Machine.Cores != cur.Machine.Cores {
		fmt.Fprintf(w, "warning: different machine (%s, %d cores) than this run (%s, %d cores)\n",
			old.Machine.CPU, old.Machine.Cores, cur.Machine.CPU, cur.Machine.Cores)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tvariant\tP\told\tnew\tnew/old\t")
	regressions := 0
	for _, c := range cs {
		flag := ""
		if c.Regression {
			regressions++
			flag = "REGRESSION"
			if color {
				flag = "\x1b[1;31mREGRESSION\x1b[0m"
			}
		} else if c.Ratio < 1/threshold {
			flag = "faster"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.2f\t %s\n", c.Bench, c.Variant, c.P, fmtDur(c.Old), fmtDur(c.New), c.Ratio, flag)
	}
	tw.Flush()
	if len(cs) == 0 {
		fmt.Fprintln(w, "(no configuration in common)")
		return 0
	}
	logSum := 0.0
	for _, c := range cs {
		logSum += math.Log(c.Ratio)
	}
	fmt.Fprintf(w, "geometric mean new/old: %.3f over %d configurations; %d regression(s)\n",
		math.Exp(logSum/float64(len(cs))), len(cs), regressions)
	return regressions
}
