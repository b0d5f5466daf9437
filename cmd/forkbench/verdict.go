package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"
)

// What a verdict compares gofork with (Verdict.Against).
const (
	againstBaseline = "baseline" // the Go baseline: what a Go user writes instead
	againstSerial   = "serial"   // the serial program
)

// Verdict is one line of the verdict block: gofork against the Go baselines
// or the serial programs, over the benchmarks of one kind of row, at one P.
// Every ratio is the other program's median over gofork's, so above 1
// gofork is faster: the median run time, or for a row whose time is a
// latency (kindLatency), the median of the latency each run measured. A
// configuration that failed verification is left out. kindLatency rows are
// compared with their Go baselines only: they have no serial program that
// does their work on one core.
type Verdict struct {
	Against string `json:"against"` // againstBaseline or againstSerial
	Kind    string `json:"kind"`    // kindAsWritten, kindForkEverywhere or kindLatency
	P       int    `json:"p"`
	// Ratios holds the ratio of each benchmark counted.
	Ratios     map[string]float64 `json:"ratios"`
	Benchmarks int                `json:"benchmarks"` // len(Ratios)
	// GeoMean is the geometric mean of Ratios.
	GeoMean float64 `json:"geomean"`
	// Slowest is the benchmark with the smallest ratio, where gofork fares worst.
	Slowest      string  `json:"slowest"`
	SlowestRatio float64 `json:"slowest_ratio"`
	// Line is the sentence printed, e.g. "at P=2 gofork is 1.31x faster
	// than goroutines+WaitGroup over 3 benchmarks ...".
	Line string `json:"line"`
}

// verdicts computes the verdict block: against the Go baselines, then
// against the serial programs; within each, the rows as a user writes them,
// then those that fork everywhere, then (against the Go baselines only) the
// latency and waiting rows; within each, P ascending.
func verdicts(r *Results) []Verdict {
	var names []string
	var ps []int
	for _, c := range r.Configs {
		if !slices.Contains(names, c.Bench) {
			names = append(names, c.Bench)
		}
		if c.Variant == variantGofork && !slices.Contains(ps, c.P) {
			ps = append(ps, c.P)
		}
	}
	slices.Sort(ps)
	ok := func(c *Config) bool { return c != nil && c.Error == "" && c.MedianNS > 0 }
	out := []Verdict{} // results.json has "verdict": [] when there is none
	for _, against := range []string{againstBaseline, againstSerial} {
		for _, kind := range kinds {
			if against == againstSerial && kind == kindLatency {
				continue // no serial program to compare with
			}
			for _, p := range ps {
				v := Verdict{Against: against, Kind: kind, P: p, Ratios: map[string]float64{}}
				var baselines []string
				logSum := 0.0
				for _, name := range names {
					if r.kind(name) != kind {
						continue
					}
					g := r.find(name, variantGofork, p)
					other := r.serialFor(name, p)
					if against == againstBaseline {
						other = r.baselineFor(name, p)
					}
					if !ok(g) || !ok(other) {
						continue
					}
					x := ratio(other.MedianNS, g.MedianNS)
					v.Ratios[name] = x
					logSum += math.Log(x)
					if against == againstBaseline && !slices.Contains(baselines, r.info(name).Baseline) {
						baselines = append(baselines, r.info(name).Baseline)
					}
					if v.Slowest == "" || x < v.SlowestRatio {
						v.Slowest, v.SlowestRatio = name, x
					}
				}
				if len(v.Ratios) == 0 {
					continue
				}
				v.Benchmarks = len(v.Ratios)
				v.GeoMean = math.Exp(logSum / float64(v.Benchmarks))
				v.Line = verdictLine(v, baselines)
				out = append(out, v)
			}
		}
	}
	return out
}

// verdictLine words v as a sentence.
func verdictLine(v Verdict, baselines []string) string {
	than := "the serial programs"
	switch {
	case v.Against == againstSerial:
	case len(baselines) == 1:
		than = baselines[0]
	default: // the verdict table names each benchmark's
		than = "the Go baselines"
	}
	how := fmtTimes(v.GeoMean) + " faster"
	if v.GeoMean < 1 {
		how = fmtTimes(1/v.GeoMean) + " slower"
	}
	plural := "s"
	if v.Benchmarks == 1 {
		plural = ""
	}
	return fmt.Sprintf("at P=%d gofork is %s than %s over %d benchmark%s %s (geometric mean); slowest case: %s %s",
		v.P, how, than, v.Benchmarks, plural, kindVerdictPhrase[v.Kind], v.Slowest, fmtTimes(v.SlowestRatio))
}

// kindVerdictPhrase says in a verdict line which rows it counts.
var kindVerdictPhrase = map[string]string{
	kindAsWritten:      "as a user writes them",
	kindForkEverywhere: "forking everywhere",
	kindLatency:        "whose time is a latency or a wait",
}

// fmtTimes prints a ratio as "1.31x", or "66x" from 10 up.
func fmtTimes(x float64) string {
	if x >= 9.995 {
		return fmt.Sprintf("%.0fx", x)
	}
	return fmt.Sprintf("%.2fx", x)
}

// writeVerdict prints the verdict block: per comparison and kind of row a
// table of ratios, benchmark by P, then its verdict lines.
func writeVerdict(w io.Writer, r *Results) {
	if len(r.Verdict) == 0 {
		return
	}
	what := "median run time"
	if slices.ContainsFunc(r.Verdict, func(v Verdict) bool { return v.Kind == kindLatency }) {
		what = "median run time, or median latency for a row that measures one,"
	}
	fmt.Fprintf(w, "verdict: the other program's %s over gofork's (above 1x gofork is faster)\n", what)
	for i := 0; i < len(r.Verdict); {
		j := i
		for j < len(r.Verdict) && r.Verdict[j].Against == r.Verdict[i].Against && r.Verdict[j].Kind == r.Verdict[i].Kind {
			j++
		}
		block := r.Verdict[i:j]
		i = j
		against := "the Go baseline"
		if block[0].Against == againstSerial {
			against = "the serial program"
		}
		fmt.Fprintf(w, "gofork vs %s, %s:\n", against, kindTitle[block[0].Kind])
		var names []string // the benchmarks counted at some P, in the order measured
		for _, c := range r.Configs {
			counted := slices.ContainsFunc(block, func(v Verdict) bool { _, ok := v.Ratios[c.Bench]; return ok })
			if counted && !slices.Contains(names, c.Bench) {
				names = append(names, c.Bench)
			}
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "\t")
		for _, v := range block {
			fmt.Fprintf(tw, "P=%d\t", v.P)
		}
		if block[0].Against == againstBaseline {
			fmt.Fprint(tw, "  Go baseline")
		}
		fmt.Fprintln(tw)
		for _, name := range names {
			fmt.Fprintf(tw, "%s\t", name)
			for _, v := range block {
				if x, ok := v.Ratios[name]; ok {
					fmt.Fprintf(tw, "%s\t", fmtTimes(x))
				} else {
					fmt.Fprint(tw, "-\t")
				}
			}
			if block[0].Against == againstBaseline {
				fmt.Fprint(tw, "  "+r.info(name).Baseline)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		for _, v := range block {
			fmt.Fprintf(w, "  %s\n", v.Line)
		}
	}
	fmt.Fprintln(w)
}
