package uts

import (
	"sync"

	"github.com/gofork/gofork/core"
)

// The parallel walk. A task walks a range of one node's children depth
// first, in the order of the serial search. Its recursion lives on an
// explicit stack of open ranges (openRanges) only where it may fork; below
// that, subtrees are searched by serialPoll, the serial recursion plus one
// check of core.Worker.Hungry per internal node. The walk forks in two
// cases:
//
//   - At the top of the recursion, while the worker has fewer than
//     maxPending forks waiting for thieves (core.Worker.Pending): a range of
//     splitMin or more children is split in halves, and at an internal child
//     with restMin or more siblings after it the child's subtree is forked
//     against the rest of the range. With one worker this happens only near
//     the root, so the walk is the serial one almost everywhere.
//   - When a worker of the pool is out of work (core.Worker.Hungry): a
//     serial recursion in progress stops and leaves its frames on the stack
//     of open ranges, and at the next internal child the oldest range this
//     worker still has open, the siblings left at the shallowest level of
//     its recursion, is promoted to a task and forked against what is left
//     of the current range. The thief thus takes the biggest piece on offer,
//     as it would if every level had forked, without the cost of forking at
//     every level: in Binomial trees every level's rest is as big, in
//     expectation, as any other, and the shallow ones have had the least
//     taken from them.
//
// This is the promotion of latent parallelism of heartbeat scheduling
// (Acar, Charguéraud, Guatto, Rainey and Sieczkowski, "Heartbeat
// scheduling: provable efficiency for nested parallelism", PLDI 2018), with
// a thief's hunger as the heartbeat. Measured on T1L and T3L at P=1 against
// the serial search: forking at every internal node (what libfork's UTS
// does) cost 12-16%; keeping every level on the explicit stack cost 7-10%
// on T3L, whose every internal node then paid for it; searching subtrees
// with serialPoll costs 1-5%. Forking only at the top, with no promotion,
// starved the second worker on T3L (Ts/T2 1.43), because the only frames on
// offer were the small rests deep down where the owner was when its last
// frame was taken.

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

// openRanges is the stack of the ranges one worker is walking, innermost
// last: the walk's recursion stack where it may fork, kept explicitly rather
// than in Go frames. Only that worker touches it. A task's walk pushes its
// range on top and works on the top entry; a serialPoll that stops pushes
// its frames there too. The entries below the top belong to walks suspended
// in a Join whose first half runs here, which read their entry again when
// the Join returns. So any walk may cut a lower range short and fork its
// siblings as a task of its own (promote). Every level is kept, however
// deep: the oldest work is what promotion is for, and keeping only the
// first 256 levels, say, left T3L's deep paths with nothing to promote
// (Ts/T2 1.44 against 1.86).
type openRanges struct {
	levels []openRange // levels[:n] are open; levels[n] takes the next child's state
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

// openRange is one level of a walk: the children i..hi-1 of the node with
// state s at depth h are still to be walked (the child before i, if any, is
// being walked at the level above).
type openRange struct {
	s     state
	h     int32
	i, hi int32
}

// reserve makes sure that levels[n] exists.
func (o *openRanges) reserve() {
	if o.n < len(o.levels) {
		return
	}
	if o.buf == nil {
		b, ok := openStacks.Get().(*openBuf)
		if !ok {
			b = &openBuf{levels: make([]openRange, 64)}
		}
		o.buf, o.levels = b, b.levels
		if o.n < len(o.levels) {
			return
		}
	}
	for o.n >= len(o.levels) {
		o.levels = append(o.levels, make([]openRange, len(o.levels))...)
	}
}

// pop closes the range at index j and every range above it.
func (o *openRanges) pop(j int) {
	o.n = j
	o.floor = min(o.floor, j)
}

// oldest returns the index of the lowest open range below j with a sibling
// left, or -1.
func (o *openRanges) oldest(j int) int {
	for p := o.floor; p < j; p++ {
		if l := &o.levels[p]; l.i < l.hi {
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
	o := &x.open[w.ID()]
	base := o.n
	o.reserve()
	o.levels[base].s = t.state().unpack()
	if x.enter(w, o, t.depth(), t.lo(), t.hi(), &res) {
		x.walk(w, o, base, &res)
	}
	return res
}

// enter opens the range lo..hi-1 of the node at depth h whose state is in
// o.levels[o.n], or, if it is large and the worker may fork, splits it in
// halves and forks them; it reports whether it opened the range.
func (x *search) enter(w *core.Worker, o *openRanges, h, lo, hi int, res *Result) bool {
	j := o.n
	if hi-lo >= splitMin && w.Pending() < maxPending {
		t := newTask(pack(&o.levels[j].s), h, lo, hi)
		x.split(w, t, res)
		return false
	}
	l := &o.levels[j]
	l.h, l.i, l.hi = int32(h), int32(lo), int32(hi)
	o.n = j + 1
	res.Nodes += int64(hi - lo)
	res.MaxDepth = max(res.MaxDepth, h+1)
	return true
}

// walk counts everything in the ranges open above base, into res, in the
// serial search's order: it scans the top range for its next internal
// child, whose state spawn leaves in the free level above, and opens that
// child's range on top, or forks:
//
//   - if a worker is hungry, the oldest range with siblings left below the
//     top is cut short and its siblings are forked against what is left of
//     the top range (promote);
//   - if the worker has fewer than maxPending frames waiting for thieves,
//     the child is forked against its siblings (restMin of them at least),
//     and a child with splitMin children or more has them split in halves.
//
// A range forked away is closed at once: its tasks own what was left of it.
// Children whose subtrees are expected to be small (see expectedSmall) are
// searched by the serial search's code.
func (x *search) walk(w *core.Worker, o *openRanges, base int, res *Result) {
	for o.n > base {
		j := o.n - 1
		o.reserve() // levels[j+1] receives the children's states
		l := &o.levels[j]
		c := &o.levels[j+1].s
		i, k := x.scan(&l.s, int(l.h), int(l.i), int(l.hi), c, res)
		if i == int(l.hi) {
			// The node is done, and so is every node below whose last
			// child it was.
			for j > base && o.levels[j-1].i == o.levels[j-1].hi {
				j--
			}
			o.pop(j)
			continue
		}
		l.i = int32(i + 1)
		h := int(l.h) + 1 // the child's depth
		if x.serialLevel(h) {
			x.serial(c, h, k, res)
			continue
		}
		if left := int(l.hi) - (i + 1); left > 0 {
			if w.Hungry() || x.promoteAlways {
				if p := o.oldest(j); p >= 0 {
					mine := newTask(pack(&l.s), int(l.h), i, int(l.hi))
					res.Nodes -= int64(left + 1) // mine counts them
					o.pop(j)
					x.promote(w, o, p, mine, res)
					continue
				}
				// Nothing to promote: if a thief asked this worker for
				// work, share the frames it holds privately.
				w.Poll()
			}
			if left >= restMin && w.Pending() < maxPending {
				kid := newTask(pack(c), h, 0, k)
				rest := newTask(pack(&l.s), int(l.h), i+1, int(l.hi))
				res.Nodes -= int64(left) // rest counts them
				o.pop(j)
				x.join(w, kid, rest, res)
				continue
			}
		}
		// Walk the child's subtree serially unless a thief gets hungry
		// meanwhile; then its recursion is left in levels j+1.. (see
		// serialPoll) and this loop goes on from there.
		x.serialPoll(w, o, c, h, k, j+1, res)
	}
}

// serialPoll counts the n children of the node with state *s at depth h and
// everything below them into res, like serial, but checks at every internal
// node whether a worker is hungry. If one is, it stops and leaves what is
// left of its recursion on o as open ranges: the frame for depth h at index
// lvl, the deeper ones above it, and o.n just above the deepest; walk then
// goes on from there and can promote them. It reports whether it finished.
// s may point into o.levels: a stopping frame copies it after the deepest
// one may have grown o.levels, and the old array still holds it.
func (x *search) serialPoll(w *core.Worker, o *openRanges, s *state, h, n, lvl int, res *Result) bool {
	res.Nodes += int64(n)
	res.MaxDepth = max(res.MaxDepth, h+1)
	var c state
	for i := 0; i < n; i++ {
		spawn(s, uint32(i), &c)
		k := x.numChildren(&c, h+1)
		if k == 0 {
			res.Leaves++
			continue
		}
		if w.Hungry() || x.promoteAlways {
			// Leave this node's children from i on, then stop.
			o.n = lvl
			o.reserve()
			l := &o.levels[lvl]
			l.s, l.h, l.i, l.hi = *s, int32(h), int32(i), int32(n)
			o.n = lvl + 1
			return false
		}
		if !x.serialPoll(w, o, &c, h+1, k, lvl+1, res) {
			// A deeper frame stopped: leave this node's children after i
			// below it.
			l := &o.levels[lvl]
			l.s, l.h, l.i, l.hi = *s, int32(h), int32(i+1), int32(n)
			return false
		}
	}
	return true
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

// promote cuts the open range p short and forks its siblings left (the
// oldest work this worker holds) against mine, the rest of the top range,
// adding both counts to res.
func (x *search) promote(w *core.Worker, o *openRanges, p int, mine task, res *Result) {
	l := &o.levels[p]
	old := newTask(pack(&l.s), int(l.h), int(l.i), int(l.hi))
	res.Nodes -= int64(l.hi - l.i) // counted when the range was opened, and again by old
	l.hi = l.i
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
