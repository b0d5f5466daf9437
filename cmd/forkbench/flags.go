package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
)

// options are the parsed and validated command-line flags.
type options struct {
	bench      string // -bench: comma-separated names; empty means the whole -suite
	suite      string // -suite: a registered suite (see suites) or all
	maxWorkers int    // -max-workers: largest P measured
	runs       int    // -runs: timed runs per configuration, after one warm-up
	quick      bool   // -quick: about 10% sizes
	quiet      bool   // -q: no progress line
	outDir     string // -out: directory for results.json, results.csv and plots
	replot     string // -replot: earlier results.json to draw the plots of, into outDir, running nothing
	baseline   bool   // -baseline: also run the Go baselines
	list       bool   // -list: print the benchmarks and exit
	forceFail  string // -x-fail: test hook, force a verification failure in this benchmark
	workspan   bool   // -workspan: print work/span profiles instead of timing the suite (workspan.go)

	benchmarks []*benchmark // resolved from bench and suite
}

// errUsage marks errors that exit with status 2.
var errUsage = errors.New("usage")

// hiddenFlags are left out of -help: they exist for the tests.
var hiddenFlags = map[string]bool{"x-fail": true}

// parseFlags parses and validates args (without the program name). Errors
// are one line, returned for the caller to print; only -h prints, the
// usage text, once, to stderr.
func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("forkbench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.bench, "bench", "", "comma-separated benchmarks to run (default: all of -suite); see -list")
	fs.StringVar(&o.suite, "suite", suiteMain, "benchmark set: "+strings.Join(suites(), ", ")+", or all; see -list")
	fs.IntVar(&o.maxWorkers, "max-workers", runtime.GOMAXPROCS(0), "largest worker count P; runs P = 1, 2, 4, ... up to it")
	fs.IntVar(&o.runs, "runs", 5, "timed runs per configuration, after one warm-up")
	fs.BoolVar(&o.quick, "quick", false, "scale every problem to about 10% (for CI)")
	fs.BoolVar(&o.quiet, "q", false, "no progress line on stderr")
	fs.StringVar(&o.outDir, "out", "", "write results.json, results.csv and SVG plots into `dir`")
	fs.StringVar(&o.replot, "replot", "", "run nothing: draw the SVG plots of an earlier results.json `file` into -out")
	fs.BoolVar(&o.baseline, "baseline", true, "also run the Go baselines (goroutines, gonum, slices.Sort, other pools)")
	fs.BoolVar(&o.list, "list", false, "list the benchmarks with their sizes and exit")
	fs.BoolVar(&o.workspan, "workspan", false, "print each benchmark's work, span, parallelism and predicted speedups\n(core.MeasureWorkSpan) instead of timing it; with -out, write workspan.csv")
	fs.StringVar(&o.forceFail, "x-fail", "", "testing hook: report a verification failure in this benchmark")
	fs.Usage = func() {} // Parse calls it on -h and on every bad flag; only -h prints the usage, below

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(fs, stderr)
			return nil, flag.ErrHelp
		}
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected argument %q (benchmarks go in -bench)", errUsage, fs.Arg(0))
	}
	if o.maxWorkers < 1 {
		return nil, fmt.Errorf("%w: -max-workers %d: need at least 1", errUsage, o.maxWorkers)
	}
	if o.runs < 1 {
		return nil, fmt.Errorf("%w: -runs %d: need at least 1", errUsage, o.runs)
	}
	if o.replot != "" && o.outDir == "" {
		return nil, fmt.Errorf("%w: -replot %s: need -out DIR for the plots", errUsage, o.replot)
	}
	if valid := append(suites(), suiteAll); !slices.Contains(valid, o.suite) {
		return nil, fmt.Errorf("%w: -suite %q: valid: %s", errUsage, o.suite, strings.Join(valid, ", "))
	}
	var err error
	if o.benchmarks, err = selectBenchmarks(o.bench, o.suite); err != nil {
		return nil, fmt.Errorf("%w: -bench: %v", errUsage, err)
	}
	if o.forceFail != "" && lookup(o.forceFail) == nil {
		return nil, fmt.Errorf("%w: -x-fail: unknown benchmark %q", errUsage, o.forceFail)
	}
	return o, nil
}

func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "usage: forkbench [flags]\n\n"+
		"Runs gofork's benchmark suite at P = 1, 2, 4, ... workers against the serial\n"+
		"program and the Go baseline, and prints a table (see -out for JSON, CSV, plots).\n\n")
	fs.VisitAll(func(f *flag.Flag) {
		if hiddenFlags[f.Name] {
			return
		}
		name, use := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  -%s", f.Name)
		if name != "" {
			fmt.Fprintf(w, " %s", name)
		}
		fmt.Fprintf(w, "\n    \t%s", strings.ReplaceAll(use, "\n", "\n    \t"))
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
	for _, s := range suites() {
		fmt.Fprintf(w, "\nsuite %s: %s", s, strings.Join(benchNames(s), ", "))
	}
	fmt.Fprintln(w)
}
