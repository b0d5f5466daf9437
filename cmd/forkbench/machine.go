package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/gofork/gofork/topology"
)

// describeMachine collects the CPU model, core counts, Go version and the
// commit the binary was built from.
func describeMachine() Machine {
	m := Machine{
		CPU:        cpuModel(),
		Cores:      runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GoVersion:  runtime.Version(),
	}
	m.OnlineCPUs, m.PhysicalCores, m.SMT = cpuCores(topology.Current())
	m.Hostname, _ = os.Hostname()
	m.LoadAvg = loadAvg()
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				m.Commit = s.Value
			case "vcs.modified":
				m.Dirty = s.Value == "true"
			}
		}
	}
	if m.Commit == "" { // go run and go test do not stamp VCS info
		if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
			m.Commit = strings.TrimSpace(string(out))
			if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil {
				m.Dirty = len(strings.TrimSpace(string(st))) > 0
			}
		}
	}
	if m.Commit == "" {
		m.Commit = "unknown"
	}
	return m
}

// cpuCores counts the CPUs of t and the cores they sit on, and reports
// whether any two CPUs are SMT siblings of one core.
func cpuCores(t *topology.Machine) (cpus, cores int, smt bool) {
	ids := t.CPUs()
	for i, a := range ids {
		sibling := false
		for _, b := range ids[:i] {
			if t.Distance(a, b) == topology.DistanceSMT {
				sibling = true
				break
			}
		}
		if sibling {
			smt = true
		} else {
			cores++ // the first CPU seen of its core
		}
	}
	return len(ids), cores, smt
}

// cpuLine describes the CPUs for the machine line: how many, on how many
// cores, and whether SMT siblings cap the speedup.
func cpuLine(m Machine) string {
	if m.OnlineCPUs == 0 { // a results.json from before the topology was recorded
		return fmt.Sprintf("%d cores", m.Cores)
	}
	s := fmt.Sprintf("%d CPUs on %d cores", m.OnlineCPUs, m.PhysicalCores)
	if m.Cores != m.OnlineCPUs {
		s += fmt.Sprintf(" (%d usable by this process)", m.Cores)
	}
	if m.SMT {
		return s + ", SMT siblings (two workers on one core share it: T1/T2 is capped well below 2)"
	}
	return s + ", no SMT siblings"
}

// cpuModel reads the model name from /proc/cpuinfo (Linux), or returns GOARCH.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// loadAvg returns the 1-minute load average from /proc/loadavg, or -1.
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
