package core

import (
	"sync/atomic"
	"unsafe"
)

// A frame holds the stealable half of one Join: the function a thief would
// run, its argument, the slot for its result, and the latch the owner waits
// on if the frame is stolen.
//
// Frames are recycled per worker by fork depth: the frame of the Join at
// depth i of a worker's deque lives in that deque's slot i and is reused by
// the next Join at the same depth whose types match (the cache holds the
// typed pointer, so the check is one type comparison). Joins nest strictly
// (a Join returns only after both halves are done), and spawns are synced
// last in, first out (Sync checks it), so the frame at depth i is free again
// whenever the owner's head is back at i; in a homogeneous recursion such as
// fib no fork allocates after the first few.
type frameHeader struct {
	// job runs or drops the typed frame this header belongs to. Set once at
	// allocation.
	job frameJob

	// state is the frame's latch (framePending, frameDone, frameSleeping). Written by the thief when
	// the frame completes and by the owner when it goes to sleep on it.
	state atomic.Uint32

	// thief is 1 + the id of the worker that stole the frame (0: not stolen, or
	// the thief has not marked it yet). The owner steals back from that worker
	// while it waits ("leapfrogging", Wagner and Calder 1993).
	thief atomic.Int32

	// panicked holds what a stolen execution panicked with; written by the
	// thief before it sets state to frameDone, read by the owner after.
	panicked *PanicError

	// depth is the deque depth the frame is cached at, for ever (set at
	// allocation): a thief finds the labels of the task that pushed it by
	// it (labelsAt).
	depth uint32

	// seq is bumped by Spawn and by Sync, so that a Spawned handle, which
	// records it, is valid only in between: a handle synced already, or
	// one whose frame a later spawn at the same depth reuses, no longer
	// matches. Owner-private.
	seq uint32
}

// frameJob is implemented by every typed frame.
type frameJob interface {
	// execute runs the frame's function on a thief and stores the result.
	execute(w *Worker)
	// release drops the references the frame holds, so that a cached frame
	// does not keep a finished computation's data alive.
	release()
}

// frame is the typed frame for a stealable call fn(w, arg) returning R.
type frame[X, R any] struct {
	hdr frameHeader // must be first: steal returns &hdr, execute converts back
	fn  func(*Worker, X) R
	arg X
	res R
}

// newFrame allocates the frame for depth i of w's deque and caches it there.
// Apart from the deque's own growth, this is the only allocation a fork
// makes; it happens on first use of a depth and when the types of the forks
// at a depth change. Frames of the same type for the consecutive depths
// above i that have never held one are allocated with it, up to frameSlab
// frames and slabBytes bytes: a recursion that goes deep for the first time
// (a UTS search whose thief left thousands of spawns pending) makes one
// allocation per slab, not one per depth, and a frame with a large argument
// is not multiplied.
func newFrame[X, R any](d *deque, i uint32) *frame[X, R] {
	most := min(frameSlab, max(1, slabBytes/int(unsafe.Sizeof(frame[X, R]{}))))
	n := 1
	for n < most && int(i)+n < len(d.cache) && d.cache[int(i)+n] == nil {
		n++
	}
	frs := make([]frame[X, R], n)
	for k := range frs {
		fr := &frs[k]
		fr.hdr.job = fr
		fr.hdr.depth = i + uint32(k)
		d.cache[int(i)+k] = fr
		d.slots[int(i)+k] = &fr.hdr // at or above head: private, so a plain store is enough (I2)
	}
	return &frs[0]
}

// frameSlab and slabBytes bound what newFrame allocates at once.
const (
	frameSlab = 32
	slabBytes = 4096
)

func (fr *frame[X, R]) execute(w *Worker) {
	fr.res = fr.fn(w, fr.arg)
}

func (fr *frame[X, R]) release() {
	var zx X
	var zr R
	fr.fn, fr.arg, fr.res = nil, zx, zr
}

// releaseFrames drops the data referenced by the frames cached at depths
// from and above that were used since the last call; called when the worker
// goes idle. A push at depth i needs head == i, so the depths used since the
// worker was last idle are a prefix [0, used): only those are visited, not
// every frame ever cached (a deep UTS search leaves tens of thousands).
func (d *deque) releaseFrames(from uint32) {
	for i := from; i < d.used; i++ {
		d.slots[i].job.release()
	}
	d.used = min(d.used, from)
	d.fast = min(d.fast, d.used)
}
