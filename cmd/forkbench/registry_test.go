package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/gofork/gofork/harness/kernels"
)

// TestBaselinesDeclareCutoff checks that every benchmark with a Go baseline
// names it and says where gofork and the baseline stop forking, and that
// the baseline is one of the variants that run.
func TestBaselinesDeclareCutoff(t *testing.T) {
	for _, b := range registry {
		if b.BaselineVariant == "" {
			if slices.Contains(b.Variants, variantBaseline) {
				t.Errorf("%s: runs a baseline but declares no baselineVariant", b.Name)
			}
			continue
		}
		if b.Baseline == "" || b.Cutoff == "" {
			t.Errorf("%s: baseline %q, cutoff %q: a benchmark with a Go baseline declares both", b.Name, b.Baseline, b.Cutoff)
		}
		if !slices.Contains(b.Variants, b.BaselineVariant) {
			t.Errorf("%s: baseline variant %q is not among %v", b.Name, b.BaselineVariant, b.Variants)
		}
		if b.Kind == kindForkEverywhere && !strings.HasPrefix(b.Cutoff, "none") {
			t.Errorf("%s forks everywhere but its cutoff says %q", b.Name, b.Cutoff)
		}
	}
}

// noCutoffTwin lists the benchmarks that fork everywhere by definition and
// so have no -cutoff twin, with the row that answers the user's question.
var noCutoffTwin = map[string]string{
	"light":       "computation", // Zorro's light test is empty tasks; computation gives each task work
	"group-empty": "group",       // empty tasks measure the group's cost; group gives each task ~1 µs
}

// TestForkEverywhereHasCutoffTwin checks that every benchmark that forks
// everywhere has a twin as a user writes it, <name>-cutoff, on the same
// problem, so the table answers the user's question for it too.
func TestForkEverywhereHasCutoffTwin(t *testing.T) {
	n := 0
	for _, b := range registry {
		if b.Kind != kindForkEverywhere {
			continue
		}
		if other, ok := noCutoffTwin[b.Name]; ok {
			if o := lookup(other); o == nil || o.Kind != kindAsWritten || o.Suite != b.Suite {
				t.Errorf("%s: %s is not a row as a user writes it in suite %s", b.Name, other, b.Suite)
			}
			continue
		}
		n++
		twin := lookup(b.Name + "-cutoff")
		if twin == nil || twin.Kind != kindAsWritten {
			t.Errorf("%s forks everywhere but has no %s-cutoff row as a user writes it", b.Name, b.Name)
			continue
		}
		for _, q := range []kernels.Scale{kernels.Full, kernels.Quick} {
			if b.Size(q) != twin.Size(q) {
				t.Errorf("%s is %s but %s is %s (quick %v)", b.Name, b.Size(q), twin.Name, twin.Size(q), q)
			}
		}
	}
	if n < 3 {
		t.Errorf("%d benchmarks fork everywhere; want fib, integrate and nqueens at least", n)
	}
}

// TestRegisterRejects checks that register refuses benchmarks that are not
// fully described, before any of them reaches the registry.
func TestRegisterRejects(t *testing.T) {
	setup := func(string, int, kernels.Scale) (*job, error) { return nil, nil }
	size := func(kernels.Scale) string { return "n=1" }
	v := []string{variantSerial, variantGofork, variantBaseline}
	for _, tt := range []struct {
		b    benchmark
		want string
	}{
		{benchmark{Name: "x", Suite: "s", Variants: v, Baseline: "goroutines"}, "cutoff"},
		{benchmark{Name: "x", Suite: "s", Variants: v, Cutoff: "none"}, "must name it"},
		{benchmark{Name: "x", Suite: "s", Variants: v[:2], BaselineVariant: variantBaseline, Baseline: "g", Cutoff: "c"}, "not one of its variants"},
		{benchmark{Name: "x", Suite: "s", Variants: v[:2], Kind: "sometimes"}, `kind "sometimes"`},
		{benchmark{Name: "x", Suite: suiteAll, Variants: v[:2]}, "not a suite name"},
		{benchmark{Name: "x", Suite: "a,b", Variants: v[:2]}, "not a suite name"},
		{benchmark{Name: "x", Suite: "s", Variants: []string{variantGofork}}, "variants must start"},
		{benchmark{Name: "fib", Suite: "s", Variants: v[:2]}, "registered twice"},
	} {
		b := tt.b
		b.Size, b.Setup = size, setup
		got := func() (msg string) {
			defer func() {
				if r := recover(); r != nil {
					msg, _ = r.(string)
				}
			}()
			register(&b)
			return ""
		}()
		if !strings.Contains(got, tt.want) {
			t.Errorf("register(%+v) panicked with %q, want %q", tt.b, got, tt.want)
		}
		if lookup("x") != nil {
			t.Fatalf("register left a rejected benchmark in the registry")
		}
	}
}

// TestNewSuiteNeedsNoOtherEdit registers a benchmark in a suite of its own,
// as a new bench_*.go file would, and checks that -suite accepts it, that
// -suite all and -list include it, and that the help lists it.
func TestNewSuiteNeedsNoOtherEdit(t *testing.T) {
	saved := slices.Clone(registry)
	defer func() { registry = saved }()
	register(&benchmark{
		Name: "zz-new", Suite: "zzsuite", Order: 1000,
		About:    "a test benchmark",
		Size:     func(kernels.Scale) string { return "n=7" },
		Variants: []string{variantSerial, variantGofork, variantBaseline},
		Baseline: "goroutines+WaitGroup", Cutoff: "serial below n=3",
		Setup: func(string, int, kernels.Scale) (*job, error) {
			return &job{Run: func() {}, Verify: func() error { return nil }}, nil
		},
	})
	if !slices.Contains(suites(), "zzsuite") {
		t.Fatalf("suites() = %v, lacks the new suite", suites())
	}
	o, err := parseFlags([]string{"-suite", "zzsuite"}, &bytes.Buffer{})
	if err != nil || len(o.benchmarks) != 1 || o.benchmarks[0].Name != "zz-new" {
		t.Fatalf("-suite zzsuite: %v, %+v", err, o)
	}
	if o, err := parseFlags([]string{"-suite", "all"}, &bytes.Buffer{}); err != nil || !slices.Contains(o.benchmarks, lookup("zz-new")) {
		t.Errorf("-suite all does not include the new suite: %v", err)
	}
	var list bytes.Buffer
	listBenchmarks(&list)
	for _, want := range []string{"-suite zzsuite:", "zz-new", "serial below n=3", "goroutines+WaitGroup"} {
		if !strings.Contains(list.String(), want) {
			t.Errorf("-list lacks %q:\n%s", want, list.String())
		}
	}
	var help bytes.Buffer
	parseFlags([]string{"-h"}, &help)
	if !strings.Contains(help.String(), "suite zzsuite: zz-new") {
		t.Errorf("help does not list the new suite:\n%s", help.String())
	}
}

// TestRowKinds checks the rows that are not the user's question about CPU
// work: the rows whose time is a latency or a wait have no serial program
// to speed up, and the pools suite's empty tasks are a fork per item.
func TestRowKinds(t *testing.T) {
	for name, want := range map[string]string{
		"server-p50":     kindLatency,
		"server-p99":     kindLatency,
		"server-seq-p50": kindLatency,
		"server-seq-p99": kindLatency,
		"blocking":       kindLatency,
		"light":          kindForkEverywhere,
		"group":          kindAsWritten,
		"fib-cutoff":     kindAsWritten,
	} {
		if b := lookup(name); b == nil || b.Kind != want {
			t.Errorf("%s: kind %v, want %s", name, b, want)
		}
	}
}

// TestSuitesAreContiguous checks that the listing order keeps each suite's
// benchmarks together, so -list, -suite all and the tables read suite by suite.
func TestSuitesAreContiguous(t *testing.T) {
	done := map[string]bool{}
	for i, b := range registry {
		if i > 0 && registry[i-1].Suite != b.Suite {
			if done[b.Suite] {
				t.Errorf("%s (order %d) comes after suite %s, apart from the rest of suite %s", b.Name, b.Order, registry[i-1].Suite, b.Suite)
			}
			done[registry[i-1].Suite] = true
		}
	}
}

// TestNotesNameBenchmarkOnce checks that a note printed under a table
// ("name: note") does not repeat the benchmark's name.
func TestNotesNameBenchmarkOnce(t *testing.T) {
	var names []string
	for _, b := range registry {
		if b.Note != "" {
			names = append(names, b.Name)
		}
	}
	var out bytes.Buffer
	writeBenchNotes(&out, &Results{}, names)
	for _, name := range names {
		if !strings.Contains(out.String(), "\n"+name+": ") || strings.Contains(out.String(), name+": "+name+":") {
			t.Errorf("note of %s not printed once under its name:\n%s", name, out.String())
		}
	}
}

// TestPlanWithoutBaselines checks that -baseline=false runs no baseline:
// not the baseline variants, and not a latency row's serial variant when
// that is its Go baseline; a serial program that is also a baseline
// (slices.Sort for sort) still runs, for the speedup.
func TestPlanWithoutBaselines(t *testing.T) {
	o := &options{baseline: false}
	for _, name := range []string{"sort", "server-p50", "blocking", "light"} {
		o.benchmarks = append(o.benchmarks, lookup(name))
	}
	got := map[string]bool{}
	for _, c := range plan(o, []int{1, 2}) {
		got[c.b.Name+"/"+c.variant] = true
		if c.variant != variantSerial && c.variant != variantGofork {
			t.Errorf("-baseline=false plans %s %s P=%d", c.b.Name, c.variant, c.p)
		}
	}
	for key, want := range map[string]bool{
		"sort/serial": true, "server-p50/serial": false, "blocking/serial": true, "light/serial": true,
		"server-p50/gofork": true,
	} {
		if got[key] != want {
			t.Errorf("-baseline=false: %s planned %v, want %v", key, got[key], want)
		}
	}
}
