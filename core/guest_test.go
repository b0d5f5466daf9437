package core

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// onWorker runs root on one of p's workers and parks the caller: submitted
// through the injector, as a Run from a task of another pool is. Tests of
// what a worker does inside a task (Blocking and spares, Hungry, a Goexit
// that replaces the worker's goroutine) need a root that does not run on
// the caller's goroutine, where Run from outside puts it.
func onWorker[R any](p *Pool, root func(*Worker) R) R {
	return submitAndWait(p, root, nil)
}

// TestGuestRunsOnCaller: a Run from outside runs its root on the calling
// goroutine, as a guest: the root's worker is a guest record of the pool,
// the goroutine is the pool's task meanwhile (CurrentPool, nested Run
// inline on the same worker) and not after, and the result and writes are
// the caller's when Run returns.
func TestGuestRunsOnCaller(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	for k := range scale(200) {
		var id int
		got := RunValue(p, func(w *Worker) int {
			if !w.guest || CurrentPool() != p {
				t.Errorf("root %d: guest %v, CurrentPool %p; want a guest of %p", k, w.guest, CurrentPool(), p)
			}
			id = w.ID()
			nested := RunValue(p, func(v *Worker) *Worker { return v })
			if nested != w {
				t.Errorf("root %d: a nested Run ran on another worker", k)
			}
			return fib(w, k%20)
		})
		if got != fibSerial(k%20) {
			t.Fatalf("root %d: fib(%d) = %d", k, k%20, got)
		}
		if s := p.Stats(); !s.PerWorker[id].Guest {
			t.Fatalf("root %d ran on worker %d, not a guest record: %+v", k, id, s.PerWorker[id])
		}
	}
	if CurrentPool() != nil {
		t.Fatal("the caller is still a task of the pool after Run returned")
	}
}

// TestGuestWhileWorkerBusy: the only worker of a pool runs a task that
// reaches no poll point until a root submitted from outside has run. The
// caller runs that root itself: no spare, no poll point needed.
func TestGuestWhileWorkerBusy(t *testing.T) {
	p := New(WithWorkers(1))
	defer closeChecked(t, p)
	release := make(chan struct{})
	busy := make(chan struct{})
	go p.RunOn(0, func(*Worker) {
		close(busy)
		<-release // not a poll point: the worker is busy until released
	})
	<-busy
	done := make(chan int)
	go func() { done <- RunValue(p, func(w *Worker) int { return fib(w, 20) }) }()
	select {
	case v := <-done:
		if v != fibSerial(20) {
			t.Errorf("fib(20) = %d", v)
		}
	case <-time.After(30 * time.Second): // a hang detector only
		t.Error("a Run from outside waited for the busy worker")
	}
	close(release)
	if s := p.Stats(); s.SparesStarted != 0 {
		t.Errorf("%d spares started for a root its caller could run", s.SparesStarted)
	}
}

// TestGuestHoldsSleepersPlace: a guest takes the place of the pool's
// sleeping worker, which stays asleep and uncounted, so the guest's forks
// find no idle worker (Hungry) and none is woken; the place goes back when
// the root ends. A guest that blocks gives the place back and starts no
// spare.
func TestGuestHoldsSleepersPlace(t *testing.T) {
	p := New(WithWorkers(1))
	defer closeChecked(t, p)
	if !waitAllAsleep(p, 10*time.Second) {
		t.Fatal("the worker did not go to sleep")
	}
	w0 := p.roster.Load().all[0]
	hungry := RunValue(p, func(w *Worker) bool {
		fib(w, 15)
		return w.Hungry()
	})
	if hungry {
		t.Error("a guest holding the only worker's place found an idle worker")
	}
	if s := p.Stats(); s.PerWorker[0].Sleeps != 0 || s.PerWorker[0].Roots+s.PerWorker[0].Stolen != 0 { // Sleeps counts sleeps that ended
		t.Errorf("the lent worker woke or ran something: %+v", s.PerWorker[0])
	}
	if n := p.sleep.sleeping(); n != 1 || w0.idleState() != asleep || p.guests.places.Load() != 0 {
		t.Errorf("after the root: %d asleep, worker 0 in state %d, %d places held; want 1, asleep, 0", n, w0.idleState(), p.guests.places.Load())
	}
	RunValue(p, func(w *Worker) int {
		Blocking(func() {
			if s := p.Stats(); s.Blocked != 0 || s.Spares != 0 || w.guestRec.lent != nil {
				t.Errorf("a guest inside Blocking: %d blocked, %d spares, place held %v; want 0, 0, none", s.Blocked, s.Spares, w.guestRec.lent != nil)
			}
		})
		return 0
	})
}

// TestGuestClaimsAwakeWorkersPlace: a guest that finds the only worker of
// a pool awake (just started, or just done with a root) claims its place,
// and that worker, in its idle loop, takes nothing from the guest: the
// root runs on one goroutine, as a pool of one worker says, and the worker
// steals none of its frames.
func TestGuestClaimsAwakeWorkersPlace(t *testing.T) {
	for k := range scale(100) {
		p := New(WithWorkers(1))
		if k%2 == 1 {
			p.RunOn(0, func(*Worker) {}) // the worker is awake and searching when it returns
		}
		for r := range 4 {
			if got := RunValue(p, func(w *Worker) int { return fib(w, 18) }); got != fibSerial(18) {
				t.Fatalf("pool %d, root %d: fib(18) = %d", k, r, got)
			}
		}
		if s := p.Stats(); s.PerWorker[0].Stolen != 0 {
			t.Errorf("pool %d: the worker whose place the guests held stole %d frames", k, s.PerWorker[0].Stolen)
		}
		closeChecked(t, p)
	}
}

// TestGuestPanic: a panic in a guest's root, or in a part of it a worker
// stole, reaches the caller as a *PanicError; the guest record goes back
// and the pool stays usable.
func TestGuestPanic(t *testing.T) {
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	for k := range scale(100) {
		v := catch(func() {
			RunValue(p, func(w *Worker) int {
				a, b := Join(w, func(w *Worker, n int) int {
					if k%2 == 0 {
						panic("left")
					}
					return fib(w, n)
				}, 12, func(w *Worker, n int) int {
					if k%2 == 1 {
						panic("right")
					}
					return fib(w, n)
				}, 12)
				return a + b
			})
		})
		pe, ok := v.(*PanicError)
		if want := [2]string{"left", "right"}[k%2]; !ok || pe.Value != want {
			t.Fatalf("round %d: Run panicked with %v, want a *PanicError of %q", k, v, want)
		}
	}
	for _, g := range *p.guests.all.Load() {
		if g.guestRec.taken.Load() || g.lane.Load() != nil || g.dq.head != 0 {
			t.Fatalf("guest record %d not released after its panicking root", g.id)
		}
	}
}

// TestGuestsManyCallers: many goroutines run roots from outside at once,
// each on its own goroutine: every root computes the right value, no more
// guest records exist than callers ran at once, and afterwards every record
// is free and no place is held.
func TestGuestsManyCallers(t *testing.T) {
	const callers = 64
	p := New(WithWorkers(2))
	defer closeChecked(t, p)
	var wg sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range scale(50) {
				n := (c + k) % 18
				if got := RunValue(p, func(w *Worker) int { return fib(w, n) }); got != fibSerial(n) {
					t.Errorf("fib(%d) = %d", n, got)
					return
				}
			}
		}()
	}
	wg.Wait()
	all := *p.guests.all.Load()
	if len(all) > callers {
		t.Fatalf("%d guest records for %d callers", len(all), callers)
	}
	for _, g := range all {
		if g.guestRec.taken.Load() {
			t.Fatalf("guest record %d still taken", g.id)
		}
	}
	p.sleep.mu.Lock()
	places := p.guests.places.Load()
	p.sleep.mu.Unlock()
	if places != 0 {
		t.Fatalf("%d places still held by guests after every root ended", places)
	}
}

// TestCloseWaitsForGuest: Close waits for a root its caller is running.
func TestCloseWaitsForGuest(t *testing.T) {
	p := New(WithWorkers(1))
	inside, release := make(chan struct{}), make(chan struct{})
	var ended atomic.Bool
	go RunValue(p, func(*Worker) int {
		close(inside)
		<-release
		ended.Store(true)
		return 0
	})
	<-inside
	closed := make(chan struct{})
	go func() { p.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned while a guest's root ran")
	case <-time.After(20 * time.Millisecond): // only a chance for a wrong Close to return
	}
	close(release)
	<-closed
	if !ended.Load() {
		t.Fatal("Close returned before the guest's root ended")
	}
}

// TestGuestLendsWorkerAtItsLastLook: a guest takes the place of the pool's
// one worker after the worker announced itself asleep and before its last
// look for work, which then finds the guest's own job waiting. The worker
// must stay lent and take nothing: the guest's root keeps its one place,
// and the job runs on the guest.
func TestGuestLendsWorkerAtItsLastLook(t *testing.T) {
	p := New(WithWorkers(1), WithMaxSpares(0))
	defer closeChecked(t, p)
	paused, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	hook := func(w *Worker) {
		if !w.guest {
			once.Do(func() { close(paused); <-release })
		}
	}
	if !waitAllAsleep(p, 10*time.Second) {
		t.Fatal("the worker did not go to sleep in 10 s")
	}
	p.idleHook.Store(&hook)
	defer p.idleHook.Store(nil)
	var wake Scope
	wake.Go(p, func(*Worker) {}) // the worker wakes, runs it, and goes idle into the hook
	<-paused
	wake.Wait(p)
	var guest, ranOn int
	RunValue(p, func(w *Worker) int {
		guest = w.ID()
		var s Scope
		s.Go(p, func(v *Worker) { ranOn = v.ID() }) // on the guest's own jobs, where a thief looks
		close(release)
		time.Sleep(50 * time.Millisecond) // the worker's last look; a thief would take the job meanwhile
		s.Wait(p)
		return 0
	})
	if ranOn != guest {
		t.Errorf("the guest's job ran on worker %d, not on the guest (%d) that held the worker's place", ranOn, guest)
	}
	if s := p.Stats(); s.PerWorker[0].Stolen != 0 {
		t.Errorf("the lent worker stole %d times", s.PerWorker[0].Stolen)
	}
}
