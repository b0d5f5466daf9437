package core

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofork/gofork/internal/lockfree"
)

// The governor is one goroutine per pool that starts spare workers when the
// pool stalls: work waits, no worker takes it, and a processor is idle (the
// workers are blocked). It is the pool's sysmon. See DESIGN.md, "The
// governor", for the rules and why they hold.
type governor struct {
	p    *Pool
	once sync.Once     // starts the goroutine on the first root in flight
	kick chan struct{} // buffered (1): wakes a resting governor
	quit chan struct{} // closed by stop
	done chan struct{} // closed when the goroutine has exited
	mu   sync.Mutex    // guards started against stop
	// started: the goroutine runs (or ran); guarded by mu.
	started bool
	// armed is set while the governor waits for a tick and may be poked
	// (see poke); cleared by the poke that wakes it.
	armed atomic.Bool
	// awake is set while the goroutine runs its ticks, and cleared, before
	// the last look at busy, when it rests (run): a fork from outside that
	// claimed its queue position and then finds it clear wakes it
	// (forkOutside; Dekker with that look). False before the start too.
	awake atomic.Bool

	// Owned by the governor goroutine.
	suspect    bool          // the previous tick saw a stall
	stallSince time.Time     // when the current stall was first seen
	stallCPU   time.Duration // the process's CPU time then (fallback estimate)
	// lost: a stall with a worker asleep has been seen since lostSince,
	// with the idle list at epoch lostEpoch all along (rescue).
	lost       bool
	lostSince  time.Time
	lostEpoch  uint64
	samples    []metrics.Sample
	hasMetrics bool // the runtime reports goroutine states (Go 1.26+)
}

// Tick intervals: the governor looks every govTickMin after it wakes or
// after anything looked wrong, and doubles the interval up to govTickMax
// while nothing does (timers fire with about a millisecond's granularity
// on an idle Linux process, so the shortest interval is really that).
// Work made available while every worker is inside a task pokes it to look
// at once (at most every other interval). A stall is acted on when it lasts
// govConfirm, so a spare starts about govConfirm after the work that
// waits for it was submitted or shared, and at most one interval plus
// govConfirm after the workers blocked on work already waiting.
// govStallOld is how long a stall is watched before a spare starts when the
// runtime reports no goroutine states (Go before 1.26): the governor then
// estimates how many goroutines run from the process's CPU time over that
// window, which needs a window long enough to average over.
//
// govLostWakeup is how long a stall with a worker asleep must last, the idle
// list unchanged, before the governor wakes that worker and counts a lost
// wake-up (rescue): far longer than the operating system keeps a runnable
// thread waiting on a loaded machine, so that a producer or a sleeper
// caught between the two steps of its half of the sleep protocol heals the
// stall itself first.
const (
	govTickMin    = 100 * time.Microsecond
	govTickMax    = 2 * time.Millisecond
	govConfirm    = 50 * time.Microsecond
	govStallOld   = 10 * time.Millisecond
	govLostWakeup = 100 * time.Millisecond
)

// The runtime/metrics names the governor reads.
const (
	metricRunning  = "/sched/goroutines/running:goroutines"
	metricRunnable = "/sched/goroutines/runnable:goroutines"
)

func (g *governor) init(p *Pool) {
	g.p = p
	g.kick = make(chan struct{}, 1)
	g.quit = make(chan struct{})
	g.done = make(chan struct{})
}

// wake makes a resting governor look again; the first call starts it.
func (g *governor) wake() {
	g.once.Do(g.start)
	select {
	case g.kick <- struct{}{}:
	default: // a token is pending already
	}
}

func (g *governor) start() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.quit:
		return // stopped before it ever ran
	default:
	}
	g.started = true
	g.samples = []metrics.Sample{{Name: metricRunning}, {Name: metricRunnable}}
	metrics.Read(g.samples)
	g.hasMetrics = g.samples[0].Value.Kind() == metrics.KindUint64 && g.samples[1].Value.Kind() == metrics.KindUint64
	go g.runUnlabelled() // labels.go: not the labels of the caller whose root started it
}

// stop ends the governor goroutine and waits for it (Close).
func (g *governor) stop() {
	g.mu.Lock()
	close(g.quit)
	started := g.started
	g.mu.Unlock()
	if started {
		<-g.done
	}
}

// busy reports whether the governor has something to watch: roots or jobs
// forked from outside in flight, a worker inside Blocking, or spares
// running.
func (g *governor) busy() bool {
	p := g.p
	return p.inflight.Load() != 0 || p.outsideDone.Load() != p.outside.Pushed() ||
		p.spares.blocked.Load() != 0 || p.spares.active.Load() != 0
}

func (g *governor) run() {
	defer close(g.done)
	timer := time.NewTimer(govTickMin)
	interval := govTickMin
	poked := false
	g.awake.Store(true)
	for {
		if !g.busy() {
			lockfree.DekkerStoreBool(&g.awake, false) // before busy's loads: pairs with forkOutside's tail CAS, then load of awake
			if !g.busy() {
				// Rest until the next root or job in flight. A kick sent
				// after the busy check waits in the channel, so none is lost.
				g.suspect, g.lost = false, false
				g.p.spares.stall.Store(0)
				g.p.retireIdle()
				select {
				case <-g.kick:
				case <-g.quit:
					timer.Stop()
					return
				}
				interval = govTickMin
			}
		}
		g.awake.Store(true)
		// After a poke, one interval passes unpoked: pokes come at most
		// every other interval, however busy the pool.
		g.armed.Store(!poked)
		timer.Reset(interval)
		select {
		case <-timer.C:
			poked = false
		case <-g.kick:
			poked = true
			if !timer.Stop() {
				<-timer.C
			}
		case <-g.quit:
			timer.Stop()
			return
		}
		g.armed.Store(false)
		interval = g.tick(interval)
		if g.p.rootsWaiting.Load() != 0 {
			g.p.nudgeRoots()
			interval = govTickMin // look again soon while roots wait
		}
	}
}

// poke asks a governor waiting for its next tick to look now: work was
// made available while every worker is inside a task (none searches or
// sleeps), so it may wait for a blocked worker. One load when the
// governor is not waiting or was poked already.
func (g *governor) poke() {
	if g.armed.Load() && g.armed.CompareAndSwap(true, false) {
		select {
		case g.kick <- struct{}{}:
		default:
		}
	}
}

// tick is one look at the pool; it returns the interval to the next one.
func (g *governor) tick(interval time.Duration) time.Duration {
	p := g.p
	p.refreshLimit()
	next := min(2*interval, govTickMax)
	if uint32(p.sleep.counts.Load()) != 0 || !p.workWaiting(nil) {
		// Someone is looking for work, or none waits.
		g.suspect, g.lost = false, false
		g.relax()
		return next
	}
	if g.lost {
		if p.sleep.sleeping() != 0 {
			g.rescue()
			return govTickMin
		}
		g.lost = false // the sleepers left: a stall of busy workers, looked at below
	}
	if g.hasMetrics {
		if !g.workersBlocked() {
			// The workers run: long CPU-bound leaves hold them, and the
			// work waits for them as it would in the serial program. A
			// spare would only oversubscribe the processors (or exceed
			// WithWorkers).
			return next
		}
		if !g.confirmStall() {
			return govTickMin
		}
	} else {
		// Without goroutine states, estimate from the CPU time over a
		// window: see the stall at one tick, decide govStallOld later.
		now := time.Now()
		if !g.suspect {
			g.suspect, g.stallSince = true, now
			g.stallCPU, _ = processCPUTime()
			return govTickMin
		}
		if now.Sub(g.stallSince) < govStallOld {
			return govTickMin
		}
		g.suspect = false
		if !g.workersBlocked() {
			return next
		}
	}
	if p.sleep.sleeping() != 0 {
		// A worker sleeps while work waits and nobody searches.
		g.rescue()
		return govTickMin
	}
	p.spares.stall.Add(1)
	if !p.activateSpare() {
		p.spares.stall.Add(-1)
	}
	return govTickMin
}

// rescue is the governor's answer to a stall with a worker asleep: work
// waits, nobody searches, and a worker sleeps. The sleep protocol lets no
// wake-up be lost, but a producer between publishing work and reading the
// idle counts, or a sleeper between counting itself asleep and its last
// check, makes that state for as long as the operating system keeps its
// thread from running. So the first call only notes the idle list's epoch;
// once the state has lasted govLostWakeup with the idle list unchanged,
// the wake-up was lost: rescue wakes a sleeper and counts it in
// Stats.LostWakeups, which tests assert to be 0.
func (g *governor) rescue() {
	p := g.p
	epoch := p.sleep.epochNow()
	now := time.Now()
	if !g.lost || epoch != g.lostEpoch {
		g.lost, g.lostSince, g.lostEpoch = true, now, epoch
		return
	}
	if now.Sub(g.lostSince) < govLostWakeup {
		return
	}
	g.lost = false
	p.lostWakeups.Add(1)
	p.wakeOne(nil)
}

// confirmStall watches a stall for govConfirm, yielding the processor
// between looks, and reports whether it lasted: work still waits, nobody
// searches, and the workers still do not run. It spins rather than sleeps
// because timers here fire with about a millisecond's granularity, and it
// runs only when the scheduler already reported idle processors.
func (g *governor) confirmStall() bool {
	p := g.p
	for deadline := time.Now().Add(govConfirm); time.Now().Before(deadline); {
		runtime.Gosched()
		if uint32(p.sleep.counts.Load()) != 0 || !p.workWaiting(nil) {
			return false
		}
	}
	return g.workersBlocked()
}

// relax lets one spare started for a stall go when the processors are
// oversubscribed (goroutines wait for a processor while all run), so that
// blocked workers that came back do not share their processors with spares
// for long. Spares also retire by themselves when they find no work.
func (g *governor) relax() {
	s := &g.p.spares
	if s.stall.Load() == 0 {
		return
	}
	if !g.p.workWaiting(nil) || g.hasMetrics && g.processorsOversubscribed() {
		s.stall.Add(-1)
		g.p.retireIdle()
	}
}

// workersBlocked reports whether fewer of the pool's workers run than it
// should run, with a processor idle for one more: the goroutines running or
// waiting to run, the governor excepted, are fewer than both the pool's
// limit and GOMAXPROCS. Every worker is in a task when this is asked (none
// searches or sleeps), so the shortfall are workers blocked. Other
// goroutines of the program count as running too: they can hide a blocked
// worker, never invent one. Without goroutine-state metrics the count is
// the process's CPU time over the stall divided by its length; where that
// is unavailable too, it reports false.
func (g *governor) workersBlocked() bool {
	p := g.p
	want := min(float64(p.limit.Load()), float64(runtime.GOMAXPROCS(0)))
	if g.hasMetrics {
		metrics.Read(g.samples)
		running := float64(g.samples[0].Value.Uint64()+g.samples[1].Value.Uint64()) - 1
		return running < want
	}
	cpu, ok := processCPUTime()
	if !ok {
		return false
	}
	running := float64(cpu-g.stallCPU) / float64(time.Since(g.stallSince))
	return running < want-0.5
}

// processorsOversubscribed reports whether goroutines wait for a processor
// while every processor runs one.
func (g *governor) processorsOversubscribed() bool {
	metrics.Read(g.samples)
	running, runnable := g.samples[0].Value.Uint64(), g.samples[1].Value.Uint64()
	return runnable > 0 && running >= uint64(runtime.GOMAXPROCS(0))
}
