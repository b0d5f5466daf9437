package core

import "github.com/gofork/gofork/topology"

// A roster is the set of a pool's workers as thieves see it: immutable once
// published, replaced as a whole (one atomic pointer store) when a worker is
// created or the limit changes. See DESIGN.md, "Workers in real programs".
type roster struct {
	// all holds every worker record ever created, by ID (creation order):
	// regular workers, spares and guests.
	all []*Worker
	// regular holds the regular workers in creation order; the first limit
	// of them are active.
	regular []*Worker
	// active is regular[:limit]: the workers thieves draw victims from.
	active []*Worker
	// samplers[k] is active[k]'s topology-weighted victim distribution over
	// active (it returns indices into active).
	samplers []victimSampler
	// extras are the workers not in active (spares, guests, regular
	// workers beyond the limit): thieves look at each of them with one load
	// after their draws over active, since such a worker may hold shared
	// frames.
	extras []*Worker
}

// publish makes a roster of the pool's workers with the first limit regular
// workers active visible to thieves. Caller holds p.growMu.
func (p *Pool) publish(limit int) {
	n := len(p.created)
	r := &roster{all: p.created[:n:n]}
	for _, w := range r.all {
		if !w.spare && !w.guest {
			r.regular = append(r.regular, w)
		}
	}
	limit = min(limit, len(r.regular))
	r.active = r.regular[:limit:limit]
	cpus := make([]int, limit)
	for k, w := range r.active {
		cpus[k] = w.cpu
	}
	r.samplers = newVictimSamplers(p.topology, cpus)
	for _, w := range r.all {
		if w.index < 0 || w.index >= limit { // spares, guests, regular workers beyond the limit
			r.extras = append(r.extras, w)
		}
	}
	p.roster.Store(r) // pairs with roster.Load in trySteal and every reader
}

// The kinds of worker record newWorker makes.
type workerKind uint8

const (
	regularWorker workerKind = iota
	spareWorker
	guestWorker // a record a caller's goroutine borrows (guest.go); no goroutine of its own
)

// newWorker creates a worker record of the given kind with the next ID and
// places it on a CPU (a guest runs wherever its caller does: CPU -1, the
// first NUMA node). Caller holds p.growMu, then starts a regular worker or
// spare (startWorker, behind a gate), publishes a roster that contains it
// and opens the gate, in that order: a roster never shows a worker whose
// pinning result is still being written, and no worker runs a task before
// a roster counts it, so an ID a task sees is always below MaxWorkerID.
func (p *Pool) newWorker(kind workerKind) *Worker {
	id := len(p.created)
	w := &Worker{pool: p, id: id, spare: kind == spareWorker, guest: kind == guestWorker, index: -1, wake: make(chan struct{}, 1)}
	w.rng = splitmix(p.seed + uint64(id)*0x9E3779B97F4A7C15)
	w.dq.init(p.cfg.policy == HelpFirst)
	w.jobs.UseRings(&jobRings) // a ring a burst grew goes back there when the deque is trimmed
	// Regular workers and spares take the CPUs of one spread order
	// (topology.Machine.Spread, whose every prefix is spread as well as it
	// can be): regular workers by index, so that the
	// active set is always the best-spread prefix, spares after them.
	p.created = append(p.created, w)
	slot := 0
	switch kind {
	case guestWorker:
		w.cpu = -1 // node 0
		return w
	case spareWorker:
		slot = p.nRegular + p.nSpares
		p.nSpares++
	default:
		w.index = p.nRegular
		slot = w.index
		p.nRegular++
	}
	w.cpu = p.spread[slot%len(p.spread)]
	w.node = p.nodeIndex[p.topology.Node(w.cpu)]
	return w
}

// startWorker starts w's goroutine and returns once it is in the worker
// table, so that no task can run on it unrecognised. The goroutine looks for
// work only once gate is closed: the caller, who holds p.growMu, first
// publishes a roster with w (newWorker).
func (p *Pool) startWorker(w *Worker, gate <-chan struct{}) {
	p.exited.Add(1) // under growMu, before quit: Close's exited.Wait cannot have started
	p.goroutines.Add(1)
	ready := make(chan struct{})
	go func() {
		clearLabels() // a worker starts with no labels, never its starter's (labels.go)
		if p.cfg.pinning {
			// On success the goroutine stays locked to its thread until
			// it exits, and the runtime then retires the pinned thread.
			if err := pinCurrentThread(w.cpu); err != nil {
				w.pinErr = err
			} else {
				w.pinned.Store(true)
			}
		}
		register(w, curg())
		close(ready) // publishes pinErr and pinned to the starter
		<-gate
		w.loop(false)
	}()
	<-ready
}

// MaxWorkerID returns one more than the largest worker ID the pool has
// given so far (IDs are given in creation order, to regular workers,
// spares and guests alike, and never reused): a table indexed by Worker.ID
// needs this many entries now. It grows when GOMAXPROCS grows past its
// earlier values, a spare is started, or more callers run roots from
// outside at once than ever before.
func (p *Pool) MaxWorkerID() int { return len(p.roster.Load().all) }

// placeWorkers reads the topology and the order in which workers are placed
// on its CPUs. With pinning, the topology is first restricted to the CPUs
// this process may run on (a cpuset or taskset limit).
func (p *Pool) placeWorkers() {
	t := p.cfg.topology
	if t == nil {
		t = topology.Current()
	}
	if p.cfg.pinning {
		if allowed, err := pinAllowedCPUs(); err == nil {
			t = t.Restrict(allowed)
		}
	}
	p.topology = t
	p.spread = t.Spread()
	p.nodeIndex = map[int]int{}
	for k, node := range t.Nodes() {
		p.nodeIndex[node] = k
	}
	p.nodes = make([]nodeCount, len(p.nodeIndex))
}
