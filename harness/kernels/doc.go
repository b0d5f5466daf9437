// Package kernels holds every benchmark program of gofork once: the gofork
// version, the serial program and the Go baselines (goroutines and a
// WaitGroup, slices.Sort, gonum, errgroup, ...), their inputs, one set of
// sizes with a Quick scale, and an oracle that checks each result.
//
// Two runners use it. The go test benchmarks at the root of the module call
// the kernel functions (Fib, NQueens, Integrate, Daxpy, ...) and input
// makers inside their b.Run trees. cmd/forkbench registers every Kernel of
// All, whose Setup binds a problem instance to a variant and a worker count
// and returns a Job: the timed Run, an untimed Reset, and Verify, the
// oracle. A fix to a kernel reaches both runners.
//
// # Adding a kernel
//
// Write the kernel functions in the file of its family and, for forkbench,
// add a Kernel from init:
//
//	func init() {
//		add(&Kernel{
//			Name:     "mapseq",
//			Suite:    "group",
//			Order:    200,
//			About:    "par.MapSeq over 1 M lines; baseline: a worker per core and a reorder buffer",
//			Size:     func(s Scale) string { return fmt.Sprintf("n=%d", pick(s, 1_000_000, 100_000)) },
//			Variants: []string{Serial, Gofork, Baseline},
//			Baseline: "channel pipeline",
//			Cutoff:   "batches of 256 lines on both sides",
//			Setup:    setupMapSeq,
//		})
//	}
//
// Variants[0] is Serial and Variants[1] Gofork; the rest are baselines. A
// kernel with a Go baseline names it (Baseline) and says where both sides
// stop forking (Cutoff): the baseline does the same work as gofork. A
// recursive kernel gives two rows, <name> of kind ForkEverywhere and
// <name>-cutoff as a user writes it, on the same problem.
package kernels

import (
	"slices"
	"time"

	"github.com/gofork/gofork/core"
)

// Scale selects a kernel's problem sizes.
type Scale int

const (
	// Full is the size the figures are taken at.
	Full Scale = iota
	// Quick is a smaller size for a fast smoke run (forkbench -quick,
	// go test -short).
	Quick
)

// ScaleOf returns Quick when quick is set, else Full.
func ScaleOf(quick bool) Scale {
	if quick {
		return Quick
	}
	return Full
}

// pick returns full, or quick at the Quick scale.
func pick[T any](s Scale, full, quick T) T {
	if s == Quick {
		return quick
	}
	return full
}

// Suite names.
const (
	SuiteMain = "main" // the libfork benchmark suite plus sort, for and reduce
)

// Kinds of row: how finely a kernel's parallel programs split the work.
// gofork and the Go baseline always split it the same way (Kernel.Cutoff).
const (
	// AsWritten: as a user writes it, serial below a cutoff that gives
	// leaves of ~10-100 µs, or a library call that chooses its own leaves.
	AsWritten = "as-written"
	// ForkEverywhere: a fork at every call and no cutoff, libfork's
	// setting for measuring the runtime's overhead (T1/Ts), or a task per
	// item of no work.
	ForkEverywhere = "fork-everywhere"
	// Latency: the time is a latency a run observed (Job.Measured) or
	// mostly waiting, not CPU work, so there is no speedup over a serial
	// program.
	Latency = "latency"
)

// Variant names. Every kernel has a serial program and a gofork variant;
// the others are baselines.
const (
	Serial    = "serial"    // the plain serial program, Ts
	Gofork    = "gofork"    // gofork on core.New(core.WithWorkers(P))
	Baseline  = "baseline"  // what a Go user would write instead
	Global    = "global"    // pools suite: one mutex-protected global queue
	Local     = "local"     // pools suite: per-worker queues, round-robin, no stealing
	Goroutine = "goroutine" // pools suite: one goroutine per task
	Errgroup  = "errgroup"  // errgroup.Group
	Pipeline  = "pipeline"  // a worker per core and a reorder buffer (harness/baseline)
	Conc      = "conc"      // sourcegraph/conc's pool or stream
)

// Job is one prepared configuration of a kernel: a problem instance bound
// to a variant and a worker count.
type Job struct {
	// Reset prepares the next run (refills the input of a sort); untimed.
	// Optional.
	Reset func()
	// Run is the timed work.
	Run func()
	// Verify checks the result of the last run against an oracle.
	Verify func() error
	// Close releases the pool and anything else the job holds. Optional.
	Close func()
	// Pool is the gofork variant's pool, where it has one (a work/span
	// profile is measured on it).
	Pool *core.Pool
	// Measured, when set, is what a run reports instead of its wall time:
	// a latency the run observed. Optional.
	Measured func() time.Duration
	// Metrics, when set, returns figures of the last run that are not a
	// time, by name: a ratio of its latencies, a count of goroutines. The
	// runner calls it after Verify, untimed. Optional.
	Metrics func() map[string]float64
}

// Once runs the job once after its Reset, if any, and checks the result:
// it returns the run's time, or what Measured reports, and Verify's error.
func (j *Job) Once() (time.Duration, error) {
	if j.Reset != nil {
		j.Reset()
	}
	start := time.Now()
	j.Run()
	d := time.Since(start)
	if j.Measured != nil {
		d = j.Measured()
	}
	return d, j.Verify()
}

// Kernel describes one benchmark for a runner that takes a catalog
// (cmd/forkbench).
type Kernel struct {
	Name  string // as given to forkbench -bench
	Suite string // SuiteMain or another suite name
	Order int    // listing order; lower first
	// Kind is AsWritten (when empty), ForkEverywhere or Latency.
	Kind string
	// About says in one line what the kernel measures.
	About string
	// Note, when set, says how to read this kernel's figures.
	Note string
	// Size describes the problem size at a scale.
	Size func(Scale) string
	// Variants lists what runs: Serial, Gofork, then the baselines.
	Variants []string
	// BaselineVariant is the variant that is what a Go user writes instead
	// of gofork: Baseline when Variants has it and this is empty, Serial
	// when the serial program is that baseline (slices.Sort).
	BaselineVariant string
	// Baseline names the Go baseline in a few words.
	Baseline string
	// Cutoff says where gofork and the Go baseline stop splitting the work,
	// or, for a library call, how each side splits it.
	Cutoff string
	// SerialPerP is set when the serial problem depends on P, so Ts is
	// measured per P.
	SerialPerP bool
	// Setup prepares a job; p is the worker count.
	Setup func(variant string, p int, s Scale) (*Job, error)
}

var catalog []*Kernel

// add puts k in the catalog; each family's file calls it from init.
func add(k *Kernel) {
	catalog = append(catalog, k)
	slices.SortStableFunc(catalog, func(x, y *Kernel) int { return x.Order - y.Order })
}

// All returns the catalog, in listing order.
func All() []*Kernel { return slices.Clone(catalog) }
