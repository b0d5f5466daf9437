package core

import "strconv"

// Spawned is a task forked by Spawn: g(b), waiting on the forking worker's
// deque until a thief takes it or Sync runs it.
type Spawned[B, RB any] struct {
	fr  *frame[B, RB]
	i   uint32 // its slot in the deque
	seq uint32 // fr.hdr.seq when it was spawned
}

// Spawn pushes g(b) on w's deque, where thieves may take it, and returns at
// once: the caller goes on with its own work and later calls Sync on the
// result, which runs g(b) there if no thief took it, or waits for the thief.
// It is Join taken apart, for recursions that find their parallelism late:
// a walk can fork the rest of a range it is in the middle of (one opened
// several calls up) and sync it only when it gets back there, instead of
// joining it at once where the fork was made.
//
// Spawned tasks must be synced last in, first out, each once, by the task
// that spawned them: Sync applies to the newest spawned task not yet synced,
// and every Join started after it must have returned. Sync panics
// otherwise, and a task that returns with a spawn not synced panics too (the
// runtime checks it at the end of every task). Spawn does not allocate in
// steady state: frames are recycled by depth as Join's are.
func Spawn[B, RB any](w *Worker, g func(*Worker, B) RB, b B) Spawned[B, RB] {
	if g == nil {
		panic("core: Spawn with a nil function")
	}
	// Join's push, written out as Join writes it rather than shared: a
	// call to a generic helper on the fork path costs a third of the fork
	// (see Join).
	d := &w.dq
	i := d.head
	if i >= d.fast {
		d.reach(i)
		if w.meter != nil {
			return spawnMeasured(w, g, b)
		}
	}
	fr, ok := d.cache[i].(*frame[B, RB])
	if !ok {
		fr = newFrame[B, RB](d, i)
	}
	fr.fn = g // slot i >= split: private, plain stores (deque I2)
	fr.arg = b
	fr.hdr.seq++
	d.head = i + 1
	if d.allStolen || d.moveSplit.Load() || w.pool.sleep.counts.Load() != 0 {
		w.shareSlow()
	}
	return Spawned[B, RB]{fr, i, fr.hdr.seq}
}

// Sync returns the result of the spawned task s: it runs it on w if no thief
// took it, and otherwise waits for the thief, running other work meanwhile
// as Join does. A panic in a stolen task is re-raised here as a *PanicError.
// Sync must be called once, from the task that spawned s, when every task
// spawned after s has been synced.
func (s Spawned[B, RB]) Sync(w *Worker) RB {
	d := &w.dq
	i := s.i
	if s.fr == nil || d.head != i+1 || d.slots[i] != &s.fr.hdr || s.fr.hdr.seq != s.seq {
		panic("core: Sync of a task that is not the newest one spawned and not yet synced (deque depth " +
			strconv.Itoa(int(d.head)) + ", task at " + strconv.Itoa(int(i)) + ")")
	}
	if i < w.base {
		panic("core: Sync of a task spawned by another task")
	}
	s.fr.hdr.seq++
	if i >= d.split || d.reclaim(i) {
		d.head = i
		return s.fr.fn(w, s.fr.arg)
	}
	return joinStolen(w, s.fr, i)
}
