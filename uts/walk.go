package uts

import (
	"sync"

	"github.com/gofork/gofork/core"
)

// The parallel walk. A task walks a range of one node's children depth
// first, in the order of the serial search, and forks in two cases:
//
//   - At the top of the recursion, while the worker has fewer than
//     maxPending forks waiting for thieves (core.Worker.Pending): a range of
//     splitMin or more children is split in halves, and at an internal child
//     with restMin or more siblings after it the child's subtree is forked
//     against the rest of the range. With one worker this happens only near
//     the root, so the walk is the serial one almost everywhere.
//   - When a worker of the pool is out of work (core.Worker.Hungry), at the
//     next internal child: the oldest range this worker still has open, the
//     siblings left at the shallowest level of its recursion, is promoted to
//     a task and forked against what is left of the current range. The
//     thief thus takes the biggest piece on offer, as it would if every
//     level had forked, without the cost of forking at every level: in
//     Binomial trees every level's rest is as big, in expectation, as any
//     other, and the shallow ones have had the least taken from them.
//
// This is the promotion of latent parallelism of heartbeat scheduling
// (Acar, Charguéraud, Guatto, Rainey and Sieczkowski, "Heartbeat
// scheduling: provable efficiency for nested parallelism", PLDI 2018), with
// a thief's hunger as the heartbeat. Forking at every internal node instead
// (what libfork's UTS does) cost 12-16% at P=1 against the serial search on
// T1L and T3L; forking only at the top, with no promotion, starved the
// second worker on T3L (Ts/T2 1.43), because the only frames on offer were
// the small rests deep down where the owner was when its last frame was
// taken.

// splitMin is the smallest child range that the walk splits in two halves (a
// Binomial root's 2000 children, a Geometric node's rarer dozen). A smaller
// range is walked child by child.
const splitMin = 9

// restMin is the fewest siblings that must follow an internal child for the
// walk to fork the child's subtree against them; with fewer, they are
// walked after the subtree in the same task.
const restMin = 3

// maxPending bounds the forks a worker makes while nobody is hungry: the
// walk forks only while core.Worker.Pending is below it (the max-tasks
// cut-off of Duran, Corbalán and Ayguadé, "An adaptive cut-off for task
// parallelism", SC 2008).
const maxPending = 8

// search is one parallel search: the compiled rule and, per worker, the
// ranges its walk has open.
type search struct {
	*rule
	fork func(*core.Worker, task) Result // the method value x.task, made once
	open []openRanges                    // indexed by core.Worker.ID

	promoteAlways bool // see options
}

func newSearch(r *rule, workers int) *search {
	x := &search{rule: r, open: make([]openRanges, workers)}
	x.fork = x.task
	return x
}

// release gives the stacks of open ranges back for the next search.
func (x *search) release() {
	for i := range x.open {
		if o := &x.open[i]; o.buf != nil {
			o.buf.levels = o.levels
			openStacks.Put(o.buf)
		}
	}
}

// openStacks keeps the stacks of open ranges between searches, so that a
// deep tree's (T3L's go 17844 levels down) are allocated once, not on every
// search.
var openStacks sync.Pool

// openRanges is the stack of ranges one worker's walks have open, one per
// walk call on its goroutine, innermost last. Only that worker touches it.
// Every range below the top belongs to a walk suspended in a call (a deeper
// walk, or a Join whose first half is running here), which reads its hi
// back when the call returns; so a deeper walk may cut a range short and
// fork the cut-off siblings as a task of its own (promote). All levels are
// kept, however deep: the oldest work is what promotion is for, and
// recording only the first 256 levels, say, left T3L's deep paths with
// nothing to promote (Ts/T2 1.44 against 1.86).
type openRanges struct {
	levels []openRange // levels[:n] are open
	n      int
	buf    *openBuf // where levels goes back to after the search
	// floor is the lowest index that may still have siblings left: every
	// range below it has none (a range's i only grows and its hi only
	// shrinks while it is open).
	floor int
	_     [64]byte // keep workers' stacks off each other's cache lines
}

// openBuf carries a stack between searches (through openStacks).
type openBuf struct{ levels []openRange }

// openRange is a walk's range: it is walking child i of the node with the
// packed state p at depth h, and siblings i+1..hi-1 are left.
type openRange struct {
	p     packed
	h     int32
	i, hi int32
}

// grow makes room for one more open range.
func (o *openRanges) grow() {
	if o.buf == nil {
		b, ok := openStacks.Get().(*openBuf)
		if !ok {
			b = &openBuf{levels: make([]openRange, 64)}
		}
		o.buf, o.levels = b, b.levels
		if len(o.levels) > o.n {
			return
		}
	}
	o.levels = append(o.levels, make([]openRange, len(o.levels))...)
}

// pop closes the range at index j and every range above it.
func (o *openRanges) pop(j int) {
	o.n = j
	o.floor = min(o.floor, j)
}

// set records that range j's walk is at child i with siblings up to hi-1
// left.
func (o *openRanges) set(j, i, hi int) {
	l := &o.levels[j]
	l.i, l.hi = int32(i), int32(hi)
}

// reopen records that range j is now the walk of the children of the node
// with state s at depth h.
func (o *openRanges) reopen(j int, s *state, h int) {
	l := &o.levels[j]
	l.p, l.h, l.i, l.hi = pack(s), int32(h), 0, 0
}

// end returns the end of range j, which a promotion may have moved down.
func (o *openRanges) end(j int) int {
	return int(o.levels[j].hi)
}

// oldest returns the index of the lowest open range below j with a sibling
// left, or -1.
func (o *openRanges) oldest(j int) int {
	for p := o.floor; p < j; p++ {
		if l := &o.levels[p]; l.i+1 < l.hi {
			o.floor = p
			return p
		}
	}
	o.floor = j
	return -1
}

// task is the argument of every fork: the children lo..hi-1 of the node
// with the packed state s at depth, in four words. Four words of 32 bytes
// are what the compiler keeps in registers; a larger argument is built and
// copied through memory, and its narrow field stores then stall the wide
// loads that copy it (measured: a fork with a 40-byte span cost about 35 ns,
// one with this task about 13).
type task struct {
	s01, s23 uint64 // state words H0 | H1<<32 and H2 | H3<<32
	s4d      uint64 // state word H4 | depth<<32
	lohi     uint64 // lo | hi<<32
}

func newTask(p packed, depth, lo, hi int) task {
	return task{p.s01, p.s23, uint64(p.s4) | uint64(uint32(depth))<<32, uint64(uint32(lo)) | uint64(uint32(hi))<<32}
}

func (t task) state() packed { return packed{t.s01, t.s23, uint32(t.s4d)} }
func (t task) depth() int    { return int(int32(t.s4d >> 32)) }
func (t task) lo() int       { return int(int32(uint32(t.lohi))) }
func (t task) hi() int       { return int(int32(t.lohi >> 32)) }

// withRange returns t for the children lo..hi-1.
func (t task) withRange(lo, hi int) task {
	t.lohi = uint64(uint32(lo)) | uint64(uint32(hi))<<32
	return t
}

// task counts the task's children and their subtrees: the function every
// fork runs.
func (x *search) task(w *core.Worker, t task) Result {
	var res Result
	s := t.state().unpack()
	x.walk(w, &x.open[w.ID()], &s, t.depth(), t.lo(), t.hi(), &res)
	return res
}

// walk counts the children lo..hi-1 of the node with state *s at depth h,
// and everything below them, into res. It may overwrite *s. o is the
// worker's stack of open ranges (x.open[w.ID()]). The walk's range is
// open (see openRanges) while it walks a subtree in place, so that a deeper
// walk may promote the siblings left; it is closed before any fork, whose
// tasks then own what was left of it.
//
// States go by pointer, not by value: a copy reads the kernel's 16- and
// 4-byte stores with overlapping 16-byte loads, and each such load waits for
// the stores to retire instead of being forwarded from them.
func (x *search) walk(w *core.Worker, o *openRanges, s *state, h, lo, hi int, res *Result) {
	j := o.n
	if j == len(o.levels) {
		o.grow()
	}
	o.n = j + 1
	o.reopen(j, s, h)
	var cbuf state
	c := &cbuf
	for {
		if hi-lo >= splitMin && w.Pending() < maxPending {
			o.pop(j) // the halves own the whole range
			x.split(w, newTask(pack(s), h, lo, hi), res)
			return
		}
		res.Nodes += int64(hi - lo)
		res.MaxDepth = max(res.MaxDepth, h+1)
		serialKids := x.serialLevel(h + 1)
		i, k := x.scan(s, h, lo, hi, c, res)
		for ; i+1 < hi; i, k = x.scan(s, h, i+1, hi, c, res) {
			if serialKids {
				x.serial(c, h+1, k, res)
				continue
			}
			if w.Hungry() || x.promoteAlways {
				if p := o.oldest(j); p >= 0 {
					o.pop(j) // this walk's range goes to the task below
					x.promote(w, o, p, newTask(pack(s), h, i, hi), res)
					res.Nodes -= int64(hi - i) // the task counts them
					return
				}
				// Nothing to promote: if a thief asked this worker for
				// work, share the frames it holds privately.
				w.Poll()
			}
			if hi-(i+1) >= restMin && w.Pending() < maxPending {
				o.pop(j) // the rest goes to its own task
				res.Nodes -= int64(hi - (i + 1))
				x.join(w, newTask(pack(c), h+1, 0, k), newTask(pack(s), h, i+1, hi), res)
				return
			}
			o.set(j, i, hi)
			x.walk(w, o, c, h+1, 0, k, res)
			hi = o.end(j) // a deeper walk may have promoted the rest
		}
		if i == hi {
			o.pop(j)
			return
		}
		if serialKids {
			o.pop(j)
			x.serial(c, h+1, k, res)
			return
		}
		// The last child: go on with its children. *s is not needed any
		// more, so it becomes the buffer for the grandchildren.
		s, c, h, lo, hi = c, s, h+1, 0, k
		o.reopen(j, s, h)
	}
}

// split forks the two halves of t's range and adds their counts to res.
// It and join are kept out of walk, which calls them rarely, so that the
// inlined Join does not crowd walk's registers.
//
//go:noinline
func (x *search) split(w *core.Worker, t task, res *Result) {
	mid := t.lo() + (t.hi()-t.lo())/2
	a, b := core.Join(w, x.fork, t.withRange(t.lo(), mid), x.fork, t.withRange(mid, t.hi()))
	*res = res.add(a).add(b)
}

// join forks tasks a and b and adds their counts to res.
//
//go:noinline
func (x *search) join(w *core.Worker, a, b task, res *Result) {
	ra, rb := core.Join(w, x.fork, a, x.fork, b)
	*res = res.add(ra).add(rb)
}

// promote cuts the open range p short after its current child and forks
// the siblings left there (the oldest work this worker holds) against mine,
// the current walk's remaining children, adding both counts to res.
func (x *search) promote(w *core.Worker, o *openRanges, p int, mine task, res *Result) {
	l := &o.levels[p]
	old := newTask(l.p, int(l.h), int(l.i)+1, int(l.hi))
	res.Nodes -= int64(l.hi - l.i - 1) // counted by its walk, and again by the task
	l.hi = l.i + 1
	x.join(w, mine, old, res)
}

// scan spawns the children i, i+1, ... of the node with state s at depth h
// up to the first internal one, counting the leaves into res. It returns
// that child's index and number of children, its state left in *c, or
// (hi, 0) if the children up to hi-1 are all leaves. It is the loop of
// serial, kept out of line so that walk's many live values are not spilled
// and reloaded around every spawn (measured: with this loop written in walk
// itself, P=1 took 6% longer than serial on T3 even with no fork at all).
//
//go:noinline
func (x *search) scan(s *state, h, i, hi int, c *state, res *Result) (int, int) {
	for ; i < hi; i++ {
		spawn(s, uint32(i), c)
		if k := x.numChildren(c, h+1); k != 0 {
			return i, k
		}
		res.Leaves++
	}
	return hi, 0
}
