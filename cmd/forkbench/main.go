package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gofork/gofork/harness/kernels"
)

// Exit statuses.
const (
	exitOK          = 0
	exitFailure     = 1 // a verification failure, a crashed child, or an I/O error
	exitUsage       = 2 // bad flags
	exitInterrupted = 130
)

func main() {
	if spec, ok := os.LookupEnv(childEnv); ok {
		os.Exit(childMain(spec, os.Stdout))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command without the process around it; it returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "forkbench: %s\n", strings.TrimPrefix(err.Error(), errUsage.Error()+": "))
		return exitUsage
	}
	if o.list {
		listBenchmarks(stdout)
		return exitOK
	}
	var plotOnly *Results
	if o.replot != "" {
		if plotOnly, err = readResults(o.replot); err != nil {
			fmt.Fprintf(stderr, "forkbench: -replot: %v\n", err)
			return exitUsage
		}
	}
	if o.outDir != "" {
		if err := ensureDir(o.outDir); err != nil {
			fmt.Fprintf(stderr, "forkbench: -out: %v\n", err)
			return exitUsage
		}
	}
	if o.workspan {
		return runWorkSpan(o, stdout, stderr)
	}
	if plotOnly != nil {
		files, err := writePlots(o.outDir, plotOnly)
		if err != nil {
			fmt.Fprintf(stderr, "forkbench: -replot: %v\n", err)
			return exitFailure
		}
		if !o.quiet {
			fmt.Fprintf(stderr, "forkbench: wrote %s\n", strings.Join(files, ", "))
		}
		return exitOK
	}

	// First Ctrl-C: finish the current run, then write what was measured.
	// Second Ctrl-C: exit at once.
	interrupt := make(chan struct{})
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	defer func() {
		signal.Stop(sig)
		close(quit)
	}()
	pl := newProgress(stderr, o.quiet)
	go func() {
		n := 0
		for {
			select {
			case <-sig:
			case <-quit:
				return
			}
			n++
			if n == 1 {
				close(interrupt)
				pl.message("forkbench: interrupted; stopping after the current run (Ctrl-C again to quit now)")
			} else {
				os.Exit(exitInterrupted)
			}
		}
	}()

	ps := workerCounts(o.maxWorkers)
	res := &Results{
		Schema:  resultsSchema,
		Machine: describeMachine(),
		Settings: Settings{Suite: o.suite, MaxWorkers: o.maxWorkers, Workers: ps,
			Runs: o.runs, Quick: o.quick, Baseline: o.baseline},
		Started:    time.Now().UTC(),
		Benchmarks: []BenchInfo{},
		Configs:    []Config{},
		Fits:       []Fit{},
		Verdict:    []Verdict{},
		Failures:   []string{},
	}
	for _, b := range o.benchmarks {
		res.Settings.Benchmarks = append(res.Settings.Benchmarks, b.Name)
		res.Benchmarks = append(res.Benchmarks, benchInfo(b, o.quick))
	}
	if la := res.Machine.LoadAvg; la > 0.5*float64(res.Machine.Cores) && !o.quiet {
		pl.message("forkbench: warning: load average %.1f on %d cores: other processes compete for the CPUs, timings will be noisy",
			la, res.Machine.Cores)
	}
	execute(o, res, ps, interrupt, pl)
	pl.clear()
	res.ElapsedSec = time.Since(res.Started).Seconds()
	fitAll(res)
	res.Verdict = verdicts(res)

	m := res.Machine
	load := ""
	if m.LoadAvg >= 0 {
		load = fmt.Sprintf(", load avg %.1f at start", m.LoadAvg)
	}
	fmt.Fprintf(stdout, "forkbench: %s, %s, GOMAXPROCS %d, %s %s/%s, commit %.12s%s%s\nmedian of %d timed runs after a warm-up%s\n\n",
		m.CPU, cpuLine(m), m.GOMAXPROCS, m.GoVersion, m.GOOS, m.GOARCH, m.Commit, dirtyMark(m.Dirty), load,
		o.runs, map[bool]string{true: ", -quick sizes", false: ""}[o.quick])
	writeTables(stdout, res)
	writeVerdict(stdout, res)
	status := exitOK
	if o.outDir != "" {
		if err := writeOutputs(o.outDir, res); err != nil {
			fmt.Fprintf(stderr, "forkbench: -out: %v\n", err)
			status = exitFailure
		} else if !o.quiet {
			fmt.Fprintf(stderr, "forkbench: wrote results.json, results.csv and plots to %s\n", o.outDir)
		}
	}
	if len(res.Failures) > 0 {
		fmt.Fprintf(stderr, "\nforkbench: %d VERIFICATION FAILURE(S):\n", len(res.Failures))
		for _, f := range res.Failures {
			fmt.Fprintf(stderr, "  FAIL %s\n", f)
		}
		return exitFailure
	}
	if res.Interrupted {
		fmt.Fprintln(stderr, "forkbench: interrupted; results are partial")
		return exitInterrupted
	}
	return status
}

func dirtyMark(d bool) string {
	if d {
		return "+dirty"
	}
	return ""
}

// ensureDir creates dir if needed and checks that files can be written in
// it, so that an -out that cannot take the results fails before any run.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".forkbench-probe-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the probe's name says nothing to the user
		}
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// writeOutputs writes results.json, results.csv and the SVG plots into dir.
func writeOutputs(dir string, res *Results) error {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "results.csv"))
	if err != nil {
		return err
	}
	if err := writeCSV(f, res); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	_, err = writePlots(dir, res)
	return err
}

// listBenchmarks prints the registered benchmarks, suite by suite, with
// what they measure, their sizes, their Go baseline and cutoff.
func listBenchmarks(w io.Writer) {
	for _, suite := range suites() {
		def := ""
		if suite == suiteMain {
			def = " (the default)"
		}
		fmt.Fprintf(w, "-suite %s%s:\n", suite, def)
		for _, b := range registry {
			if b.Suite != suite {
				continue
			}
			base := "none"
			if b.BaselineVariant != "" {
				base = fmt.Sprintf("%s (variant %s)", b.Baseline, b.BaselineVariant)
			}
			cut := b.Cutoff
			if cut == "" {
				cut = "-"
			}
			fmt.Fprintf(w, "  %s, %s: %s\n", b.Name, kindTitle[b.Kind], b.About)
			fmt.Fprintf(w, "      size %s; -quick %s; variants %s\n", b.Size(kernels.Full), b.Size(kernels.Quick), strings.Join(b.Variants, ", "))
			fmt.Fprintf(w, "      Go baseline %s; cutoff, both sides: %s\n", base, cut)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "-suite all: every suite above")
}
