package main

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// verdictRE parses a verdict line; its groups are P, the ratio, faster or
// slower, what gofork is compared with, the benchmark count, the kind of
// rows, the slowest case and its ratio.
var verdictRE = regexp.MustCompile(`^at P=(\d+) gofork is (\d+(?:\.\d+)?)x (faster|slower) than (.+) over (\d+) benchmarks? ` +
	`(as a user writes them|forking everywhere|whose time is a latency or a wait) \(geometric mean\); slowest case: (\S+) (\d+(?:\.\d+)?)x$`)

// checkVerdict checks that v's line parses and agrees with its fields, and
// that its fields agree with its ratios.
func checkVerdict(t *testing.T, v Verdict) {
	t.Helper()
	m := verdictRE.FindStringSubmatch(v.Line)
	if m == nil {
		t.Errorf("verdict line does not parse: %q", v.Line)
		return
	}
	p, _ := strconv.Atoi(m[1])
	x := v.GeoMean
	if m[3] == "slower" {
		x = 1 / x
	}
	k, _ := strconv.Atoi(m[5])
	if p != v.P || k != v.Benchmarks || k != len(v.Ratios) || m[2]+"x" != fmtTimes(x) || (x < 1) ||
		m[7] != v.Slowest || m[8]+"x" != fmtTimes(v.SlowestRatio) {
		t.Errorf("line %q disagrees with %+v", v.Line, v)
	}
	logSum, least := 0.0, math.Inf(1)
	for _, r := range v.Ratios {
		logSum += math.Log(r)
		least = min(least, r)
	}
	if g := math.Exp(logSum / float64(len(v.Ratios))); math.Abs(g/v.GeoMean-1) > 1e-9 || v.SlowestRatio != least || v.Ratios[v.Slowest] != least {
		t.Errorf("%+v: geometric mean of the ratios is %v, the least %v", v, g, least)
	}
}

// verdictResults has four benchmarks: a and b as a user writes them (b's
// baseline is its serial program), c forking everywhere, d without a
// baseline; a's baseline failed at P=2.
func verdictResults() *Results {
	r := &Results{Schema: resultsSchema, Benchmarks: []BenchInfo{
		{Name: "a", Suite: "s", Kind: kindAsWritten, Variants: []string{variantSerial, variantGofork, variantBaseline},
			BaselineVariant: variantBaseline, Baseline: "goroutines", Cutoff: "serial below 3"},
		{Name: "b", Suite: "s", Kind: kindAsWritten, Variants: []string{variantSerial, variantGofork},
			BaselineVariant: variantSerial, Baseline: "slices.Sort", Cutoff: "its own"},
		{Name: "c", Suite: "s", Kind: kindForkEverywhere, Variants: []string{variantSerial, variantGofork, variantBaseline},
			BaselineVariant: variantBaseline, Baseline: "goroutines", Cutoff: "none"},
		{Name: "d", Suite: "s", Kind: kindAsWritten, Variants: []string{variantSerial, variantGofork}},
	}}
	add := func(bench, variant string, p int, ns int64) {
		r.Configs = append(r.Configs, Config{Bench: bench, Suite: "s", Variant: variant, P: p, MedianNS: ns, RunsNS: []int64{ns}, Verified: true})
	}
	add("a", variantSerial, 1, 100)
	add("a", variantGofork, 1, 100)
	add("a", variantBaseline, 1, 200)
	add("a", variantGofork, 2, 50)
	add("a", variantBaseline, 2, 100)
	r.Configs[len(r.Configs)-1].Error = "wrong"
	add("b", variantSerial, 1, 400)
	add("b", variantGofork, 1, 100)
	add("b", variantGofork, 2, 50)
	add("c", variantSerial, 1, 100)
	add("c", variantGofork, 1, 300)
	add("c", variantBaseline, 1, 3000)
	add("c", variantGofork, 2, 150)
	add("c", variantBaseline, 2, 1500)
	add("d", variantSerial, 1, 100)
	add("d", variantGofork, 1, 200)
	add("d", variantGofork, 2, 100)
	return r
}

func TestVerdict(t *testing.T) {
	r := verdictResults()
	r.Verdict = verdicts(r)
	type want struct {
		against, kind string
		p             int
		ratios        map[string]float64
		slowest       string
		line          string
	}
	wants := []want{
		{againstBaseline, kindAsWritten, 1, map[string]float64{"a": 2, "b": 4}, "a",
			"at P=1 gofork is 2.83x faster than the Go baselines over 2 benchmarks as a user writes them (geometric mean); slowest case: a 2.00x"},
		{againstBaseline, kindAsWritten, 2, map[string]float64{"b": 8}, "b",
			"at P=2 gofork is 8.00x faster than slices.Sort over 1 benchmark as a user writes them (geometric mean); slowest case: b 8.00x"},
		{againstBaseline, kindForkEverywhere, 1, map[string]float64{"c": 10}, "c",
			"at P=1 gofork is 10x faster than goroutines over 1 benchmark forking everywhere (geometric mean); slowest case: c 10x"},
		{againstBaseline, kindForkEverywhere, 2, map[string]float64{"c": 10}, "c", ""},
		{againstSerial, kindAsWritten, 1, map[string]float64{"a": 1, "b": 4, "d": 0.5}, "d",
			"at P=1 gofork is 1.26x faster than the serial programs over 3 benchmarks as a user writes them (geometric mean); slowest case: d 0.50x"},
		{againstSerial, kindAsWritten, 2, map[string]float64{"a": 2, "b": 8, "d": 1}, "d", ""},
		{againstSerial, kindForkEverywhere, 1, map[string]float64{"c": 1.0 / 3}, "c",
			"at P=1 gofork is 3.00x slower than the serial programs over 1 benchmark forking everywhere (geometric mean); slowest case: c 0.33x"},
		{againstSerial, kindForkEverywhere, 2, map[string]float64{"c": 2.0 / 3}, "c", ""},
	}
	if len(r.Verdict) != len(wants) {
		t.Fatalf("got %d verdicts, want %d: %+v", len(r.Verdict), len(wants), r.Verdict)
	}
	for i, w := range wants {
		v := r.Verdict[i]
		checkVerdict(t, v)
		if v.Against != w.against || v.Kind != w.kind || v.P != w.p || v.Slowest != w.slowest || len(v.Ratios) != len(w.ratios) {
			t.Errorf("verdict %d = %+v, want %+v", i, v, w)
		}
		for name, x := range w.ratios {
			if math.Abs(v.Ratios[name]-x) > 1e-12 {
				t.Errorf("verdict %d: %s ratio %v, want %v", i, name, v.Ratios[name], x)
			}
		}
		if w.line != "" && v.Line != w.line {
			t.Errorf("verdict %d line\n got %q\nwant %q", i, v.Line, w.line)
		}
	}
	var out bytes.Buffer
	writeVerdict(&out, r)
	for _, v := range r.Verdict {
		if !strings.Contains(out.String(), "  "+v.Line+"\n") {
			t.Errorf("verdict block lacks %q:\n%s", v.Line, out.String())
		}
	}
	for _, want := range []string{"gofork vs the Go baseline, as a user writes it:", "gofork vs the serial program, fork everywhere:",
		"a  2.00x      -  goroutines"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("verdict block lacks %q:\n%s", want, out.String())
		}
	}
}

// TestVerdictLatencyRows builds results from the registered rows whose time
// is a latency or a wait (server-p50, whose serial variant is its Go
// baseline, and blocking), the pools suite's empty tasks (light) and a row
// as a user writes it (fib-cutoff), gofork 2x faster than every other
// program. The verdicts against the serial programs, and the as-written
// ones, count fib-cutoff only; the latency rows get a verdict of their own
// against their Go baselines; light counts among the fork-everywhere rows.
func TestVerdictLatencyRows(t *testing.T) {
	r := &Results{Schema: resultsSchema}
	for _, name := range []string{"fib-cutoff", "light", "blocking", "server-p50"} {
		b := lookup(name)
		r.Benchmarks = append(r.Benchmarks, benchInfo(b, true))
		for _, v := range b.Variants {
			for _, p := range []int{1, 2} {
				if v == variantSerial && p == 2 {
					continue
				}
				ns := int64(200)
				if v == variantGofork {
					ns = 100
				}
				r.Configs = append(r.Configs, Config{Bench: name, Suite: b.Suite, Variant: v, P: p, MedianNS: ns, RunsNS: []int64{ns}, Verified: true})
			}
		}
	}
	r.Verdict = verdicts(r)
	got := map[string][]string{}
	for _, v := range r.Verdict {
		checkVerdict(t, v)
		key := v.Against + "/" + v.Kind + "/" + strconv.Itoa(v.P)
		for name := range v.Ratios {
			got[key] = append(got[key], name)
		}
		slices.Sort(got[key])
	}
	want := map[string][]string{}
	for _, p := range []string{"1", "2"} {
		want["baseline/as-written/"+p] = []string{"fib-cutoff"}
		want["baseline/fork-everywhere/"+p] = []string{"light"}
		want["baseline/latency/"+p] = []string{"blocking", "server-p50"}
		want["serial/as-written/"+p] = []string{"fib-cutoff"}
		want["serial/fork-everywhere/"+p] = []string{"light"}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("verdicts count\n%v\nwant\n%v", got, want)
	}
	var out bytes.Buffer
	writeVerdict(&out, r)
	for _, line := range []string{
		"verdict: the other program's median run time, or median latency for a row that measures one, over gofork's (above 1x gofork is faster)",
		"gofork vs the Go baseline, latency and waiting:",
		"at P=2 gofork is 2.00x faster than the Go baselines over 2 benchmarks whose time is a latency or a wait (geometric mean); slowest case: ",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("verdict block lacks %q:\n%s", line, out.String())
		}
	}
	if strings.Contains(out.String(), "gofork vs the serial program, latency") {
		t.Errorf("latency rows compared with a serial program:\n%s", out.String())
	}
	// Without latency rows the header speaks of run times only.
	out.Reset()
	r.Verdict = slices.DeleteFunc(r.Verdict, func(v Verdict) bool { return v.Kind == kindLatency })
	writeVerdict(&out, r)
	if !strings.HasPrefix(out.String(), "verdict: the other program's median run time over gofork's (above 1x gofork is faster)\n") {
		t.Errorf("verdict header:\n%s", out.String())
	}
}

// TestNoVerdictIsEmptyList checks that results.json says "verdict": [],
// not null, when no verdict can be formed (no gofork run finished).
func TestNoVerdictIsEmptyList(t *testing.T) {
	r := &Results{Configs: []Config{{Bench: "fib", Variant: variantSerial, P: 1, MedianNS: 100}}}
	r.Verdict = verdicts(r)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"verdict":[]`) {
		t.Errorf("results.json: %s", b)
	}
}
