package core

import "time"

// Stats is a snapshot of a pool's counters, one entry per worker ever
// started (regular workers, spares and guest records, by ID). A worker keeps its counters
// privately and publishes them when it finishes a stolen task or a root and
// when it goes to sleep, so a snapshot taken while the pool is busy may lag
// slightly behind. Joins whose second half runs on the forking worker are
// not counted: counting them would cost a memory increment on the fork fast
// path; Shares counts the forks that exposed work to thieves.
type Stats struct {
	// PerWorker has one record per worker ever started, indexed by ID:
	// regular workers, spares and guest records, running or not. Its length
	// is Pool.MaxWorkerID, which grows with bursts of spares and guests; the
	// number of workers running now is Active (Pool.Workers).
	PerWorker []WorkerStats
	Uptime    time.Duration // since New

	Active         int    // regular workers running now (Pool.Workers)
	Spares         int    // spares running now in place of blocked workers
	Blocked        int    // workers inside Blocking now
	SparesStarted  uint64 // spare activations since New (Blocking and detected stalls)
	SpareLimitHits uint64 // spares not started because WithMaxSpares spares ran
	// MaxRootWait is the longest time a caller of Run or RunOn waited for
	// its root to start, from the call to the start of the root, whoever
	// ran it: the caller's own goroutine (a Run from outside), the worker
	// it was submitted to, or a busy worker at a poll point.
	MaxRootWait time.Duration
	// LostWakeups counts the sleepers the governor woke because shared work
	// waited, nobody searched and the idle list did not change for a long
	// while (far longer than a thread caught between the two steps of the
	// sleep protocol is kept from running): wake-ups the protocol should
	// have made. The protocol loses none, so it is 0 unless the runtime has
	// a bug; tests assert it.
	LostWakeups uint64
}

// WorkerStats are one worker's counters.
type WorkerStats struct {
	Shares        uint64        // times this worker made private frames stealable
	Stolen        uint64        // frames this worker stole from others and ran
	StealAttempts uint64        // steal attempts (successful or not)
	Roots         uint64        // roots from Run and RunOn run on this worker
	RootsBusy     uint64        // of Roots, those taken at a poll point while running a task
	Sleeps        uint64        // times the worker went to sleep
	Idle          time.Duration // time spent asleep, parked or retired
	Busy          time.Duration // Uptime - Idle: running or looking for work
	Spare         bool          // a spare worker (see Blocking)
	Guest         bool          // a guest record: callers' goroutines ran their roots with it (see Run)
	// Parked: a regular worker parked because the pool runs fewer workers
	// than it has (GOMAXPROCS shrank), or a retired spare. An idle worker
	// that merely sleeps is not parked.
	Parked   bool
	CPU      int    // the CPU the worker is placed on (see WithPinning)
	Pinned   bool   // the worker's thread is pinned to CPU
	PinError string // why pinning failed, if it was asked for
}

// Tasks returns the number of tasks the worker ran as separate tasks: stolen
// frames and roots.
func (s WorkerStats) Tasks() uint64 { return s.Stolen + s.Roots }

// Total sums the counters of all workers.
func (s Stats) Total() WorkerStats {
	var t WorkerStats
	for _, w := range s.PerWorker {
		t.Shares += w.Shares
		t.Stolen += w.Stolen
		t.StealAttempts += w.StealAttempts
		t.Roots += w.Roots
		t.RootsBusy += w.RootsBusy
		t.Sleeps += w.Sleeps
		t.Idle += w.Idle
		t.Busy += w.Busy
	}
	return t
}

// Stats returns a snapshot of the pool's counters.
func (p *Pool) Stats() Stats {
	all := p.roster.Load().all
	now := p.now()
	s := Stats{
		PerWorker:      make([]WorkerStats, len(all)),
		Uptime:         time.Duration(now),
		Active:         p.Workers(),
		Spares:         int(p.spares.active.Load()),
		Blocked:        int(p.spares.blocked.Load()),
		SparesStarted:  p.spares.started.Load(),
		SpareLimitHits: p.spares.limitHits.Load(),
		MaxRootWait:    time.Duration(p.maxRootWait.Load()),
		LostWakeups:    p.lostWakeups.Load(),
	}
	p.sleep.mu.Lock() // for the workers' idle states
	defer p.sleep.mu.Unlock()
	for i, w := range all {
		// Both loads race benignly with a worker waking up: the current
		// sleep may be counted in neither or (for an instant) both.
		idle := time.Duration(w.stats.idleNanos.Load())
		if since := w.stats.sleepingSince.Load(); since != 0 {
			idle += time.Duration(now - (since - 1))
		}
		idle = min(idle, s.Uptime)
		s.PerWorker[i] = WorkerStats{
			Shares:        w.stats.shares.Load(),
			Stolen:        w.stats.stolen.Load(),
			StealAttempts: w.stats.stealAttempts.Load(),
			Roots:         w.stats.roots.Load(),
			RootsBusy:     w.stats.rootsBusy.Load(),
			Sleeps:        w.stats.sleeps.Load(),
			Idle:          idle,
			Busy:          s.Uptime - idle,
			CPU:           w.cpu,
			Pinned:        w.pinned.Load(),
			Spare:         w.spare,
			Guest:         w.guest,
			Parked:        w.idle == parked || w.idle == retired,
		}
		if w.pinErr != nil {
			s.PerWorker[i].PinError = w.pinErr.Error()
		}
	}
	return s
}
