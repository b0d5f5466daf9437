package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gofork/gofork/harness/kernels"
)

// childEnv names the environment variable that turns a re-executed forkbench
// (or its test binary) into a child measuring one configuration. Its value is
// a JSON childSpec. It is read only in main and TestMain.
const childEnv = "GOFORK_FORKBENCH_CHILD"

// childSpec is what the parent asks a child to measure.
type childSpec struct {
	Bench     string `json:"bench"`
	Variant   string `json:"variant"`
	P         int    `json:"p"`
	Runs      int    `json:"runs"`
	Quick     bool   `json:"quick"`
	ForceFail bool   `json:"force_fail,omitempty"`
}

// childResult is the child's last line of output.
type childResult struct {
	WarmupNS int64   `json:"warmup_ns"`
	RunsNS   []int64 `json:"runs_ns"`
	Error    string  `json:"error,omitempty"` // verification failure
	// Metrics holds, by name, the figures each timed run reported beside
	// its time (kernels.Job.Metrics), in run order.
	Metrics     map[string][]float64 `json:"metrics,omitempty"`
	Interrupted bool                 `json:"interrupted,omitempty"` // stopped early by SIGINT
}

// Child protocol, one line each on stdout:
//
//	ready             the child handles SIGINT from here on
//	run <i> <ns>      run i (0 is the warm-up) finished in ns nanoseconds
//	result <json>     the childResult; always the last line
const (
	childReadyLine    = "ready"
	childRunPrefix    = "run "
	childResultPrefix = "result "
)

// childMain measures the configuration in spec and reports on out.
// It returns the process exit status.
func childMain(specJSON string, out io.Writer) int {
	var spec childSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		fmt.Fprintf(os.Stderr, "forkbench child: bad %s: %v\n", childEnv, err)
		return 2
	}
	runtime.GOMAXPROCS(spec.P)

	// Ctrl-C reaches the whole process group: finish the current run, then report.
	var stop atomic.Bool
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		for range sig {
			stop.Store(true)
		}
	}()
	fmt.Fprintln(out, childReadyLine)

	res := measure(spec, &stop, func(i int, d time.Duration) {
		fmt.Fprintf(out, "%s%d %d\n", childRunPrefix, i, d.Nanoseconds())
	})
	b, _ := json.Marshal(res)
	fmt.Fprintf(out, "%s%s\n", childResultPrefix, b)
	return 0
}

// measure runs one warm-up and spec.Runs timed runs, verifying each.
func measure(spec childSpec, stop *atomic.Bool, progress func(int, time.Duration)) (res childResult) {
	b := lookup(spec.Bench)
	if b == nil {
		res.Error = fmt.Sprintf("unknown benchmark %q", spec.Bench)
		return res
	}
	j, err := b.Setup(spec.Variant, spec.P, kernels.ScaleOf(spec.Quick))
	if err != nil {
		res.Error = err.Error()
		return res
	}
	if j.Close != nil {
		defer j.Close()
	}
	defer func() {
		if r := recover(); r != nil {
			res.Error = fmt.Sprintf("panic: %v", r)
		}
	}()
	// An interrupt stops after the current run, but not before one timed
	// run, so every configuration that started has a measurement.
	for i := 0; i <= spec.Runs; i++ {
		if i > 1 && stop.Load() {
			res.Interrupted = true
			break
		}
		runtime.GC()
		d, err := j.Once()
		if err != nil {
			res.Error = err.Error()
		} else if spec.ForceFail {
			res.Error = "forced verification failure (-x-fail)"
		}
		if i == 0 {
			res.WarmupNS = d.Nanoseconds()
		} else {
			res.RunsNS = append(res.RunsNS, d.Nanoseconds())
			if j.Metrics != nil && res.Error == "" {
				if res.Metrics == nil {
					res.Metrics = map[string][]float64{}
				}
				for name, v := range j.Metrics() {
					res.Metrics[name] = append(res.Metrics[name], v)
				}
			}
		}
		progress(i, d)
		if res.Error != "" {
			break
		}
	}
	return res
}

// childOutcome is what the parent learns from one child process.
type childOutcome struct {
	childResult
	PeakRSS int64 // bytes; 0 when the platform does not report it
}

// runChild re-executes this binary to measure spec, calling progress after
// every run. interrupt, when closed, forwards SIGINT to the child.
func runChild(spec childSpec, progress func(i int, d time.Duration), interrupt <-chan struct{}) (childOutcome, error) {
	self, err := os.Executable()
	if err != nil {
		return childOutcome{}, fmt.Errorf("cannot find own executable to re-exec: %v", err)
	}
	specJSON, _ := json.Marshal(spec)
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(),
		childEnv+"="+string(specJSON),
		"GOMAXPROCS="+strconv.Itoa(spec.P))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return childOutcome{}, err
	}
	if err := cmd.Start(); err != nil {
		return childOutcome{}, fmt.Errorf("re-exec %s: %v", self, err)
	}
	// Forward an interrupt once the child handles SIGINT; before that it
	// would kill the child.
	done := make(chan struct{})
	ready := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-interrupt:
		case <-done:
			return
		}
		select {
		case <-ready:
			cmd.Process.Signal(os.Interrupt)
		case <-done:
		}
	}()

	var out childOutcome
	gotResult := false
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == childReadyLine:
			close(ready)
		case strings.HasPrefix(line, childRunPrefix):
			var i int
			var ns int64
			if _, err := fmt.Sscanf(line, "run %d %d", &i, &ns); err == nil {
				progress(i, time.Duration(ns))
			}
		case strings.HasPrefix(line, childResultPrefix):
			if err := json.Unmarshal([]byte(line[len(childResultPrefix):]), &out.childResult); err == nil {
				gotResult = true
			}
		}
	}
	werr := cmd.Wait()
	if cmd.ProcessState != nil {
		out.PeakRSS = peakRSS(cmd.ProcessState)
	}
	if !gotResult {
		select {
		case <-interrupt: // a terminal's Ctrl-C reached the child before it was ready
			out.Interrupted = true
			return out, nil
		default:
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[:2000] + "..."
		}
		return out, fmt.Errorf("child for %s/%s P=%d died (%v): %s", spec.Bench, spec.Variant, spec.P, werr, msg)
	}
	return out, nil
}
