package core

import (
	"slices"
	"sync"
	"sync/atomic"
)

// The idle state machine (DESIGN.md, "Sleep and wake"). Every worker has
// one idleState, written under the pool's sleep.mu; a worker that stops
// running tasks waits in wait, for one of the reasons of waitReason, and
// every change of the pool's searching and sleeping counts goes through
// count.
//
//	awake --wait(forWork)-------> asleep  --waker (takeIdle)--> woken --leaveIdle--> awake
//	awake --wait(forLimit)------> parked  --limit, inbox, quit--------------------> awake
//	awake --wait(forLatch)------> latched --latch done, inbox, wake-up------------> awake
//	awake --wait(forActivation)-> retired --activateSpare--> woken --leaveIdle---> awake
//	asleep --a guest's lend-----> lent    --giveBack--> asleep;   a lent wake-up (lentWake) --leaveIdle--> awake
//	awake --wait(forPlace)------> lent    (a guest claimed its place while it searched)
//
// A woken worker was counted as searching by its waker, before it runs, so
// that producers that run meanwhile do not wake another worker for the same
// work (the Go runtime's nmspinning hand-off); leaveIdle turns that count
// into the worker's own (Worker.searching).

// sleepState is a pool's record of which workers are idle and how many
// search.
//
// Protocol (see DESIGN.md, "Sleep and wake"):
//
//   - A worker that finds no work after its search rounds and its spin time
//     (WithSpin) stops searching, adds itself to idle and counts itself
//     sleeping, then checks once more for work (and for its latch, when it
//     waits on one) before it blocks on its wake channel.
//   - Whoever makes work available (a push that shares frames, a Run that
//     submits a root) does so first and then reads counts: if someone sleeps
//     and nobody searches, it wakes one sleeper.
//
// Both sides write first and read second with sequentially consistent
// atomics (Dekker's pattern), so either the sleeper's last check sees the
// new work or the producer sees the sleeper: a wake-up is never lost. A
// thief that completes a frame whose owner sleeps on it wakes that owner
// directly.
type sleepState struct {
	mu   sync.Mutex
	idle []*Worker // the workers asleep, most recent last; guarded by mu
	// retired are the spares waiting to be activated again (spare.go);
	// guarded by mu. They are not counted in counts.
	retired []*Worker

	// epoch counts the changes of idle (a worker added or taken off);
	// guarded by mu. The governor compares it over time (rescue).
	epoch uint64

	// counts packs the number of workers searching for work (low 32 bits)
	// and the number asleep (high 32 bits, == len(idle)). One word, so that
	// Join's fast path learns with a single load whether any worker is idle
	// (then a fork shares its frame at once rather than keeping it private).
	counts atomic.Uint64
}

func (s *sleepState) sleeping() uint32 { return uint32(s.counts.Load() >> 32) }

// epochNow returns the idle list's epoch.
func (s *sleepState) epochNow() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.epoch
}

// nodeCount is one NUMA node's number of searching workers, padded to its own
// cache line. It is a heuristic on top of the global counts (Lazy keeps one
// searcher per node while work exists, see notifyWork); correctness (no lost
// wake-up) rests on the global word alone.
type nodeCount struct {
	searching atomic.Int32
	_         [cacheLinePad - 4]byte
}

// An idleState is where a worker stands in the idle protocol.
type idleState uint8

const (
	awake   idleState = iota // running a task, or searching for one
	woken                    // taken off a list by a waker that counted it as searching: it searches next
	asleep                   // in the idle list, counted in sleeping: waits for work, or for its latch too
	parked                   // beyond the limit, with nothing to do: in no list, counted nowhere
	latched                  // beyond the limit, on a latch: in no list, counted nowhere
	retired                  // a spare too many, in the retired list: counted nowhere
	lent                     // asleep, its place held by a guest (guest.go): in no list, counted nowhere
)

// A waitReason is why a worker waits (wait), and so what ends the wait.
type waitReason uint8

const (
	// forWork: no work found. Asleep until a producer wakes it, or its
	// latch (if any) is done; one wake-up, then it looks again.
	forWork waitReason = iota
	// forLimit: a regular worker beyond the limit, holding no work. Parked
	// until the limit grows past it, a root arrives in its inbox (RunOn),
	// or the pool quits: nothing else wakes it, since it is in neither the
	// idle list nor the counts.
	forLimit
	// forLatch: a worker beyond the limit waiting on a latch, which it
	// does without helping. Latched until the latch is done or anything
	// wakes it (a root for its inbox, which the caller runs); one wake-up.
	forLatch
	// forActivation: a spare too many. Retired until activateSpare hands
	// it work again, or the pool quits.
	forActivation
	// forPlace: a regular worker whose place a guest claimed, with
	// nothing found in its search (guest.go). Lent until a wake-up, as a
	// lent sleeper is; asleep, as forWork, if the guest gave the place
	// back before it got here.
	forPlace
)

// count is the one place the idle counts change: it adds searching and
// sleeping (each -1, 0 or +1) to the pool's counts word in one atomic step
// and searching to w's node, and returns the number of workers searching
// after it, in the pool and in w's node (0 when searching is 0). A change
// of sleeping needs sleep.mu held, with w added to or taken off the idle
// list first.
func (p *Pool) count(w *Worker, searching, sleeping int) (all uint32, node int32) {
	c := p.sleep.counts.Add(uint64(int64(searching)) + uint64(int64(sleeping)<<32))
	if searching != 0 {
		node = p.nodes[w.node].searching.Add(int32(searching))
	}
	if debugChecks {
		p.checkCounts(c, node, sleeping != 0)
	}
	return uint32(c), node
}

// startSearching counts w as searching, unless a waker did already. Owner
// only.
func (w *Worker) startSearching() {
	if debugChecks {
		w.checkMaySearch()
	}
	if !w.searching {
		w.pool.count(w, 1, 0)
		w.searching = true
	}
}

// stopSearching takes w out of the searching count, if it is in it. If w
// was the last worker searching while others sleep, and shared work waits,
// it wakes one: a producer that published that work while w was counted
// saw a searcher and woke nobody, and w is leaving without having found it
// (a waiter woken by its latch goes back to its task; a worker beyond the
// limit parks). This is the Go runtime's rule for a spinning M that stops
// spinning. Dekker: w's decrement, then its loads of the work; the
// producer's publication, then its load of the count. Owner only.
func (w *Worker) stopSearching() {
	if !w.searching {
		return
	}
	w.searching = false
	p := w.pool
	if all, _ := p.count(w, -1, 0); all == 0 && p.sleep.sleeping() != 0 && p.workWaiting(nil) {
		p.wakeOne(w)
	}
}

// wait blocks w, idle for the reason why (see waitReason), on the latch l
// if why is forWork or forLatch and w waits on one. It reports quit for
// forLimit and forActivation when the pool is quitting instead: w must exit.
// It reports quit and expired when w waited without a latch for the
// pool's keep-alive and its goroutine must end (keepalive.go).
// w is not counted as searching when it calls wait, and is when it returns
// from a waker's hand-off (woken).
func (w *Worker) wait(why waitReason, l latch) (quit, expired bool) {
	p := w.pool
	if why == forWork && l == nil && w.claim.Load() != nil {
		why = forPlace // the idle loop of a worker whose place a guest claimed
	}
	w.publish()
	if l == nil {
		// Nothing runs on w meanwhile: drop what its cached frames reference.
		w.dq.releaseFrames(w.dq.head)
	}
	p.enterIdle(w, why)
	if h := p.idleHook.Load(); h != nil {
		(*h)(w)
	}
	return w.waitIdle(why, l, false)
}

// waitIdle is wait after enterIdle: it blocks until what why waits for
// happens. woke says a wake-up came already: the goroutine that revives a
// worker whose keep-alive expired (keepalive.go) carries on from there.
func (w *Worker) waitIdle(why waitReason, l latch, woke bool) (quit, expired bool) {
	p := w.pool
	slept := woke
	// The first look is the last check after announcing (pairs with
	// notifyWork's loads, or with whatever the reason waits for, which is
	// written before its waker signals).
	for {
		for woke || w.mustWait(why, l) {
			if !woke && w.waitWake(why, l) {
				return true, true // the goroutine ends, w stays where it waits
			}
			woke, slept = false, true
			for w.staleWhileLent(l) {
				if w.waitWake(why, l) {
					return true, true
				}
			}
			if why != forLimit && why != forActivation {
				break // one wake-up: the caller looks again
			}
		}
		if why == forActivation && p.quit.Load() && w.idleState() == retired {
			return true, false // never activated again: the pool is gone
		}
		if p.leaveIdle(w, l) {
			break
		}
		// A guest took w's place (lend) after its last look: it waits
		// as a lent worker does, and mustWait now sees it lent. It
		// announces itself on its latch again there, so the announcement
		// it may have made is undone first (a frame's latch announced
		// twice would read as done, and w would spin).
		if l != nil {
			l.withdraw(w)
		}
	}
	if slept && why == forWork {
		w.stats.sleeps.Add(1)
	}
	if slept && l != nil {
		l.withdraw(w)
	}
	return why == forLimit && p.quit.Load(), false
}

// staleWhileLent reports whether w, woken while a guest holds its place,
// was woken by a stale token (a wake-up meant for an earlier wait): it is
// still lent, and nothing that a lent worker wakes for has happened (its
// latch l, a root in its inbox, a limit that leaves it out, Close; each is
// written before its waker signals). Leaving would clear the claim and let
// a second goroutine run the work of the guest's one place.
func (w *Worker) staleWhileLent(l latch) bool {
	return w.idleState() == lent && !w.lentWake(l)
}

// lentWake reports whether something that a lent worker wakes for has
// happened: its latch l is done, a root is in its inbox, the limit leaves
// it out, or the pool closes. Work waiting is not among them: the guest
// holds the place, and giveBack looks for work when it hands it back.
func (w *Worker) lentWake(l latch) bool {
	return w.pool.quit.Load() || w.inbox.ready() || w.limited() || l != nil && l.probe()
}

// mustWait reports whether w, announced idle for why, must go on waiting.
func (w *Worker) mustWait(why waitReason, l latch) bool {
	p := w.pool
	switch why {
	case forWork:
		if w.idleState() == lent {
			// A guest took its place from the idle list (lend) after it
			// announced itself asleep: no last look for work, as for
			// forPlace; the guest's giveBack makes it.
			return !w.lentWake(nil) && (l == nil || l.announce(w))
		}
		return !p.workWaiting(w) && !w.inbox.ready() && w.jobs.Len() == 0 && !p.quit.Load() &&
			!w.excessSpare() && (l == nil || l.announce(w))
	case forLimit:
		return w.limited() && !w.inbox.ready() && !p.quit.Load()
	case forLatch:
		return l.announce(w)
	case forPlace:
		if w.idleState() == lent {
			return !p.quit.Load() // the guest holds the place: no last check for work (guest.go)
		}
		return w.mustWait(forWork, nil)
	default: // forActivation
		return w.idleState() == retired && !p.quit.Load()
	}
}

// enterIdle moves the awake w into the state that why waits in: asleep in
// the idle list and counted as sleeping, retired in the retired list, or
// parked or latched in no list.
func (p *Pool) enterIdle(w *Worker, why waitReason) {
	s := &p.sleep
	s.mu.Lock()
	if debugChecks {
		p.checkEnterIdle(w, why)
	}
	switch why {
	case forWork:
		s.idle = append(s.idle, w)
		s.epoch++
		w.idle = asleep
		p.count(w, 0, 1)
	case forLimit:
		w.idle = parked
	case forLatch:
		w.idle = latched
	case forActivation:
		s.retired = append(s.retired, w)
		w.idle = retired
	case forPlace:
		if w.claim.Load() != nil {
			w.idle = lent // in no list, counted nowhere
			break
		}
		// The guest gave the place back meanwhile: sleep as forWork does.
		s.idle = append(s.idle, w)
		s.epoch++
		w.idle = asleep
		p.count(w, 0, 1)
	}
	s.mu.Unlock()
}

// leaveIdle makes w awake again and reports true. A worker still asleep
// (its last check found work, or a stale token woke it) takes itself off
// the idle list and out of sleeping; a woken one keeps the searching count
// its waker gave it as its own. A lent one leaves only for what a lent
// worker wakes for (lentWake, l its latch): otherwise a guest took its
// place after its last look, and leaveIdle reports false and leaves it
// lent, so that the guest's root keeps its one place (a thief of the
// guest's frames would make two goroutines run in it). The check is made
// under sleep.mu, which lend holds too. Owner only.
func (p *Pool) leaveIdle(w *Worker, l latch) bool {
	s := &p.sleep
	s.mu.Lock()
	if w.idle == lent && !w.lentWake(l) {
		s.mu.Unlock()
		return false
	}
	switch w.idle {
	case asleep:
		s.idle = unlist(s.idle, w)
		s.epoch++
		p.count(w, 0, -1)
	case woken:
		w.searching = true
	case lent:
		// Woken while a guest held its place (a latch, its inbox, a
		// limit change, Close): in no list and counted nowhere; the
		// guest's giveBack finds the claim gone and leaves it.
		w.claim.Store(nil)
		p.guests.places.Add(-1)
	}
	w.idle = awake
	s.mu.Unlock()
	return true
}

// takeIdle takes w off the idle list, if it is asleep there, on behalf of a
// waker: w is counted as searching from now on (the count moves from
// sleeping to searching in one atomic step). Caller holds sleep.mu.
func (p *Pool) takeIdle(w *Worker) {
	if w.idle == asleep {
		p.sleep.idle = unlist(p.sleep.idle, w)
		p.sleep.epoch++
		w.idle = woken
		p.count(w, 1, -1)
	}
}

// idleState returns w's state, read under sleep.mu.
func (w *Worker) idleState() idleState {
	s := &w.pool.sleep
	s.mu.Lock()
	defer s.mu.Unlock()
	return w.idle
}

// unlist removes w from list, keeping the order of the others.
func unlist(list []*Worker, w *Worker) []*Worker {
	if k := slices.Index(list, w); k >= 0 {
		return slices.Delete(list, k, k+1)
	}
	return list
}

// signal hands w a wake token; a token already pending is enough. A stale
// token causes a spurious wake-up, which every wait survives: it looks at
// what it waits for again. A worker whose goroutine ended after its
// keep-alive gets a new goroutine instead (keepalive.go).
func (w *Worker) signal() {
	w.life.mu.Lock()
	if w.life.gone {
		w.life.gone = false
		w.life.mu.Unlock()
		w.pool.revive(w)
		return
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
	w.life.mu.Unlock()
}

// waitWake blocks until w's wake channel has a token, counting the time as
// idle in Stats. Waiting without a latch l, for why, it gives up after the
// pool's keep-alive and reports whether w's goroutine must end (expire).
// (Leak checkers that ignore the Default pool's workers name this
// function: they park here.)
func (w *Worker) waitWake(why waitReason, l latch) (expired bool) {
	p := w.pool
	w.stats.sleepFrom(p.now())
	if d := w.pool.cfg.keepAlive; d > 0 && l == nil {
		t := w.keepAliveTimer(d)
		select {
		case <-w.wake:
			t.Stop()
		case <-t.C:
			if w.expire(why) {
				return true // still idle, as Stats counts a gone worker
			}
		}
	} else {
		<-w.wake
	}
	w.stats.wakeAt(p.now())
	return false
}
