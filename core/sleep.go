package core

import (
	"sync"
	"sync/atomic"
	"time"
)

// sleepState is a pool's record of which workers sleep and how many search.
//
// Protocol (see DESIGN.md, "Sleep and wake"):
//
//   - A worker that finds no work after its search rounds and its spin time
//     (WithSpin) decrements searching, adds itself to idle and increments
//     sleeping, then checks once more for work (and for its latch, when it
//     waits on a stolen frame) before it blocks on its wake channel.
//   - Whoever makes work available (a push that shares frames, a Run that
//     submits a root) does so first and then reads sleeping and searching: if
//     someone sleeps and nobody searches, it wakes one sleeper.
//
// Both sides write first and read second with sequentially consistent
// atomics (Dekker's pattern), so either the sleeper's last check sees the new
// work or the producer sees the sleeper: a wake-up is never lost. A thief that
// completes a frame whose owner sleeps on it wakes that owner directly.
type sleepState struct {
	mu   sync.Mutex
	idle []*Worker // sleeping workers, most recent last; guarded by mu
	// retired are the spares waiting to be activated again (spare.go);
	// guarded by mu. They are not counted in counts.
	retired []*Worker

	// counts packs the number of workers searching for work (low 32 bits)
	// and the number asleep (high 32 bits, == len(idle)). One word, so that
	// Join's fast path learns with a single load whether any worker is idle
	// (then a fork shares its frame at once rather than keeping it private).
	counts atomic.Uint64
}

const (
	oneSearching = 1
	oneSleeping  = 1 << 32
)

// nodeCount is one NUMA node's number of searching workers, padded to its own
// cache line. It is a heuristic on top of the global counts (Lazy keeps one
// searcher per node while work exists, see notifyWork); correctness (no lost
// wake-up) rests on the global word alone.
type nodeCount struct {
	searching atomic.Int32
	_         [cacheLinePad - 4]byte
}

func (s *sleepState) sleeping() uint32 { return uint32(s.counts.Load() >> 32) }

// addSearching adds d (+1 or -1) to the number of searching workers, in the
// pool and in w's NUMA node, and returns both new counts.
func (p *Pool) addSearching(w *Worker, d int) (all uint32, node int32) {
	all = uint32(p.sleep.counts.Add(uint64(int64(d))))
	node = p.nodes[w.node].searching.Add(int32(d))
	return all, node
}

func (s *sleepState) addSleeping(d int) {
	s.counts.Add(uint64(int64(d) << 32))
}

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

// wakeWorker wakes w if it sleeps or is parked (a completed latch, a RunOn,
// a limit change).
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

// takeIdle takes w off the idle list, if it is there, on behalf of a waker:
// w is counted as searching from now on (the count moves from sleeping to
// searching in one atomic step), so that producers that run before w is
// scheduled do not wake more sleepers for the same work (the Go runtime's
// nmspinning hand-off). Caller holds sleep.mu.
func (p *Pool) takeIdle(w *Worker) {
	if p.unlistIdle(w) {
		p.sleep.counts.Add(^uint64(oneSleeping - oneSearching - 1)) // searching+1, sleeping-1
		p.nodes[w.node].searching.Add(1)
		w.counted = true
	}
}

// removeIdle takes w off the idle list, if it is there, on its own behalf.
// Caller holds sleep.mu.
func (p *Pool) removeIdle(w *Worker) {
	if p.unlistIdle(w) {
		p.sleep.addSleeping(-1)
	}
}

func (p *Pool) unlistIdle(w *Worker) bool {
	if !w.asleep {
		return false
	}
	s := &p.sleep
	for k, v := range s.idle {
		if v == w {
			s.idle = append(s.idle[:k], s.idle[k+1:]...)
			break
		}
	}
	w.asleep = false
	return true
}

// signal hands w a wake token; a token already pending is enough.
func (w *Worker) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// sleep blocks w until it is woken. With latch != nil, w waits on it (a
// stolen frame, a scope) and is also woken when it is done. It returns true
// if the waker already counts w as searching (see takeIdle).
func (w *Worker) sleep(latch latch) (counted bool) {
	p := w.pool
	s := &p.sleep
	w.publish()
	if latch == nil {
		// Nothing runs on this worker: drop what the cached frames reference.
		w.dq.releaseFrames(w.dq.head)
	}

	s.mu.Lock()
	s.idle = append(s.idle, w)
	w.asleep = true
	s.addSleeping(1)
	s.mu.Unlock()

	// Last check, after announcing (pairs with notifyWork's loads).
	if p.workAvailable(w) || p.quit.Load() || latch != nil && !latch.announce(w) {
		s.mu.Lock()
		p.removeIdle(w)
		counted, w.counted = w.counted, false
		s.mu.Unlock()
		return counted
	}

	w.waitWake()
	w.stats.sleeps.Add(1)

	s.mu.Lock()
	p.removeIdle(w) // a stale token may have woken us while still listed
	counted, w.counted = w.counted, false
	s.mu.Unlock()
	if latch != nil {
		latch.withdraw(w)
	}
	return counted
}

// waitWake blocks until w's wake channel has a token, counting the time as
// idle in Stats (sleeping, parked by the limit, or a retired spare).
func (w *Worker) waitWake() {
	start := time.Now()
	w.stats.sleepingSince.Store(start.UnixNano())
	<-w.wake
	w.stats.idleNanos.Add(int64(time.Since(start)))
	w.stats.sleepingSince.Store(0)
}

// workAvailable reports whether any work could be taken now by w: a root
// in the injector or its inbox, or a shared frame on any worker (the same
// workers trySteal looks at: active ones and extras).
func (p *Pool) workAvailable(w *Worker) bool {
	if p.inj.n.Load() > 0 || !p.outside.Empty() || !w.inbox.stack.Empty() || w.jobs.Len() > 0 {
		return true
	}
	for _, v := range p.roster.Load().all {
		if v != w && (v.dq.hasShared() || v.jobs.Len() > 0) {
			return true
		}
	}
	return false
}
