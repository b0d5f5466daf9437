package loop

import (
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// Static and Affinity loops cut [0, n) into k fixed chunks and fork k tasks.
// Each task claims exactly one chunk when it runs, choosing by the ID of the
// worker it runs on: under Static, worker w takes chunk w; under Affinity it
// takes the chunks it ran in the previous call. A task whose preferred chunks
// are gone takes the highest unclaimed one. There are as many tasks as chunks
// and each task claims one chunk with a CAS, so every chunk runs exactly once
// (a task always finds one: fewer than k chunks are taken before it). This
// places work on workers through the fork-join core alone; see the package
// doc for what a core with placement (Pool.RunOn) would change.

// claimSpan is a range [a, b) of claim-task indices.
type claimSpan[T any] struct {
	l    *state[T]
	a, b int32
}

// runClaims runs a Static or Affinity loop with k chunks.
func (l *state[T]) runClaims(pool *core.Pool, k int) (T, bool) {
	l.k = k
	l.results = make([]T, k)
	if a := l.aff; a != nil {
		if !a.inUse.CompareAndSwap(false, true) {
			panic("par: an AffinityState used by two loops at once (a nested loop, or loops on two goroutines, need a state each)")
		}
		defer a.inUse.Store(false)
		l.hasRecord = a.prepare(l.n, pool.Workers(), pool.MaxWorkerID(), k)
		l.claimed = a.claimed
	} else {
		l.claimed = make([]atomic.Uint32, k)
	}
	l.claimTask = claimTask[T]
	pool.Run(func(w *core.Worker) {
		claimTask(w, claimSpan[T]{l: l, b: int32(k)})
	})
	if a := l.aff; a != nil {
		a.hits, a.chunks = int(a.ran.Load()), k
	}
	acc := l.results[0]
	if l.join != nil {
		for c := 1; c < k; c++ {
			acc = l.join(acc, l.results[c])
		}
	}
	return acc, l.cancelled.Load()
}

// claimTask forks the claim tasks [s.a, s.b) as a balanced tree.
func claimTask[T any](w *core.Worker, s claimSpan[T]) struct{} {
	l := s.l
	if s.b-s.a > 1 {
		mid := s.a + (s.b-s.a)/2
		core.Join(w, l.claimTask, claimSpan[T]{l, s.a, mid}, l.claimTask, claimSpan[T]{l, mid, s.b})
		return struct{}{}
	}
	id := w.ID()
	c := l.pick(id, int(s.a))
	lo := ChunkBound(uint64(c), uint64(l.k), l.n)
	hi := ChunkBound(uint64(c+1), uint64(l.k), l.n)
	acc := l.init
	if c > 0 && l.right != nil {
		acc = l.right(acc, true) // every chunk but the first starts fresh
	}
	if l.aff != nil {
		l.aff.owner[c] = int32(id) // only c's claimer writes owner[c]
	}
	l.results[c] = l.runLeaf(w, lo, hi, acc)
	return struct{}{}
}

// tryClaim takes chunk c if no task has.
func (l *state[T]) tryClaim(c int) bool {
	return l.claimed[c].Load() == 0 && l.claimed[c].CompareAndSwap(0, 1) // the CAS decides between racing claimers
}

// pick claims a chunk for task t running on worker id and returns it.
func (l *state[T]) pick(id, t int) int {
	if a := l.aff; a != nil {
		if l.hasRecord {
			if id < len(a.pref) {
				for _, c := range a.pref[id] {
					if l.tryClaim(int(c)) {
						a.ran.Add(1)
						return int(c)
					}
				}
			}
		} else if l.tryClaim(t) {
			return t
		}
	} else if id < l.k && l.tryClaim(id) {
		return id
	}
	for c := l.k - 1; ; c-- { // fewer than k chunks are taken, so this ends
		if l.tryClaim(c) {
			return c
		}
	}
}
