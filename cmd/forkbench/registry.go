package main

import (
	"fmt"
	"slices"
	"strings"
)

// Suite names accepted by -suite.
const (
	suiteMain  = "main"  // the libfork benchmark suite plus sort, for and reduce
	suitePools = "pools" // gofork against hand-written thread pools (Zorro/Coros tests)
	suiteAll   = "all"   // both
)

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
}

// benchmark describes one entry of the suite.
type benchmark struct {
	name  string // as given to -bench
	suite string // suiteMain or suitePools
	order int    // listing order; lower first
	// about says in one line what the benchmark measures.
	about string
	// note, when set, is printed under the table: how to read this
	// benchmark's figures (e.g. a serial program that is another library).
	note string
	// size describes the problem size, full or -quick.
	size func(quick bool) string
	// variants lists what runs: variants[0] is variantSerial, variants[1]
	// is variantGofork, the rest are baselines.
	variants []string
	// baselineIsSerial is set when the Go baseline is the serial program
	// itself (slices.Sort): it is not run again, and the table compares
	// against the serial row.
	baselineIsSerial bool
	// serialPerP is set when the serial problem depends on P (the Zorro
	// imbalanced test makes every P-th task heavy), so Ts is measured per P.
	serialPerP bool
	// setup prepares a job; p is the worker count (1 for the serial variant
	// unless serialPerP).
	setup func(variant string, p int, quick bool) (*job, error)
}

var registry []*benchmark

// register adds b to the registry; each bench_*.go file calls it from init,
// so a benchmark whose package is missing simply has no file.
func register(b *benchmark) {
	if len(b.variants) < 2 || b.variants[0] != variantSerial || b.variants[1] != variantGofork {
		panic(fmt.Sprintf("forkbench: benchmark %q: variants must start with serial, gofork", b.name))
	}
	for _, o := range registry {
		if o.name == b.name {
			panic(fmt.Sprintf("forkbench: benchmark %q registered twice", b.name))
		}
	}
	registry = append(registry, b)
	slices.SortStableFunc(registry, func(x, y *benchmark) int { return x.order - y.order })
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
