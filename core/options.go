package core

import (
	"fmt"
	"time"

	"github.com/gofork/gofork/topology"
)

// An Option configures a Pool created by New.
type Option func(*config)

// config is the resolved configuration of a pool.
type config struct {
	workers    int
	workersSet bool // WithWorkers was given: keep exactly workers; else follow GOMAXPROCS
	maxSpares  int
	policy     Policy
	scheduler  Scheduler
	spin       time.Duration     // Lazy: how long an idle worker searches past its passes
	topology   *topology.Machine // nil: topology.Current()
	pinning    bool
	keepAlive  time.Duration // how long an idle worker keeps its goroutine; 0: for ever
}

func defaultConfig() config {
	return config{workers: followedLimit(), maxSpares: DefaultMaxSpares, policy: WorkFirst, scheduler: Lazy, spin: DefaultSpin,
		keepAlive: DefaultKeepAlive}
}

// WithWorkers sets the number of workers and keeps it fixed for the life of
// the pool. Without it a pool follows GOMAXPROCS: it starts with
// runtime.GOMAXPROCS(0) workers, or runtime.NumCPU() if that is fewer, and
// adds or parks workers when GOMAXPROCS changes (see Pool.Workers). New panics if n < 1.
func WithWorkers(n int) Option {
	return func(c *config) { c.workers, c.workersSet = n, true }
}

// DefaultMaxSpares is the default bound of WithMaxSpares, the number of
// spare workers a pool may run at once in place of blocked ones (Java's
// common ForkJoinPool allows 256 compensation threads too).
const DefaultMaxSpares = 256

// WithMaxSpares bounds the number of spare workers that may run at once in
// place of blocked workers (default DefaultMaxSpares). A spare is an extra
// worker the pool starts when a task blocks (in Blocking, or detected: work
// waits, no worker takes it and a processor is idle) and retires when the
// blocked worker is back or there is no work. A worker the garbage
// collector parks (a mark assist waiting for the collector) is blocked too,
// so a pool whose tasks never block may start a spare now and then on a
// loaded machine, and a thief may then take work from a pool of one worker.
// With n = 0 the pool never starts one, and its tasks run on its workers
// only: a program whose tasks all block on work only the pool can run then
// hangs. New panics if n < 0.
func WithMaxSpares(n int) Option {
	return func(c *config) { c.maxSpares = n }
}

// Policy is what Join exposes to thieves.
type Policy uint8

const (
	// WorkFirst (the default) runs f at once on the calling worker and lets
	// thieves take g, the rest of the parent up to its join: continuation
	// stealing, as in Cilk and libfork. With one worker the execution order is
	// exactly the serial program's.
	WorkFirst Policy = iota
	// HelpFirst runs g on the calling worker and lets thieves take f: child
	// stealing, as in TBB's task groups. It exists so that the two policies can
	// be measured side by side.
	HelpFirst
)

// String returns "WorkFirst" or "HelpFirst".
func (p Policy) String() string {
	switch p {
	case WorkFirst:
		return "WorkFirst"
	case HelpFirst:
		return "HelpFirst"
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// WithPolicy selects the fork policy (default WorkFirst).
func WithPolicy(p Policy) Option {
	return func(c *config) { c.policy = p }
}

// Scheduler is what idle workers do when they find no work.
type Scheduler uint8

const (
	// Lazy (the default): an idle worker searches for a short while (see
	// WithSpin), then sleeps until new work is shared or submitted; sleepers
	// are woken one at a time. An idle pool uses no CPU.
	Lazy Scheduler = iota
	// Busy: idle workers never sleep while the pool is open; they keep
	// searching (yielding the processor between rounds). Lowest latency, full
	// CPU use.
	Busy
)

// String returns "Lazy" or "Busy".
func (s Scheduler) String() string {
	switch s {
	case Lazy:
		return "Lazy"
	case Busy:
		return "Busy"
	}
	return fmt.Sprintf("Scheduler(%d)", uint8(s))
}

// WithScheduler selects what idle workers do (default Lazy).
func WithScheduler(s Scheduler) Option {
	return func(c *config) { c.scheduler = s }
}

// DefaultSpin is the default of WithSpin: about what waking a sleeping
// worker costs where a woken processor must first be woken itself (an idle
// virtual CPU). A worker that searches as long as a wake-up costs before it sleeps loses at
// most twice what the best choice in hindsight would (the ski-rental
// bound), and a program that forks in phases (a scan's two passes, a
// radix sort's, the rounds of Compact) keeps its workers across the gaps
// between them instead of waking them at every phase.
const DefaultSpin = 100 * time.Microsecond

// WithSpin sets how long an idle worker keeps searching for work, after a
// few quick passes over its victims, before it goes to sleep (Lazy
// scheduler; default DefaultSpin). A searching worker yields its processor
// every few passes, so goroutines outside the pool still run, but it uses
// CPU time that a sleeping one does not: a longer spin trades that CPU for
// the latency of waking workers between phases of work. 0 sleeps after the
// quick passes alone. The Busy scheduler never sleeps and ignores it. New
// panics if d < 0.
func WithSpin(d time.Duration) Option {
	return func(c *config) { c.spin = d }
}

func (c *config) validate() {
	if c.workers < 1 {
		panic(fmt.Sprintf("core: WithWorkers(%d): a pool needs at least 1 worker", c.workers))
	}
	if c.maxSpares < 0 {
		panic(fmt.Sprintf("core: WithMaxSpares(%d): the bound must be at least 0", c.maxSpares))
	}
	if c.policy > HelpFirst {
		panic(fmt.Sprintf("core: WithPolicy(%v): unknown policy", c.policy))
	}
	if c.topology != nil && c.topology.NumCPUs() == 0 {
		panic("core: WithTopology: the topology has no CPUs")
	}
	if c.spin < 0 {
		panic(fmt.Sprintf("core: WithSpin(%v): the spin time must be at least 0", c.spin))
	}
	validKeepAlive(c.keepAlive)
	if c.scheduler > Busy {
		panic(fmt.Sprintf("core: WithScheduler(%v): unknown scheduler", c.scheduler))
	}
}

// WithTopology sets the machine description used to place workers on CPUs
// and to choose victims (default topology.Current()). Tests and simulations
// pass a recorded one (topology.Read on a saved sysfs tree).
func WithTopology(t *topology.Machine) Option {
	return func(c *config) { c.topology = t }
}

// WithPinning, when on, locks each worker goroutine to its OS thread and that
// thread to the worker's CPU (spreading workers over NUMA nodes first, then
// packages, then cores). A worker that cannot be pinned (a container's CPU
// limits, an operating system without affinity calls) runs unpinned: the
// reason is in Stats (WorkerStats.PinError), never a crash. Default off:
// the Go scheduler then moves workers freely.
func WithPinning(on bool) Option {
	return func(c *config) { c.pinning = on }
}
