package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/gofork/gofork/harness/kernels"
)

// resultsSchema names the layout of results.json; bump it when a field
// changes meaning.
const resultsSchema = "gofork-forkbench/v1"

// Results is everything one invocation measured: the file -out writes and
// -replot reads.
type Results struct {
	Schema      string    `json:"schema"`
	Machine     Machine   `json:"machine"`
	Settings    Settings  `json:"settings"`
	Started     time.Time `json:"started"`
	ElapsedSec  float64   `json:"elapsed_sec"`
	Interrupted bool      `json:"interrupted"`
	// Benchmarks describes each benchmark selected: its kind, its cutoff
	// and its Go baseline.
	Benchmarks []BenchInfo `json:"benchmarks"`
	Configs    []Config    `json:"configs"`
	Fits       []Fit       `json:"fits"`
	// Verdict sums up gofork against the Go baselines and the serial
	// programs, per kind of row and P (see verdict.go).
	Verdict  []Verdict `json:"verdict"`
	Failures []string  `json:"failures"`
}

// BenchInfo is what results.json records of a benchmark's registration,
// so a saved file can be read without this binary's registry.
type BenchInfo struct {
	Name     string   `json:"name"`
	Suite    string   `json:"suite"`
	Kind     string   `json:"kind"` // one of kinds: kindAsWritten, kindForkEverywhere, kindLatency
	Size     string   `json:"size"`
	Variants []string `json:"variants"`
	// BaselineVariant is the variant that is the Go baseline ("" none);
	// Baseline names it in words.
	BaselineVariant string `json:"baseline_variant,omitempty"`
	Baseline        string `json:"baseline,omitempty"`
	// Cutoff says where gofork and the baseline stop forking.
	Cutoff string `json:"cutoff,omitempty"`
}

func benchInfo(b *benchmark, quick bool) BenchInfo {
	return BenchInfo{Name: b.Name, Suite: b.Suite, Kind: b.Kind, Size: b.Size(kernels.ScaleOf(quick)), Variants: b.Variants,
		BaselineVariant: b.BaselineVariant, Baseline: b.Baseline, Cutoff: b.Cutoff}
}

// Settings records the flags that shape the numbers.
type Settings struct {
	Suite      string   `json:"suite"`
	Benchmarks []string `json:"benchmarks"`
	MaxWorkers int      `json:"max_workers"`
	Workers    []int    `json:"workers"`
	Runs       int      `json:"runs"`
	Quick      bool     `json:"quick"`
	Baseline   bool     `json:"baseline"`
}

// Config is one measured configuration: a benchmark variant at P workers,
// measured in its own child process.
type Config struct {
	Bench    string  `json:"bench"`
	Suite    string  `json:"suite"`
	Size     string  `json:"size"`
	Variant  string  `json:"variant"`
	P        int     `json:"p"`
	WarmupNS int64   `json:"warmup_ns"`
	RunsNS   []int64 `json:"runs_ns"`
	MedianNS int64   `json:"median_ns"`
	MinNS    int64   `json:"min_ns"`
	MaxNS    int64   `json:"max_ns"`
	// PeakRSS is the child process's maximum resident set size in bytes
	// (getrusage), including the Go runtime and the problem's input.
	PeakRSS int64 `json:"peak_rss_bytes"`
	// Metrics is the median over the runs of each figure the benchmark
	// reports beside its time (goroutines left after idle, p99/mean).
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Verified is true when every run passed its oracle check.
	Verified bool   `json:"verified"`
	Error    string `json:"error,omitempty"`
}

// Fit is the memory fit MRSS ≈ A + B·P^N for one benchmark variant.
type Fit struct {
	Bench   string  `json:"bench"`
	Variant string  `json:"variant"`
	A       float64 `json:"a_bytes"` // pinned to the serial program's peak RSS
	B       float64 `json:"b_bytes"`
	N       float64 `json:"n"`
	Points  int     `json:"points"`
}

// Machine describes where the numbers came from.
type Machine struct {
	CPU   string `json:"cpu"`
	Cores int    `json:"cores"` // runtime.NumCPU: the CPUs this process may use
	// OnlineCPUs and PhysicalCores come from topology.Current(): the
	// machine's online CPUs and the cores they sit on. SMT is set when some
	// CPUs are SMT siblings of one core; two workers on siblings share the
	// core's execution units, which caps T1/T2 well below 2.
	OnlineCPUs    int    `json:"online_cpus"`
	PhysicalCores int    `json:"physical_cores"`
	SMT           bool   `json:"smt"`
	GOMAXPROCS    int    `json:"gomaxprocs"`
	GOOS          string `json:"goos"`
	GOARCH        string `json:"goarch"`
	GoVersion     string `json:"go_version"`
	Commit        string `json:"commit"`
	Dirty         bool   `json:"dirty"`
	Hostname      string `json:"hostname"`
	// LoadAvg is the 1-minute load average when the run started (Linux;
	// -1 elsewhere): above the core count, other processes were competing.
	LoadAvg float64 `json:"load_avg"`
}

// info returns what the results say of benchmark name, or, for a file
// written before results.json described its benchmarks, what the registry
// says; nil for a benchmark neither knows.
func (r *Results) info(name string) *BenchInfo {
	for i := range r.Benchmarks {
		if r.Benchmarks[i].Name == name {
			return &r.Benchmarks[i]
		}
	}
	if b := lookup(name); b != nil {
		bi := benchInfo(b, r.Settings.Quick)
		return &bi
	}
	return nil
}

// find returns the configuration for bench/variant at P, or nil.
func (r *Results) find(bench, variant string, p int) *Config {
	for i := range r.Configs {
		c := &r.Configs[i]
		if c.Bench == bench && c.Variant == variant && c.P == p {
			return c
		}
	}
	return nil
}

// readResults loads a results.json written by -out.
func readResults(path string) (*Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if r.Schema != resultsSchema {
		return nil, fmt.Errorf("%s: schema %q, want %q", path, r.Schema, resultsSchema)
	}
	return &r, nil
}
