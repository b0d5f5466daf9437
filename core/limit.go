package core

import "runtime"

// The limit: how many regular workers are active (DESIGN.md,
// "GOMAXPROCS"). A pool made with WithWorkers keeps its n; one made without
// it follows GOMAXPROCS, read again where it costs nothing on the fork path,
// up to the CPUs the process may run on (followedLimit). A limit change
// touches no deque: it only changes which workers look for work.

// numCPU is the number of CPUs the process may run on: runtime.NumCPU, the
// affinity mask read at start. Tests of the limit set it higher to follow a
// GOMAXPROCS above the machine's CPUs.
var numCPU = runtime.NumCPU()

// followedLimit is the limit of a pool that follows GOMAXPROCS: GOMAXPROCS,
// or the CPUs if they are fewer (DESIGN.md, "More Ps than CPUs"). Workers
// beyond the CPUs would not run more work at once; the operating system
// would time-slice them, preempting a worker that holds a frame others
// join on, and a worker with nothing to do would search on a CPU that a
// busy one, or the caller forking a Group, needs. Go's own default
// GOMAXPROCS follows a container's CPU quota; a GOMAXPROCS set above the
// CPUs is capped here.
func followedLimit() int { return min(runtime.GOMAXPROCS(0), numCPU) }

// limited reports whether w is a regular worker beyond the pool's limit: it
// parks once it holds no work, and helps nobody meanwhile.
func (w *Worker) limited() bool {
	return w.index >= int(w.pool.limit.Load())
}

// refreshLimit makes the number of active regular workers equal to
// followedLimit, for a pool that follows GOMAXPROCS. It costs one
// runtime.GOMAXPROCS(0) call when nothing changed. Called by Run from
// outside, by a worker about to sleep and by the governor; never on the
// fork path.
func (p *Pool) refreshLimit() {
	if p.cfg.workersSet {
		return
	}
	if n := followedLimit(); n != int(p.applied.Load()) {
		p.setLimit(n)
	}
}

// setLimit makes the first n regular workers active, creating workers as
// needed, and wakes those that must change state: workers that become
// active leave their limit park, sleepers beyond the limit wake up to park.
// No deque is touched: a limit change only changes which workers look for
// work, so no frame is dropped or run twice (DESIGN.md, "GOMAXPROCS").
func (p *Pool) setLimit(n int) {
	p.growMu.Lock()
	old := int(p.limit.Load())
	if n == old || p.quit.Load() {
		p.growMu.Unlock()
		return
	}
	var fresh []*Worker
	for p.nRegular < n {
		fresh = append(fresh, p.newWorker(regularWorker))
	}
	p.limit.Store(int32(n)) // before the roster: a worker that reads the new roster sees the new limit
	gate := make(chan struct{})
	for _, w := range fresh {
		p.startWorker(w, gate)
	}
	p.publish(n)
	close(gate)
	p.applied.Store(int32(n))
	regular := p.roster.Load().regular
	p.growMu.Unlock()
	for _, w := range regular[min(old, n):min(max(old, n), len(regular))] {
		// Growing: w may be parked by limit. Shrinking: w may sleep in the
		// idle list, where only new work would wake it. Either way it must
		// look at the limit again.
		p.wakeWorker(w)
	}
}

// Workers returns the number of regular workers the pool runs: the n of
// WithWorkers, or for a pool that follows GOMAXPROCS the value it read last
// (at the last Run from outside, worker going idle or governor tick),
// capped at the CPUs the process may run on (runtime.NumCPU). Spares that
// stand in for blocked workers are not counted.
func (p *Pool) Workers() int { return int(p.limit.Load()) }
