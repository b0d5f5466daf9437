package loop

import "sync/atomic"

// Affinity is the record an Affinity loop keeps between calls (the inside
// of par.AffinityState): which worker ran each chunk. The zero value is
// ready to use. A record must not be used by two loops at the same time
// (nested, or from two goroutines): the second one panics.
type Affinity struct {
	// inUse is set while a loop runs with the state; a second loop finds
	// it set and panics instead of corrupting the record.
	inUse atomic.Bool

	n       uint64 // range length the record is for
	workers int    // worker count the record is for
	// owner[c] is the worker that ran chunk c in the last call (-1: none).
	// Written by the one task that claims c; read by the caller after
	// core.RunValue has returned, which orders the writes before the reads.
	owner []int32
	// pref[w] lists the chunks worker w ran last time; rebuilt from owner
	// before each call and only read during it.
	pref [][]int32
	// claimed[c] is set by the task that takes chunk c (CAS by any worker).
	claimed []atomic.Uint32
	// ran counts chunks run by their recorded worker during a call; every
	// worker adds to it.
	ran    atomic.Int64
	hits   int // ran after the last call
	chunks int // chunks in the last call
}

// Hits reports how many chunks of the last loop run with a were run by the
// worker that ran them in the loop before, out of how many chunks there were.
// The first loop (and one after a reset) has no record and reports 0 hits.
func (a *Affinity) Hits() (hits, chunks int) { return a.hits, a.chunks }

// Owners returns, for each chunk of the last loop run with a, the worker that
// ran it (-1 where the loop stopped before the chunk ran).
func (a *Affinity) Owners() []int {
	out := make([]int, len(a.owner))
	for i, o := range a.owner {
		out[i] = int(o)
	}
	return out
}

// prepare readies a for a loop over n iterations with p workers and k
// chunks, on a pool whose worker IDs are below maxID (regular workers,
// spares, and the guest records of callers that ran loops themselves): it
// resets the record if the shape changed, turns the record into per-worker
// chunk lists, and clears the claims. It reports whether a record from an
// earlier call is there to replay.
func (a *Affinity) prepare(n uint64, p, maxID, k int) bool {
	if a.n != n || a.workers != p || len(a.owner) != k {
		a.n, a.workers = n, p
		a.owner = make([]int32, k)
		for i := range a.owner {
			a.owner[i] = -1
		}
		a.claimed = make([]atomic.Uint32, k)
		a.pref = nil
	}
	if len(a.pref) < maxID {
		a.pref = append(a.pref, make([][]int32, maxID-len(a.pref))...)
	}
	record := false
	for w := range a.pref {
		a.pref[w] = a.pref[w][:0]
	}
	for c, w := range a.owner {
		if w >= 0 && int(w) < len(a.pref) {
			a.pref[w] = append(a.pref[w], int32(c))
			record = true
		}
		a.owner[c] = -1
		a.claimed[c].Store(0)
	}
	a.ran.Store(0)
	return record
}
