package core

import "sync/atomic"

// Spare workers stand in for blocked ones (DESIGN.md, "Workers in real
// programs"). A spare is an ordinary worker with its own deque; it differs
// from a regular worker only at its idle points:
//
//   - it is activated by Blocking (at once, for the duration of the call) or
//     by the governor (for a detected stall), counted as searching before it
//     runs, as a woken sleeper is (handSpare);
//   - it retires when more spares run than are wanted: at a task boundary,
//     or when its search finds nothing (a spare still wanted sleeps in the
//     idle list like any worker, and is woken to retire once it is not);
//   - a retired spare waits on its wake channel, in the pool's list of
//     retired spares, to be activated again; after the pool's keep-alive
//     its goroutine ends and its record stays in the list, to get a new
//     goroutine when it is activated (keepalive.go).
//
// Wanted spares are the workers inside Blocking plus the governor's
// compensation for stalls; active spares never exceed WithMaxSpares.
type spareState struct {
	// active counts spares activated and not retired; CAS-bounded by
	// maxSpares. Written by activators and retiring spares.
	active atomic.Int32
	// blocked counts workers inside Blocking (outermost calls): each wants
	// a spare for as long as it is blocked.
	blocked atomic.Int32
	// stall is the governor's compensation: spares started for detected
	// stalls and not yet let go. Written by the governor only.
	stall atomic.Int32

	started   atomic.Uint64 // activations, for Stats
	limitHits atomic.Uint64 // activations refused by WithMaxSpares, for Stats
}

// wanted is the number of spares the pool should run now.
func (s *spareState) wanted() int32 { return s.blocked.Load() + s.stall.Load() }

// activateSpare starts a spare worker, reusing a retired one if there is
// one, and reports whether it did: false when WithMaxSpares spares already
// run (counted in Stats) or the pool is quitting.
func (p *Pool) activateSpare() bool {
	s := &p.spares
	for {
		a := s.active.Load()
		if int(a) >= p.cfg.maxSpares {
			s.limitHits.Add(1)
			return false
		}
		if s.active.CompareAndSwap(a, a+1) { // reserve a place under the bound
			break
		}
	}
	sl := &p.sleep
	sl.mu.Lock()
	if n := len(sl.retired); n > 0 {
		w := sl.retired[n-1]
		sl.retired = sl.retired[:n-1]
		p.handSpare(w)
		sl.mu.Unlock()
		s.started.Add(1)
		w.signal()
		return true
	}
	sl.mu.Unlock()

	p.growMu.Lock()
	defer p.growMu.Unlock()
	if p.quit.Load() {
		s.active.Add(-1)
		return false
	}
	w := p.newWorker(spareWorker)
	sl.mu.Lock()
	p.handSpare(w)
	sl.mu.Unlock()
	s.started.Add(1)
	gate := make(chan struct{})
	p.startWorker(w, gate)
	p.publish(int(p.limit.Load()))
	close(gate)
	return true
}

// handSpare activates w, a retired spare off the retired list or a new one
// not yet started: it is woken, counted as searching before it runs, as a
// sleeper taken by a waker is (takeIdle). Caller holds sleep.mu.
func (p *Pool) handSpare(w *Worker) {
	w.idle = woken
	p.count(w, 1, 0)
}

// shouldRetire reports whether the spare w, at a task boundary, is one too
// many, and if so takes it out of the active count: it must then retire.
func (w *Worker) shouldRetire() bool {
	s := &w.pool.spares
	for {
		a := s.active.Load()
		if a <= s.wanted() {
			return false
		}
		if s.active.CompareAndSwap(a, a-1) {
			if debugChecks && a-1 < 0 {
				panic("core: invariant: a spare retired that was not active (active spares < 0)")
			}
			return true
		}
	}
}

// excessSpare reports whether w is a spare and more spares are active than
// wanted. It is the last check of a spare about to sleep for work, after it
// entered the idle list: a Blocking call that returns lowers blocked before
// retireIdle looks at the idle list under sleep.mu, so either that look
// finds the spare there and wakes it, or the lock ordered the decrement
// before the spare's entry and this check sees it. Without it a spare that
// checked shouldRetire just before the decrement slept on, active, with no
// work and nobody to wake it.
func (w *Worker) excessSpare() bool {
	s := &w.pool.spares
	return w.spare && s.active.Load() > s.wanted()
}

// retireIdle wakes the spares that sleep in the idle list, as many as
// more spares run than are wanted, so that they retire (after one more
// search: they are woken as searching, like any sleeper). Called when a
// blocked worker comes back and when the governor lets spares go.
func (p *Pool) retireIdle() {
	excess := int(p.spares.active.Load() - p.spares.wanted())
	if excess <= 0 {
		return
	}
	s := &p.sleep
	var woken []*Worker
	s.mu.Lock()
	for k := len(s.idle) - 1; k >= 0 && len(woken) < excess; k-- {
		if w := s.idle[k]; w.spare {
			woken = append(woken, w)
		}
	}
	for _, w := range woken {
		p.takeIdle(w)
	}
	s.mu.Unlock()
	for _, w := range woken {
		w.signal()
	}
}
