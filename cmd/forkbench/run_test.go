package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// quickArgs are the arguments of the end-to-end runs: -quick sizes, P = 1, 2.
// Under the race detector (~10x slower) the Go baselines, which start a
// goroutine per task, are left out.
func quickArgs(extra ...string) []string {
	args := []string{"-quick", "-runs", "1", "-max-workers", "2", "-q"}
	if raceEnabled {
		args = append(args, "-baseline=false")
	}
	return append(args, extra...)
}

// TestQuickEndToEnd runs every registered benchmark at -quick sizes and
// P = 1, 2 through child processes and checks the table and every output file.
func TestQuickEndToEnd(t *testing.T) {
	benches := benchNames(suiteAll)
	if raceEnabled {
		benches = []string{"fib", "nqueens", "computation", "mergesort"}
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := quickArgs("-bench", strings.Join(benches, ","), "-out", dir)
	if got := run(args, &out, &errb); got != exitOK {
		t.Fatalf("run(%q) = %d\nstdout:\n%s\nstderr:\n%s", args, got, out.String(), errb.String())
	}
	res, err := readResults(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range benches {
		b := lookup(name)
		for i, v := range b.Variants {
			if raceEnabled && i >= 2 {
				continue // no baselines under -race
			}
			for _, p := range []int{1, 2} {
				if v == variantSerial && p == 2 && !b.SerialPerP {
					continue
				}
				c := res.find(name, v, p)
				if c == nil {
					t.Errorf("%s/%s P=%d: not in results.json", name, v, p)
					continue
				}
				if !c.Verified || c.Error != "" || len(c.RunsNS) != 1 || c.MedianNS <= 0 {
					t.Errorf("%s/%s P=%d: %+v", name, v, p, *c)
				}
				if c.PeakRSS <= 0 {
					t.Errorf("%s/%s P=%d: no peak RSS", name, v, p)
				}
			}
		}
		if !strings.Contains(out.String(), name) {
			t.Errorf("table lacks %s:\n%s", name, out.String())
		}
	}
	if res.Machine.Cores < 1 || res.Machine.GoVersion == "" || res.Machine.CPU == "" ||
		res.Machine.OnlineCPUs < 1 || res.Machine.PhysicalCores < 1 || res.Machine.PhysicalCores > res.Machine.OnlineCPUs {
		t.Errorf("machine description incomplete: %+v", res.Machine)
	}
	if smt := map[bool]string{true: "SMT siblings", false: "no SMT siblings"}[res.Machine.SMT]; !strings.Contains(out.String(), smt) {
		t.Errorf("machine line does not say %q:\n%s", smt, out.String())
	}
	// Every benchmark with a Go baseline prints the cutoff both sides use.
	for _, bi := range res.Benchmarks {
		if bi.BaselineVariant != "" && !strings.Contains(out.String(), bi.Cutoff) {
			t.Errorf("table does not print %s's cutoff %q", bi.Name, bi.Cutoff)
		}
	}
	// The verdict is printed and in results.json, against the serial
	// programs at each P and, with the baselines run, against them too.
	seen := map[string]bool{}
	for _, v := range res.Verdict {
		checkVerdict(t, v)
		if !strings.Contains(out.String(), "  "+v.Line+"\n") {
			t.Errorf("verdict line not printed: %q", v.Line)
		}
		seen[fmt.Sprintf("%s/%s/%d", v.Against, v.Kind, v.P)] = true
	}
	for _, want := range []string{"serial/as-written/1", "serial/as-written/2", "serial/fork-everywhere/2"} {
		if !seen[want] {
			t.Errorf("no verdict %s in results.json: %+v", want, res.Verdict)
		}
	}
	if !raceEnabled && !seen["baseline/as-written/2"] {
		t.Errorf("no verdict against the Go baselines at P=2: %+v", res.Verdict)
	}
	wantFiles := []string{"results.json", "results.csv"}
	for _, name := range benches {
		if s := lookup(name).Suite; s == "pools" {
			wantFiles = append(wantFiles, "speedup-"+s+".svg")
		} else {
			wantFiles = append(wantFiles, "speedup-"+s+".svg", "rss-"+s+".svg")
		}
	}
	for _, f := range wantFiles {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v (%d bytes)", f, err, len(b))
		}
		if strings.HasSuffix(f, ".svg") && !bytes.Contains(b, []byte("<svg")) {
			t.Errorf("%s is not an SVG", f)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "results.csv"))
	if got, want := strings.Count(string(csv), "\n"), len(res.Configs)+1; got != want {
		t.Errorf("results.csv has %d lines, want %d", got, want)
	}
}

// TestForcedVerificationFailureExits1 checks that a wrong result is loud and fails the command.
func TestForcedVerificationFailureExits1(t *testing.T) {
	var out, errb bytes.Buffer
	args := quickArgs("-bench", "fib", "-max-workers", "1", "-x-fail", "fib")
	if got := run(args, &out, &errb); got != exitFailure {
		t.Fatalf("run(%q) = %d, want %d\nstderr:\n%s", args, got, exitFailure, errb.String())
	}
	if !strings.Contains(errb.String(), "VERIFICATION FAILED: fib gofork P=1") {
		t.Errorf("stderr does not report the failure:\n%s", errb.String())
	}
	if !strings.Contains(out.String(), "FAIL") {
		t.Errorf("table does not mark the failure:\n%s", out.String())
	}
}

func sampleResults() *Results {
	return &Results{
		Schema:  resultsSchema,
		Machine: Machine{CPU: "Test CPU", Cores: 2, GOMAXPROCS: 2, GOOS: "linux", GOARCH: "amd64", GoVersion: "go1.26", Commit: "abc123", Dirty: true, Hostname: "h", LoadAvg: 0.25},
		Settings: Settings{Suite: suiteMain, Benchmarks: []string{"fib"}, MaxWorkers: 2, Workers: []int{1, 2},
			Runs: 3, Quick: true, Baseline: true},
		Started:     time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC),
		ElapsedSec:  1.5,
		Interrupted: true,
		Configs: []Config{
			{Bench: "fib", Suite: suiteMain, Size: "n=25", Variant: variantSerial, P: 1, WarmupNS: 9, RunsNS: []int64{100, 110, 90},
				MedianNS: 100, MinNS: 90, MaxNS: 110, PeakRSS: 8 << 20, Verified: true},
			{Bench: "fib", Suite: suiteMain, Size: "n=25", Variant: variantGofork, P: 2, WarmupNS: 9, RunsNS: []int64{60, 50, 70},
				MedianNS: 60, MinNS: 50, MaxNS: 70, PeakRSS: 9 << 20, Error: "fib(25) = 1, want 75025"},
		},
		Fits: []Fit{{Bench: "fib", Variant: variantGofork, A: 8 << 20, B: 1 << 20, N: 0.5, Points: 2}},
		Benchmarks: []BenchInfo{{Name: "fib", Suite: suiteMain, Kind: kindForkEverywhere, Size: "n=25",
			Variants: []string{variantSerial, variantGofork, variantBaseline}, BaselineVariant: variantBaseline,
			Baseline: "goroutines+WaitGroup", Cutoff: "none: a fork at every call"}},
		Verdict: []Verdict{{Against: againstSerial, Kind: kindForkEverywhere, P: 2, Ratios: map[string]float64{"fib": 0.5},
			Benchmarks: 1, GeoMean: 0.5, Slowest: "fib", SlowestRatio: 0.5,
			Line: "at P=2 gofork is 2.00x slower than the serial programs over 1 benchmark forking everywhere (geometric mean); slowest case: fib 0.50x"}},
		Failures: []string{"fib gofork P=2: fib(25) = 1, want 75025"},
	}
}

// TestJSONRoundTrip checks results.json reads back to the same value, that
// every field has a JSON name, and that the top-level schema is stable.
func TestJSONRoundTrip(t *testing.T) {
	want := sampleResults()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "results.csv"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "results.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readResults(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip changed the results:\n got %+v\nwant %+v", got, want)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&Results{}); err != nil {
		t.Errorf("strict decode: %v", err)
	}
	var top map[string]json.RawMessage
	json.Unmarshal(b, &top)
	for _, k := range []string{"schema", "machine", "settings", "started", "elapsed_sec", "interrupted",
		"benchmarks", "configs", "fits", "verdict", "failures"} {
		if _, ok := top[k]; !ok {
			t.Errorf("results.json lacks top-level %q", k)
		}
	}
	var cfg map[string]json.RawMessage
	json.Unmarshal(top["configs"], &[]any{})
	var cfgs []map[string]json.RawMessage
	json.Unmarshal(top["configs"], &cfgs)
	cfg = cfgs[0]
	for _, k := range []string{"bench", "variant", "p", "runs_ns", "median_ns", "min_ns", "max_ns", "peak_rss_bytes", "verified"} {
		if _, ok := cfg[k]; !ok {
			t.Errorf("a config lacks %q", k)
		}
	}
	var verdict []map[string]json.RawMessage
	json.Unmarshal(top["verdict"], &verdict)
	for _, k := range []string{"against", "kind", "p", "ratios", "benchmarks", "geomean", "slowest", "slowest_ratio", "line"} {
		if len(verdict) == 0 || verdict[0][k] == nil {
			t.Errorf("a verdict lacks %q", k)
		}
	}
	// A file of another schema is refused.
	other := strings.Replace(string(b), resultsSchema, "something-else/v9", 1)
	os.WriteFile(path, []byte(other), 0o644)
	if _, err := readResults(path); err == nil {
		t.Errorf("foreign schema accepted")
	}
}

// TestInterruptWritesPartialResults starts the command, sends SIGINT once a
// configuration has begun, and checks it stops after the current run, exits
// 130 and still writes what it measured.
func TestInterruptWritesPartialResults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a full-size fib run")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args, _ := json.Marshal([]string{"-bench", "fib", "-runs", "1000", "-max-workers", "2", "-out", dir})
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), testMainEnv+"="+string(args))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var log strings.Builder
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "fib serial P=1") {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
	}
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit %d (%v), want %d\nstderr:\n%s", code, err, exitInterrupted, log.String())
	}
	res, err := readResults(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || len(res.Configs) != 1 || res.Configs[0].Variant != variantSerial {
		t.Fatalf("partial results wrong: interrupted=%v configs=%+v", res.Interrupted, res.Configs)
	}
	if n := len(res.Configs[0].RunsNS); n == 0 || n >= 1000 || !res.Configs[0].Verified {
		t.Errorf("interrupted config has %d runs (verified=%v), want some but not all", n, res.Configs[0].Verified)
	}
	if !strings.Contains(stdout.String(), "fib") {
		t.Errorf("no table printed after interrupt:\n%s", stdout.String())
	}
}

// TestPlotsFromSavedResults draws every plot from a results file, the way
// -out does at the end of a run.
func TestPlotsFromSavedResults(t *testing.T) {
	r := sampleResults()
	r.Configs = append(r.Configs,
		Config{Bench: "fib", Suite: suiteMain, Variant: variantGofork, P: 1, MedianNS: 120, PeakRSS: 9 << 20},
		Config{Bench: "light", Suite: "pools", Variant: variantSerial, P: 1, MedianNS: 50},
		Config{Bench: "light", Suite: "pools", Variant: variantGofork, P: 1, MedianNS: 60},
		Config{Bench: "light", Suite: "pools", Variant: variantGlobal, P: 2, MedianNS: 500},
	)
	dir := t.TempDir()
	files, err := writePlots(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"speedup-main", "rss-main", "speedup-pools"}
	if len(files) != len(want) {
		t.Fatalf("wrote %v, want %v", files, want)
	}
	for i, f := range files {
		if filepath.Base(f) != want[i]+".svg" {
			t.Errorf("file %d = %s, want %s.svg", i, f, want[i])
		}
	}
}
