package core

import (
	"math"
	"runtime"
	"strconv"
	"time"
	_ "unsafe" // go:linkname of runtime.nanotime
)

// Work/span analysis (DESIGN.md, "Work and span"): MeasureWorkSpan runs a
// root serially on one worker with a meter on it, and the meter times every
// strand of the computation's dag and combines the times along the dag's
// series-parallel structure, as Cilkview and OpenCilk's Cilkscale do.

// WorkSpan is the work/span profile of a computation's dag, measured by
// MeasureWorkSpan. A strand is a stretch of code between two forks or joins
// (Join, Spawn and Sync, a Scope's Go and Wait, and so Invoke and everything
// packages par, reduce, sortpar, linalg and uts do).
type WorkSpan struct {
	// Work (T1) is the sum of the times of every strand: the run's time on
	// one worker, without the runtime's fork costs.
	Work time.Duration
	// Span (T∞) is the time of the longest chain of strands that must run
	// one after the other: the run's time on infinitely many workers.
	Span time.Duration
	// BurdenedSpan is Span with every fork on the path charged Burden, the
	// cost of a steal, on the half a thief would take: what the chain
	// costs when every fork on it is stolen.
	BurdenedSpan time.Duration
	// Forks counts the forks measured: Joins, Spawns and a Scope's tasks.
	Forks uint64
	// Elapsed is the wall time of the measured run, the meter's own cost
	// included.
	Elapsed time.Duration
}

// Burden is the cost a WorkSpan's BurdenedSpan charges each fork on the
// path: Cilkscale's default steal cost (15,000 cycles at 2.4 GHz), which
// covers a steal, the cache misses of moving the work to another core, and
// the join's synchronisation.
const Burden = 6250 * time.Nanosecond

// Parallelism returns Work/Span, the most workers the computation can keep
// busy on average: no number of workers runs it more than Parallelism times
// faster than one. It returns 1 when nothing was timed (Span is 0).
func (ws WorkSpan) Parallelism() float64 {
	if ws.Span <= 0 {
		return 1
	}
	return float64(ws.Work) / float64(ws.Span)
}

// BurdenedParallelism returns Work/BurdenedSpan: the parallelism left once
// every fork on the critical path pays for a steal. Well below Parallelism,
// it says the forks are too fine for the steals they would need. It returns
// 1 when nothing was timed.
func (ws WorkSpan) BurdenedParallelism() float64 {
	if ws.BurdenedSpan <= 0 {
		return 1
	}
	return float64(ws.Work) / float64(ws.BurdenedSpan)
}

// Speedup returns the range of speedups over one worker that p workers
// should reach: hi = min(p, Parallelism()), the work and span laws, and
// lo = Work / (Work/p + 1.7·BurdenedSpan·(1-1/p)), the Cilkview bound of a
// greedy work-stealing scheduler charged Burden per steal. lo <= hi always.
// It panics if p < 1.
func (ws WorkSpan) Speedup(p int) (lo, hi float64) {
	if p < 1 {
		panic("core: WorkSpan.Speedup: p = " + strconv.Itoa(p) + ", want p >= 1")
	}
	hi = math.Min(float64(p), ws.Parallelism())
	if ws.Work <= 0 {
		return hi, hi
	}
	t1, pf := float64(ws.Work), float64(p)
	lo = t1 / (t1/pf + 1.7*float64(ws.BurdenedSpan)*(1-1/pf))
	return math.Min(lo, hi), hi
}

// MeasureWorkSpan runs root on p, as Run does, and returns its result with
// the work/span profile of the computation it ran: every Join, Spawn,
// Invoke and Scope task it forks, at any depth, and so every call of
// packages par, reduce, sortpar, linalg and uts it makes on p.
//
// The run is serial: root and all it forks run on the one worker that runs
// root, in the order of the serial program, each Join's halves one after
// the other and a Scope's tasks when the scope is waited for (or when root
// returns), and nothing is made stealable. The dag of a computation made of
// these forks is the same whatever runs it, so the profile does not depend
// on the number of workers, and the other workers stay free. A measured run
// takes longer than a plain one: the meter reads the clock at the end of
// each strand, except in long runs of short strands (below).
//
// What is measured:
//
//   - A strand's time is its wall time less the time its thread was off
//     the CPU (checked on strands longer than 10 µs, where the thread has
//     a CPU clock): a stall of the thread on a busy machine, a Blocking
//     call, a channel wait, a lock or I/O inside a strand count for the CPU
//     they use, not for the time they wait. A stall that the thread's CPU
//     clock does not show (a hypervisor taking the virtual CPU) counts.
//   - Where the strands are short (under a quarter of a microsecond on
//     average, for over a thousand in a row, as in code that forks at
//     every call), the clock is read once per group of up to 64 strands,
//     and each strand of a group is given the mean of the groups before
//     it; the strand that closes the group takes what is left of its
//     time. The work stays exact; a span made of such strands is exact to
//     about a group's time. A group that takes more than twice its
//     prediction (it held a longer strand) puts the meter back to one
//     read a strand; its time is charged to one path, so where such a
//     group held several long strands of parallel branches (leaves forked
//     right after thousands of empty forks) the span counts all of them.
//   - Code that decides to fork on demand sees a pool of idle workers that
//     take every frame: Pending is 0, and Hungry is true nearly always
//     (the pool's workers sleep, since nothing is shared; it reads the
//     idle count, which their wake-ups move). Package uts then promotes
//     wherever its walk allows.
//   - par's Auto partitioner splits a range into about 4·Workers() chunks
//     of up to 8 blocks, and splits further only where a thief took a
//     chunk, which never happens here: the profile is that of the loop's
//     dag at p's number of workers without steals. Measure on a pool of P
//     workers (WithWorkers(P)) for the dag such a loop builds at P; Simple
//     and Deterministic loops build one dag whatever the workers.
//   - Tasks forked with Scope.Go from a goroutine that is not a task of p,
//     and roots submitted to other pools, run unmeasured elsewhere; a task
//     that waits for them counts the wait as work.
//
// Tasks that wait for each other (a producer and its consumer forked by
// one Invoke, tasks that exchange values on unbuffered channels) need
// parallel execution and hang under the serial run: MeasureWorkSpan is for
// fork-join code. A panic in root or a task reaches the caller as Run's
// does, and the profile is lost. MeasureWorkSpan called inside a measured
// run measures its own root and adds it to the enclosing profile. It panics
// if p or root is nil, or p is closed.
func MeasureWorkSpan[R any](p *Pool, root func(*Worker) R) (R, WorkSpan) {
	if p == nil {
		panic("core: MeasureWorkSpan on a nil *Pool")
	}
	if root == nil {
		panic("core: MeasureWorkSpan with a nil root function")
	}
	var r R
	var ws WorkSpan
	p.refuseClosed("MeasureWorkSpan")
	p.Run(func(w *Worker) { r, ws = measureOn(w, root) })
	return r, ws
}

// measureOn runs root on w with a meter and returns its result and profile.
func measureOn[R any](w *Worker, root func(*Worker) R) (R, WorkSpan) {
	outer := w.meter
	if outer != nil {
		outer.read() // the enclosing strand ends here; the inner profile is added on return
	}
	// The thread's CPU clock tells a stall of the thread from work
	// (offCPU), if the goroutine stays on it.
	runtime.LockOSThread()
	m := &workSpanMeter{jobs: map[*Scope]*[]measuredJob{}}
	m.calibrate()
	m.cpuMark, m.cpuOK = threadCPUTime()
	start := nanotime()
	m.last, m.wallMark = start, start
	m.group, m.left = 1, 1
	w.meter = m
	w.dq.fast = 0 // every fork now takes reach's branch, where the meter is looked at (see Join)
	finished := false
	defer func() {
		runtime.UnlockOSThread()
		w.meter = outer
		if !finished {
			m.handOver(w) // panicking: the scopes' tasks not run yet go to the pool
		}
	}()
	r := root(w)
	m.drain(w)
	m.read()
	finished = true
	ws := WorkSpan{
		Work:         time.Duration(m.work),
		Span:         time.Duration(m.span),
		BurdenedSpan: time.Duration(m.burdened),
		Forks:        m.forks,
		Elapsed:      time.Duration(nanotime() - start),
	}
	if outer != nil {
		outer.work += m.work
		outer.span += m.span
		outer.burdened += m.burdened
		outer.forks += m.forks
		outer.last = nanotime() // the inner run's time is in its profile, not in a strand
	}
	return r, ws
}

// workSpanMeter is the state of a measured run; it belongs to the worker
// that runs it (Worker.meter), and only that worker's goroutine touches it.
//
// A point of the dag is described by the length of the longest path that
// reaches it: span, and burdened for the burdened span. The running strand
// started at last; tick ends it, adding its time to work and to both path
// lengths. A fork saves the point (here); the first half goes on from it
// and the second half restarts from it (resume); the join takes the longer
// of the two paths that reach it (merge).
type workSpanMeter struct {
	last     int64 // nanotime of the last clock read, the start of the running group
	overhead int64 // the cost of one clock read, taken off each group's time
	// Grouping (read): group is the number of strands timed by one clock
	// read, left how many of the running group have still to end, guessed
	// how many have ended unread and been given est each; streak counts
	// the short strands in a row.
	group, left  int
	guessed, est int64
	streak       int64
	// cpuMark and wallMark are the thread's CPU time and nanotime at the
	// last check for time off the CPU (offCPU); cpuOK: the thread has a
	// CPU clock.
	cpuMark, wallMark int64
	cpuOK             bool
	work              int64 // sum of the strands ended so far
	span              int64 // longest path to the running strand's start, plus its time so far once ticked
	burdened          int64 // the same with Burden charged to every stealable half on the path
	forks             uint64
	// jobs holds the tasks forked with Scope.Go and not run yet, by scope,
	// each with the point it was forked at.
	jobs map[*Scope]*[]measuredJob
}

// A dagPoint is a point of the dag: the longest path to it, plain and burdened.
type dagPoint struct{ span, burdened int64 }

// measuredJob is a Scope task forked in a measured run, not run yet.
type measuredJob struct {
	job
	at dagPoint
}

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// tick ends the running strand and starts the next one. It reads the
// clock only at the end of a group (see read); a strand that ends inside
// one is given the group's predicted mean, est, on both path lengths.
func (m *workSpanMeter) tick() {
	if m.left > 1 {
		m.left--
		m.guessed++
		m.span += m.est
		m.burdened += m.est
		return
	}
	m.read()
}

// Grouping short strands (DESIGN.md, "Work and span", "Short strands"):
// a clock read costs more than a fork, so where the strands are short the
// meter reads it once per group of strands instead of once per strand.
const (
	// shortStrand is the mean strand time (ns) below which strands are
	// short enough to be timed in groups.
	shortStrand = 250
	// widenAfter is how many short strands in a row, timed one by one or
	// in groups that kept to their prediction, double the group size. It
	// is large so that the few hundred empty forks of a library's phase
	// (a scan whose chunks return at once) leave every strand timed alone:
	// a group that widened there would hold the next phase's parallel
	// leaves and charge them all to one path (DESIGN.md, "Work and span").
	widenAfter = 1024
	// maxGroup is the largest group, so a group of short strands lasts at
	// most maxGroup·shortStrand.
	maxGroup = 64
	// groupSlack is the time (ns) a group may take beyond twice its
	// predicted time and still count as short strands.
	groupSlack = 100
	// blip is the most time (ns) a group may take beyond its prediction
	// and keep its width: a hiccup of the machine inside short strands
	// (an interrupt, a page fault) rather than a long strand. A group
	// that ran over by more held a long strand, and the meter times
	// strands alone again until widenAfter short ones in a row.
	blip = 2000
)

// read ends the running strand and the group it closes at a clock read.
// The group's time goes to the work in full. The strands of the group
// ended without a read were given est each; the one ending here gets the
// rest, so that the path lengths hold the group's time too. A group of
// short strands that kept to its prediction sets est to its mean and,
// after widenAfter such strands, doubles the group; a wide group that ran
// over its prediction by less than blip keeps its width; any other group,
// one holding a longer strand, makes every strand timed alone again.
func (m *workSpanMeter) read() {
	now := nanotime()
	t := now - m.last - m.overhead
	if t > stallCheck && m.cpuOK {
		t, now = m.offCPU(now, t)
	}
	if t < 0 {
		t = 0
	}
	m.last = now
	m.work += t
	d := t - m.guessed*m.est
	m.span += d
	m.burdened += d
	n := m.guessed + 1
	switch {
	case t < n*shortStrand && (m.group == 1 || t <= 2*n*m.est+groupSlack):
		m.est = t / n
		m.streak += n
		if m.streak >= widenAfter && m.group < maxGroup {
			m.group *= 2
			m.streak = 0
		}
	case m.group > 1 && t-n*m.est < blip:
		// Short strands and a hiccup (an interrupt, a page fault): no
		// strand of the group was long, so the width stays. est keeps
		// the mean of the groups that kept to it.
		m.streak = 0
	default:
		m.group, m.streak = 1, 0
	}
	m.guessed = 0
	m.left = m.group
}

// stallCheck is the strand time (ns) above which tick asks whether the
// thread was off the CPU: a strand that long may hold a stall of the
// thread (a shared machine's other processes, a blocking call) which,
// taken as work, would make the span that of the stall rather than of the
// dag. Reading the thread's CPU clock costs a microsecond or two, which
// goes to no strand (offCPU); strands this long are rare in code with
// fine forks and few in code with coarse ones.
const stallCheck = int64(10 * time.Microsecond)

// offCPU takes off the strand of wall time d ending at now the time the
// thread spent off the CPU since the last check, and returns the strand's
// time and the time its successor starts at (after the check's own cost).
// The time off the CPU since the last check is wall time minus thread CPU
// time; all of it is put on this strand, the one long enough to have held
// a stall of note (the strands in between were shorter than stallCheck).
func (m *workSpanMeter) offCPU(now, d int64) (int64, int64) {
	cpu, ok := threadCPUTime()
	if !ok {
		return d, now
	}
	off := (now - m.wallMark) - (cpu - m.cpuMark)
	if off > 0 {
		d -= min(off, d)
	}
	now = nanotime() // the check's own cost goes to no strand
	m.wallMark, m.cpuMark = now, cpu
	return d, now
}

// calibrate sets overhead to the least time seen between two ticks with
// nothing between them: what a strand's time holds of the meter itself.
func (m *workSpanMeter) calibrate() {
	const tries = 16
	best := int64(math.MaxInt64)
	prev := nanotime()
	for range tries {
		now := nanotime()
		best = min(best, now-prev)
		prev = now
	}
	m.overhead = best
}

// here returns the point the running strand has reached (after a tick).
func (m *workSpanMeter) here() dagPoint { return dagPoint{m.span, m.burdened} }

// resume starts the stealable half of a fork made at point at: its path
// starts there, burdened with a steal.
func (m *workSpanMeter) resume(at dagPoint) {
	m.span, m.burdened = at.span, at.burdened+int64(Burden)
}

// merge joins the path that reached p into the running one.
func (m *workSpanMeter) merge(p dagPoint) {
	m.span = max(m.span, p.span)
	m.burdened = max(m.burdened, p.burdened)
}

// joinMeasured is Join on a worker with a meter: f(a) and then g(b), both
// on w, each half timed as a branch of the fork.
func joinMeasured[A, B, RA, RB any](w *Worker, f func(*Worker, A) RA, a A, g func(*Worker, B) RB, b B) (RA, RB) {
	m := w.meter
	m.tick()
	m.forks++
	at := m.here()
	ra := f(w, a)
	m.tick()
	first := m.here()
	m.resume(at)
	rb := g(w, b)
	m.tick()
	m.merge(first)
	return ra, rb
}

// spawnMeasured is Spawn on a worker with a meter: the frame is pushed as
// Spawn pushes it but stays private (never shared), and its function is
// wrapped so that Sync, which runs it, times it as a branch that started at
// the spawn. The wrapper allocates; a measured run may.
func spawnMeasured[B, RB any](w *Worker, g func(*Worker, B) RB, b B) Spawned[B, RB] {
	d := &w.dq
	d.fast = 0
	m := w.meter
	m.tick()
	m.forks++
	at := m.here()
	i := d.head
	fr, ok := d.cache[i].(*frame[B, RB])
	if !ok {
		fr = newFrame[B, RB](d, i)
	}
	fr.fn = func(w *Worker, b B) RB { return syncMeasured(m, at, w, g, b) }
	fr.arg = b // slot i >= split and never shared: private (deque I2)
	fr.hdr.seq++
	d.head = i + 1
	return Spawned[B, RB]{fr, i, fr.hdr.seq}
}

// syncMeasured runs a spawned g(b) at its Sync as the branch that started
// at the spawn (point at), and joins it into the running strand.
func syncMeasured[B, RB any](m *workSpanMeter, at dagPoint, w *Worker, g func(*Worker, B) RB, b B) RB {
	m.tick()
	cont := m.here()
	m.resume(at)
	r := g(w, b)
	m.tick()
	m.merge(cont)
	return r
}

// goJob records a task forked with Scope.Go in a measured run; it runs
// when its scope is waited for, or when the measured root returns.
func (m *workSpanMeter) goJob(j job) {
	m.tick()
	m.forks++
	q := m.jobs[j.scope]
	if q == nil {
		q = new([]measuredJob)
		m.jobs[j.scope] = q
	}
	*q = append(*q, measuredJob{j, m.here()})
}

// awaitJobs runs the tasks of s forked in the measured run, oldest first,
// until fewer than below of its tasks are unfinished, and reports whether
// that is so (tasks forked outside the run may keep it from being so).
// Each task's end joins the waiting strand.
func (m *workSpanMeter) awaitJobs(w *Worker, s *Scope, below int64) bool {
	q := m.jobs[s]
	for q != nil && len(*q) > 0 && s.n.Load() >= below {
		mj := (*q)[0]
		(*q)[0] = measuredJob{}
		*q = (*q)[1:]
		m.runJob(w, &mj)
	}
	if q != nil && len(*q) == 0 {
		delete(m.jobs, s)
	}
	return s.n.Load() < below
}

// runJob runs one recorded Scope task as the branch forked at its point,
// counts it done in its scope, and joins its end into the running strand.
func (m *workSpanMeter) runJob(w *Worker, mj *measuredJob) {
	m.tick()
	cont := m.here()
	m.resume(mj.at)
	w.runJob(&mj.job)
	w.flushDone() // the scope counts it now: a Wait on it sees n drop
	m.tick()
	m.merge(cont)
}

// drain runs the Scope tasks still recorded when the measured root
// returns: their scopes are waited for later, outside the run, but the
// tasks are part of the computation.
func (m *workSpanMeter) drain(w *Worker) {
	for len(m.jobs) > 0 {
		for s, q := range m.jobs {
			if len(*q) == 0 {
				delete(m.jobs, s)
				continue
			}
			mj := (*q)[0]
			*q = (*q)[1:]
			m.runJob(w, &mj)
		}
	}
}

// handOver gives the Scope tasks not run yet to the pool when the measured
// run panics: the scopes counted them, and their Waits must see them run.
func (m *workSpanMeter) handOver(w *Worker) {
	for s, q := range m.jobs {
		for _, mj := range *q {
			s.forkOutside(w.pool, mj.fn, mj.arg)
		}
		delete(m.jobs, s)
	}
	w.pool.notifyWork(nil)
}
