package core

import (
	"math/bits"
	"strconv"
	"sync"
	"sync/atomic"
)

// The worker table maps a live worker goroutine (its curg value) to its
// worker, for every pool of the process. Run asks it whether its caller is a
// task of the pool (then the root runs inline), and Blocking asks whether its
// caller is a task of any pool (then the worker's role passes to a spare).
// It is process-wide because Blocking names no pool; it holds bookkeeping
// only, no setting, and a closed pool leaves nothing in it but tombstones.
//
// Open addressing with linear probing. Readers (workerOf) take no lock; a
// registering or exiting goroutine takes gtabMu, and a table that fills with
// tombstones is replaced as a whole by a fresh one of the live entries.
var (
	gtabMu sync.Mutex
	gtab   atomic.Pointer[gTable]
	// gtabLive counts the live entries, so that a replacement table is
	// sized for them, and gtabUsed the slots that are not free (live
	// entries and tombstones), so that register knows without a scan
	// when the table must be replaced; both guarded by gtabMu.
	gtabLive, gtabUsed int
)

// gTable is one generation of the worker table.
type gTable struct {
	entries []gEntry
	mask    uintptr
}

type gEntry struct {
	g atomic.Uintptr // 0: free slot, 1: dead worker (a tombstone), else a live worker's curg
	w *Worker
}

func newGTable(size int) *gTable {
	size = 1 << bits.Len(uint(max(size, 8)-1))
	return &gTable{entries: make([]gEntry, size), mask: uintptr(size - 1)}
}

func gHash(g uintptr) uintptr { return uintptr((uint64(g) * 0x9E3779B97F4A7C15) >> 32) }

// register records the calling goroutine, whose curg value is g, as w's: a
// worker's goroutine as it starts, a guest's caller for the time of its
// root (guest.go). A worker
// whose goroutine was replaced (runtime.Goexit in a task) gets a new entry;
// its old one is already a tombstone (forget). It costs O(1) under gtabMu:
// a tombstone on the probe path is reused, and the table keeps at most half
// its slots used, tombstones included, and is replaced by one with room for
// four times the live entries when that would be exceeded.
func register(w *Worker, g uintptr) {
	gtabMu.Lock()
	defer gtabMu.Unlock()
	t := gtab.Load()
	if t == nil {
		t = newGTable(64)
		gtab.Store(t)
	}
	if 2*(gtabUsed+1) > len(t.entries) {
		// Copy the live entries into a fresh table (tombstones dropped).
		// Readers of the old table still find every live worker there.
		nt := newGTable(4 * (gtabLive + 1))
		gtabUsed = 0
		for i := range t.entries {
			if e := &t.entries[i]; e.g.Load() > 1 {
				e.w.gslot = nt.fill(nt.probe(e.g.Load()), e.g.Load(), e.w)
				gtabUsed++
			}
		}
		gtab.Store(nt)
		t = nt
	}
	if debugChecks {
		checkUnregistered(t, g, w)
	}
	i := t.probe(g)
	if t.entries[i].g.Load() == 0 {
		gtabUsed++ // a free slot, not a tombstone
	}
	w.gslot = t.fill(i, g, w)
	gtabLive++
}

// probe returns the slot where g goes: the first free slot or tombstone
// from g's hash on.
func (t *gTable) probe(g uintptr) int {
	for i := gHash(g) & t.mask; ; i = (i + 1) & t.mask {
		if t.entries[i].g.Load() <= 1 {
			return int(i)
		}
	}
}

// fill records w for g in slot i (probe's) and returns i. Reusing a
// tombstone is safe for readers, which take no lock: a reader stops only at
// a free slot (0), which fill never makes, and reads e.w only after its
// load of e.g matched its own goroutine, so only this goroutine, or one
// that registers after it under gtabMu, ever reads what is written here.
// Caller holds gtabMu.
func (t *gTable) fill(i int, g uintptr, w *Worker) int {
	e := &t.entries[i]
	e.w = w
	e.g.Store(g) // publishes e.w; pairs with the Load in workerOf
	return i
}

// forget marks w's entry dead as its goroutine exits (or a guest's root
// ends), so that a goroutine that later reuses the same g structure is not
// taken for the worker. O(1): the slot register recorded in w.gslot is
// still w's, since only a replacement table moves entries, and it updates
// gslot under the same lock.
func forget(w *Worker) {
	gtabMu.Lock()
	defer gtabMu.Unlock()
	e := &gtab.Load().entries[w.gslot]
	if debugChecks && (e.w != w || e.g.Load() <= 1) {
		panic("core: invariant: worker " + strconv.Itoa(w.id) + " forgets a goroutine-table entry that is not its own")
	}
	e.g.Store(1)
	gtabLive--
}

// workerOf returns the worker whose goroutine has curg value g, or nil.
func workerOf(g uintptr) *Worker {
	t := gtab.Load()
	if t == nil {
		return nil
	}
	for i := gHash(g) & t.mask; ; i = (i + 1) & t.mask {
		e := &t.entries[i]
		switch e.g.Load() {
		case g:
			return e.w
		case 0:
			return nil
		}
	}
}

// currentWorker returns the worker of p running the calling goroutine, or
// nil when the caller is not one of p's workers.
func (p *Pool) currentWorker() *Worker {
	if w := workerOf(curg()); w != nil && w.pool == p {
		return w
	}
	return nil
}

// CurrentPool returns the pool whose task is running on the calling
// goroutine, or nil when the caller is not a task of any pool. Libraries
// built on core (par, reduce, sortpar, linalg) use it to run a call made
// from inside a task on that task's pool, on its current worker, rather than
// on core.Default(); a goroutine started by a task is not a task.
func CurrentPool() *Pool {
	if w := workerOf(curg()); w != nil {
		return w.pool
	}
	return nil
}
