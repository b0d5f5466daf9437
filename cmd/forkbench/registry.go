package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gofork/gofork/core"
)

// Suites are named by the benchmarks that register in them: -suite accepts
// every suite some benchmark names, plus suiteAll. suiteMain is the default.
const (
	suiteMain = "main" // the libfork benchmark suite plus sort, for and reduce
	suiteAll  = "all"  // every registered benchmark
)

// Row kinds: how finely a benchmark's parallel programs split the work.
// gofork and the Go baseline always split it the same way (benchmark.cutoff).
const (
	// kindAsWritten: as a user writes it, serial below a cutoff that gives
	// leaves of ~10-100 µs, or a library call that chooses its own leaves.
	kindAsWritten = "as-written"
	// kindForkEverywhere: a fork at every call and no cutoff, libfork's
	// setting for measuring the runtime's overhead (T1/Ts), or a task per
	// item of no work (the pools suite's light test).
	kindForkEverywhere = "fork-everywhere"
	// kindLatency: the time is a latency a run observed (job.measured) or
	// mostly waiting (iterations that sleep), not CPU work, so there is no
	// speedup over a serial program: these rows are compared with their Go
	// baseline only, in a verdict of their own.
	kindLatency = "latency"
)

// kinds lists the kinds of row in the order of the tables and the verdict.
var kinds = []string{kindAsWritten, kindForkEverywhere, kindLatency}

// kindTitle is the heading of a kind's table and verdict.
var kindTitle = map[string]string{
	kindAsWritten:      "as a user writes it",
	kindForkEverywhere: "fork everywhere",
	kindLatency:        "latency and waiting",
}

// Variant names. Every benchmark has a serial reference and a gofork variant;
// the others are baselines.
const (
	variantSerial    = "serial"    // the plain serial program, Ts
	variantGofork    = "gofork"    // gofork on core.New(core.WithWorkers(P))
	variantBaseline  = "baseline"  // what a Go user would write instead
	variantGlobal    = "global"    // pools suite: one mutex-protected global queue
	variantLocal     = "local"     // pools suite: per-worker queues, round-robin, no stealing
	variantGoroutine = "goroutine" // pools suite: one goroutine per task
)

// job is one prepared configuration of a benchmark: a problem instance
// bound to a variant and a worker count.
type job struct {
	// reset prepares the next run (e.g. refills the input of a sort); untimed. Optional.
	reset func()
	// run is the timed work.
	run func()
	// verify checks the result of the last run against an oracle.
	verify func() error
	// close releases the pool and anything else the job holds. Optional.
	close func()
	// pool is the gofork variant's pool: -workspan measures run on it
	// (core.MeasureWorkSpan). Set by the main suite's benchmarks.
	pool *core.Pool
	// measured, when set, is what a run reports instead of its wall time:
	// a latency the run observed (the realworld suite's server rows report
	// the small requests' p99 this way). Optional.
	measured func() time.Duration
}

// benchmark describes one entry of the suite.
type benchmark struct {
	name  string // as given to -bench
	suite string // the -suite it belongs to: suiteMain, "pools", or a new name
	order int    // listing order; lower first
	// kind is kindAsWritten (the default when empty), kindForkEverywhere
	// or kindLatency.
	kind string
	// about says in one line what the benchmark measures.
	about string
	// note, when set, is printed under the table: how to read this
	// benchmark's figures (e.g. a serial program that is another library).
	note string
	// size describes the problem size, full or -quick.
	size func(quick bool) string
	// variants lists what runs: variants[0] is variantSerial, variants[1]
	// is variantGofork, the rest are baselines. A benchmark with more than
	// one baseline gets a table with a column per variant (the pools suite).
	variants []string
	// baselineVariant is the variant that is what a Go user writes instead
	// of gofork, which the table and the verdict compare gofork with:
	// variantBaseline when variants has it (the default), variantSerial
	// when the serial program is that baseline (slices.Sort) or, in a
	// kindLatency row, when the serial variant is no serial program but
	// the Go baseline itself (the server rows; -baseline=false skips it),
	// or one of several baselines (the pools suite's variantGoroutine).
	// Empty: none.
	baselineVariant string
	// baseline names the Go baseline in a few words ("goroutines+WaitGroup",
	// "gonum"); required when there is a baseline.
	baseline string
	// cutoff says where gofork and the Go baseline stop splitting the work
	// and run serially ("serial below n=20", "none: a fork at every call"),
	// the same for both, or, for a library call, how each side splits it.
	// Required when there is a baseline.
	cutoff string
	// serialPerP is set when the serial problem depends on P (the Zorro
	// imbalanced test makes every P-th task heavy), so Ts is measured per P.
	serialPerP bool
	// setup prepares a job; p is the worker count (1 for the serial variant
	// unless serialPerP).
	setup func(variant string, p int, quick bool) (*job, error)
}

var registry []*benchmark

// register adds b to the registry; each bench_*.go file calls it from init,
// so a benchmark whose package is missing simply has no file. It panics on
// a benchmark that is not fully described.
func register(b *benchmark) {
	bad := func(format string, args ...any) {
		panic(fmt.Sprintf("forkbench: benchmark %q: ", b.name) + fmt.Sprintf(format, args...))
	}
	if len(b.variants) < 2 || b.variants[0] != variantSerial || b.variants[1] != variantGofork {
		bad("variants must start with serial, gofork")
	}
	if b.suite == "" || b.suite == suiteAll || strings.ContainsAny(b.suite, ", ") {
		bad("suite %q is not a suite name", b.suite)
	}
	if b.kind == "" {
		b.kind = kindAsWritten
	}
	if kindTitle[b.kind] == "" {
		bad("kind %q: want one of %s", b.kind, strings.Join(kinds, ", "))
	}
	if b.baselineVariant == "" && slices.Contains(b.variants, variantBaseline) {
		b.baselineVariant = variantBaseline
	}
	if b.baselineVariant != "" && !slices.Contains(b.variants, b.baselineVariant) {
		bad("baselineVariant %q is not one of its variants", b.baselineVariant)
	}
	if b.baselineVariant != "" && (b.baseline == "" || b.cutoff == "") {
		bad("a benchmark with a Go baseline must name it (baseline) and say where both sides stop forking (cutoff)")
	}
	for _, o := range registry {
		if o.name == b.name {
			bad("registered twice")
		}
	}
	registry = append(registry, b)
	slices.SortStableFunc(registry, func(x, y *benchmark) int { return x.order - y.order })
}

// suites lists the suite names the registered benchmarks use, in listing order.
func suites() []string {
	var names []string
	for _, b := range registry {
		if !slices.Contains(names, b.suite) {
			names = append(names, b.suite)
		}
	}
	return names
}

// lookup returns the registered benchmark called name, or nil.
func lookup(name string) *benchmark {
	for _, b := range registry {
		if b.name == name {
			return b
		}
	}
	return nil
}

// benchNames lists the registered names (in the suite, or all for suiteAll).
func benchNames(suite string) []string {
	var names []string
	for _, b := range registry {
		if suite == suiteAll || b.suite == suite {
			names = append(names, b.name)
		}
	}
	return names
}

// selectBenchmarks resolves a comma-separated -bench list (empty: the whole suite).
func selectBenchmarks(list, suite string) ([]*benchmark, error) {
	if strings.TrimSpace(list) == "" {
		var out []*benchmark
		for _, b := range registry {
			if suite == suiteAll || b.suite == suite {
				out = append(out, b)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("suite %q has no benchmarks", suite)
		}
		return out, nil
	}
	var out []*benchmark
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		b := lookup(name)
		if b == nil {
			return nil, fmt.Errorf("unknown benchmark %q; valid: %s", name, strings.Join(benchNames(suiteAll), ", "))
		}
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-bench %q names no benchmark; valid: %s", list, strings.Join(benchNames(suiteAll), ", "))
	}
	return out, nil
}
