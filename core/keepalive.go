package core

import (
	"fmt"
	"sync"
	"time"
)

// Keep-alive: idle workers give their goroutines back (DESIGN.md,
// "Keep-alive"). A worker that has waited in its idle loop, with no latch,
// for the pool's keep-alive (WithKeepAlive) ends its goroutine; its record
// stays where it waited (the idle list and its counts, the retired spares,
// a parked or lent place), so the sleep protocol and every waker see it as
// they see any sleeper. Whoever would wake it starts a new goroutine for it
// instead (signal, revive), which carries on from the wait the old one left.
//
// The hand-over is decided under the worker's life.mu, between two steps
// that each hold it:
//
//   - the expiring goroutine: with life.mu held, it takes a pending wake
//     token if there is one (then it stays: someone woke it) and otherwise
//     sets gone, which from then on stands for the token it would have got;
//   - a waker (signal): with life.mu held, it clears gone and revives the
//     worker if it was set, and otherwise sends the token.
//
// So a wake-up is either a token the goroutine takes before it decides, or
// a revival after it decided: never neither (no lost wake-up), never both
// (one goroutine per worker). Every waker goes through signal after
// writing what it wakes for (work, a latch, an inbox root, a limit, a
// retired spare's activation), as for a sleeping goroutine, so the new
// goroutine's first look sees it. A worker waiting on a latch never
// expires: its goroutine holds the task that waits.
//
// The expiring goroutine leaves the goroutine table before it decides, so
// that the next goroutine's entry cannot be the one its exit removes; if a
// token makes it stay, it registers again. life.mu is taken with no other
// lock held, and revive takes growMu after it is released.

// DefaultKeepAlive is the keep-alive of a pool made without WithKeepAlive,
// the Default pool included. Ending and starting a worker's goroutine
// costs a few microseconds beside the wake-up it replaces, so any keep-alive
// past milliseconds costs no measurable time; what it trades is how long
// the goroutines of a burst (spares started for blocked tasks, workers of a
// pool used once) outlive it against how often a program that pauses pays
// for a fresh goroutine's stack to grow again. Ten seconds keeps the
// workers of a server whose requests come seconds apart, and of a program
// between its phases, and gives a burst's goroutines back well within a
// monitoring interval; Java's common ForkJoinPool keeps idle threads six
// times as long.
const DefaultKeepAlive = 10 * time.Second

// WithKeepAlive sets how long a worker waits idle before it ends its
// goroutine (default DefaultKeepAlive): a regular worker that found no work
// for d, and a spare retired for d. The pool keeps the worker's record and
// starts a goroutine for it again when work comes, as it wakes a sleeping
// worker, so the next call runs at full width. An idle pool then holds no
// worker goroutine, only its governor, parked (see the package docs on
// leak checkers). 0 keeps workers for the life of the pool, as do the
// Busy scheduler's workers, which never wait idle. A worker waiting inside
// a task (for a stolen half of a Join, a Scope) keeps its goroutine. New
// panics if d < 0.
func WithKeepAlive(d time.Duration) Option {
	return func(c *config) { c.keepAlive = d }
}

func validKeepAlive(d time.Duration) {
	if d < 0 {
		panic(fmt.Sprintf("core: WithKeepAlive(%v): the keep-alive must be at least 0", d))
	}
}

// lifeState is the hand-over between a worker's expiring goroutine and
// its wakers (see the top of this file).
type lifeState struct {
	mu sync.Mutex
	// gone: the worker's goroutine ended after its keep-alive and no
	// waker has revived it since; guarded by mu.
	gone bool
	// why is the wait the goroutine left, for the next one to carry on:
	// written by the expiring goroutine before it sets gone under mu,
	// read by the next one, which the waker that cleared gone under mu
	// started (so after it).
	why waitReason
	// timer measures the keep-alive; owner only.
	timer *time.Timer
}

// keepAliveTimer returns w's keep-alive timer, set to fire in d. Owner
// only.
func (w *Worker) keepAliveTimer(d time.Duration) *time.Timer {
	t := w.life.timer
	if t == nil {
		t = time.NewTimer(d)
		w.life.timer = t
	} else {
		t.Reset(d) // Go 1.23 timers: no stale tick after Stop or Reset
	}
	return t
}

// expire ends w's goroutine unless a wake token is pending: it reports
// whether the goroutine must return, having taken the token otherwise.
func (w *Worker) expire(why waitReason) bool {
	forget(w) // before gone: the next goroutine's entry is not removed by this one's exit
	w.life.mu.Lock()
	select {
	case <-w.wake:
		w.life.mu.Unlock()
		register(w, curg()) // woken after all: stay
		return false
	default:
	}
	w.life.why = why
	w.pool.goroutines.Add(-1)
	w.life.gone = true // stands for the token from now on: signal revives w
	w.life.mu.Unlock()
	// Subtle: from here on a waker may start w's next goroutine, so this
	// one writes nothing of w until it has returned.
	return true
}

// revive starts a new goroutine for w, whose goroutine ended after its
// keep-alive, once a waker has cleared gone: it carries on from the wait
// the old one left (w.life.why), as if the wake token had come. A pool
// that quits starts none (Close wakes every worker to end them).
func (p *Pool) revive(w *Worker) {
	p.growMu.Lock()
	if p.quit.Load() { // written under growMu: Close's exited.Wait has not started, or every Add is in it
		p.growMu.Unlock()
		return
	}
	p.exited.Add(1)
	p.goroutines.Add(1)
	p.growMu.Unlock()
	p.revivals.Add(1)
	go w.resume()
}

// resume is the body of a revived worker's goroutine.
func (w *Worker) resume() {
	clearLabels() // never those of the waker
	if w.pinned.Load() && pinCurrentThread(w.cpu) != nil {
		w.pinned.Store(false)
	}
	register(w, curg())
	w.stats.wakeAt(w.pool.now())
	w.loop(true)
}
