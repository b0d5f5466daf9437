package core

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestLostWakeupCounted makes the lost wake-up the sleep protocol rules
// out: with every worker asleep, a task is put on the outside stack without
// the notifyWork its producer owes. The governor must find it, wake a
// sleeper, and count the rescue in Stats.LostWakeups, which the other tests
// assert to be 0.
func TestLostWakeupCounted(t *testing.T) {
	p := New(WithWorkers(2))
	defer p.Close()
	if !waitAllAsleep(p, 10*time.Second) {
		t.Fatal("the workers did not go to sleep")
	}
	var s Scope
	var ran atomic.Bool
	j := getJob(nil)
	j.fn, j.arg, j.scope, j.outside = callFunc, func(*Worker) { ran.Store(true) }, &s, true
	p.enter() // counted in flight, as Scope.Go from outside counts it: the governor watches
	s.n.Add(1)
	p.outside.Push(j) // and no notifyWork: the wake-up is lost
	s.Wait(p)
	if !ran.Load() {
		t.Fatal("the task did not run")
	}
	if n := p.Stats().LostWakeups; n == 0 {
		t.Fatal("the governor rescued the task without counting a lost wake-up")
	}
}
