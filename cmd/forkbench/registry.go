package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gofork/gofork/harness/kernels"
)

// Suites are named by the kernels that register in them: -suite accepts
// every suite some kernel names, plus suiteAll. suiteMain is the default.
const (
	suiteMain = kernels.SuiteMain
	suiteAll  = "all" // every registered benchmark
)

// Row kinds and variants: see package kernels.
const (
	kindAsWritten      = kernels.AsWritten
	kindForkEverywhere = kernels.ForkEverywhere
	kindLatency        = kernels.Latency

	variantSerial    = kernels.Serial
	variantGofork    = kernels.Gofork
	variantBaseline  = kernels.Baseline
	variantGlobal    = kernels.Global
	variantLocal     = kernels.Local
	variantGoroutine = kernels.Goroutine
)

// kinds lists the kinds of row in the order of the tables and the verdict.
var kinds = []string{kindAsWritten, kindForkEverywhere, kindLatency}

// kindTitle is the heading of a kind's table and verdict.
var kindTitle = map[string]string{
	kindAsWritten:      "as a user writes it",
	kindForkEverywhere: "fork everywhere",
	kindLatency:        "latency and waiting",
}

// A benchmark is a kernel of harness/kernels; a job one of its prepared
// configurations.
type (
	benchmark = kernels.Kernel
	job       = kernels.Job
)

func init() {
	for _, k := range kernels.All() {
		register(k)
	}
}

var registry []*benchmark

// register adds b to the registry. It panics on a benchmark that is not
// fully described.
func register(b *benchmark) {
	bad := func(format string, args ...any) {
		panic(fmt.Sprintf("forkbench: benchmark %q: ", b.Name) + fmt.Sprintf(format, args...))
	}
	if len(b.Variants) < 2 || b.Variants[0] != variantSerial || b.Variants[1] != variantGofork {
		bad("variants must start with serial, gofork")
	}
	if b.Suite == "" || b.Suite == suiteAll || strings.ContainsAny(b.Suite, ", ") {
		bad("suite %q is not a suite name", b.Suite)
	}
	if b.Kind == "" {
		b.Kind = kindAsWritten
	}
	if kindTitle[b.Kind] == "" {
		bad("kind %q: want one of %s", b.Kind, strings.Join(kinds, ", "))
	}
	if b.BaselineVariant == "" && slices.Contains(b.Variants, variantBaseline) {
		b.BaselineVariant = variantBaseline
	}
	if b.BaselineVariant != "" && !slices.Contains(b.Variants, b.BaselineVariant) {
		bad("baselineVariant %q is not one of its variants", b.BaselineVariant)
	}
	if b.BaselineVariant != "" && (b.Baseline == "" || b.Cutoff == "") {
		bad("a benchmark with a Go baseline must name it (baseline) and say where both sides stop forking (cutoff)")
	}
	for _, o := range registry {
		if o.Name == b.Name {
			bad("registered twice")
		}
	}
	registry = append(registry, b)
	slices.SortStableFunc(registry, func(x, y *benchmark) int { return x.Order - y.Order })
}

// suites lists the suite names the registered benchmarks use, in listing order.
func suites() []string {
	var names []string
	for _, b := range registry {
		if !slices.Contains(names, b.Suite) {
			names = append(names, b.Suite)
		}
	}
	return names
}

// lookup returns the registered benchmark called name, or nil.
func lookup(name string) *benchmark {
	for _, b := range registry {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// benchNames lists the registered names (in the suite, or all for suiteAll).
func benchNames(suite string) []string {
	var names []string
	for _, b := range registry {
		if suite == suiteAll || b.Suite == suite {
			names = append(names, b.Name)
		}
	}
	return names
}

// selectBenchmarks resolves a comma-separated -bench list (empty: the whole suite).
func selectBenchmarks(list, suite string) ([]*benchmark, error) {
	if strings.TrimSpace(list) == "" {
		if list = strings.Join(benchNames(suite), ","); list == "" {
			return nil, fmt.Errorf("suite %q has no benchmarks", suite)
		}
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
