package core

// The producer's side of the sleep protocol (DESIGN.md, "Sleep and wake"):
// work made available, then a look at the idle counts, and a wake-up when
// someone sleeps and nobody searches.

// notifyWork is called after work was made available to thieves, by worker
// from (nil for a root submitted from outside). If someone sleeps and nobody
// searches, one sleeper is woken, from from's node if possible. On a machine
// with several NUMA nodes, a sleeper of from's node is also woken when that
// node has no searcher, so that the node's work is found by a near thief
// (libfork's NUMA-aware lazy scheduler keeps one thief awake per node).
func (p *Pool) notifyWork(from *Worker) {
	c := p.sleep.counts.Load()
	if c == 0 {
		// Every worker is inside a task: if they are blocked, only a
		// spare will take this work. Let the governor look now.
		p.gov.poke()
		return
	}
	if c>>32 == 0 { // nobody sleeps
		return
	}
	if uint32(c) == 0 {
		p.wakeOne(from)
		return
	}
	if from != nil && len(p.nodes) > 1 && p.nodes[from.node].searching.Load() == 0 {
		p.wakeInNode(from.node)
	}
}

// wakeOne wakes a sleeping worker, if any: the most recently asleep one of
// near's node if there is one (near may be nil), else the most recently
// asleep one.
func (p *Pool) wakeOne(near *Worker) {
	s := &p.sleep
	s.mu.Lock()
	n := len(s.idle)
	if n == 0 {
		s.mu.Unlock()
		return
	}
	w := s.idle[n-1]
	if near != nil {
		if v := p.sleeperInNode(near.node); v != nil {
			w = v
		}
	}
	p.takeIdle(w)
	s.mu.Unlock()
	w.signal()
}

// wakeInNode wakes the most recently asleep worker of node, if any.
func (p *Pool) wakeInNode(node int) {
	s := &p.sleep
	s.mu.Lock()
	w := p.sleeperInNode(node)
	if w != nil {
		p.takeIdle(w)
	}
	s.mu.Unlock()
	if w != nil {
		w.signal()
	}
}

// sleeperInNode returns the most recently asleep worker of node, or nil.
// Caller holds sleep.mu.
func (p *Pool) sleeperInNode(node int) *Worker {
	idle := p.sleep.idle
	for k := len(idle) - 1; k >= 0; k-- {
		if w := idle[k]; w.node == node {
			return w
		}
	}
	return nil
}

// wakeWorker wakes w whatever it waits for: asleep (it is taken off the idle
// list, counted as searching), parked or latched (a completed latch, a
// RunOn, a limit change). A retired spare only looks again: activateSpare
// is what activates it.
func (p *Pool) wakeWorker(w *Worker) {
	s := &p.sleep
	s.mu.Lock()
	p.takeIdle(w)
	s.mu.Unlock()
	w.signal()
}

// wakeAll wakes every worker, spares included (Close).
func (p *Pool) wakeAll() {
	for _, w := range p.roster.Load().all {
		p.wakeWorker(w)
	}
}
