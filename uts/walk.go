package uts

import (
	"sync"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// The parallel walk. A task walks a range of one node's children depth
// first, in the order of the serial search. Subtrees are searched by
// serialPoll, the serial recursion plus one check of core.Worker.Hungry per
// internal node; only where the walk may fork does its recursion live on an
// explicit stack of open ranges (openRanges). It forks in two cases:
//
//   - When a task starts, while the worker has fewer than maxPending forks
//     waiting for thieves (core.Worker.Pending), a range of splitMin or more
//     children gives its upper half to a task of its own, repeatedly. This
//     is the max-tasks cut-off of Duran, Corbalán and Ayguadé ("An adaptive
//     cut-off for task parallelism", SC 2008): with one worker it forks only
//     at the root, so the walk is the serial one almost everywhere.
//   - When a worker of the pool is out of work (core.Worker.Hungry), a
//     serial recursion in progress stops and leaves its frames on the stack
//     of open ranges, and at the next internal child the oldest range this
//     worker has open with siblings left, at the shallowest level of its
//     recursion, is promoted: those siblings become a task (core.Spawn) that
//     a thief can take, and the walk goes on where it was. The promoted
//     task is synced when the walk gets back to the level it came from,
//     after everything deeper: as in Cilk's continuation stealing, the
//     thief took the oldest continuation, and the owner finishes the rest
//     of its path before it needs the thief's result.
//
// The second case is the promotion of latent parallelism of heartbeat
// scheduling (Acar, Charguéraud, Guatto, Rainey and Sieczkowski, "Heartbeat
// scheduling: provable efficiency for nested parallelism", PLDI 2018), with
// a thief's hunger as the heartbeat. In Binomial trees every level's rest is
// as big, in expectation, as any other, and the shallow ones have had the
// least taken from them, so the thief takes the biggest piece on offer, as
// it would if every level had forked, without the cost of forking at every
// level.
//
// The designs it replaced (a fork at every internal node, every level on
// an explicit stack, forks only at the top, joining a promoted task at
// once) each cost more at P=1 or starved a thief; docs/BENCHMARKS.md has
// the figures.

// splitMin is the smallest child range that a task splits in halves (a
// Binomial root's 2000 children, a Geometric node's rarer dozen).
const splitMin = 9

// maxPending bounds the forks a worker makes while nobody is hungry: a task
// splits its range only while core.Worker.Pending is below it.
const maxPending = 8

// search is one parallel search: the compiled rule and, per worker, the
// ranges its walk has open.
type search struct {
	*rule
	fork func(*core.Worker, task) Result // the method value x.task, made once
	// open holds each worker's open ranges, indexed by core.Worker.ID. It
	// grows (under grow, copied and stored whole) when a worker with a
	// larger ID joins the search: a spare standing in for a blocked worker,
	// or a worker added because GOMAXPROCS grew.
	open atomic.Pointer[[]*openRanges]
	grow sync.Mutex

	promoteAlways bool // see searchOn
}

func newSearch(r *rule, workers int) *search {
	x := &search{rule: r}
	open := make([]*openRanges, workers)
	for i := range open {
		open[i] = new(openRanges)
	}
	x.open.Store(&open)
	x.fork = x.task
	return x
}

// openOf returns w's stack of open ranges.
func (x *search) openOf(w *core.Worker) *openRanges {
	if open := *x.open.Load(); w.ID() < len(open) {
		return open[w.ID()]
	}
	return x.openSlow(w)
}

func (x *search) openSlow(w *core.Worker) *openRanges {
	x.grow.Lock()
	defer x.grow.Unlock()
	open := *x.open.Load()
	if w.ID() < len(open) {
		return open[w.ID()]
	}
	bigger := make([]*openRanges, max(w.ID()+1, w.Pool().MaxWorkerID()))
	copy(bigger, open)
	for i := len(open); i < len(bigger); i++ {
		bigger[i] = new(openRanges)
	}
	x.open.Store(&bigger) // publishes the new entries; pairs with the Load in openOf
	return bigger[w.ID()]
}

// release gives the stacks of open ranges back for the next search.
func (x *search) release() {
	for _, o := range *x.open.Load() {
		if o.buf != nil {
			o.buf.levels, o.buf.spawns = o.levels, o.spawns[:0]
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
// its frames there too. Entries below a task's first one belong to walks
// suspended in a Sync that runs other tasks while it waits.
//
// Any walk may cut a range short and spawn its siblings as a task of its
// own (promote), recording the spawn on spawns; the walk that owns the range
// syncs it when it closes the range. Spawned tasks must be synced last in,
// first out, so a range may be promoted only if it is no older than the
// newest range with a spawn not yet synced (the level of the last entry of
// spawns; see oldest). Every level is kept,
// however deep: the oldest work is what promotion is for, and keeping only
// the first 256 levels, say, left T3L's deep paths with nothing to promote
// (Ts/T2 1.44 against 1.86).
type openRanges struct {
	levels []openRange // levels[:n] are open; levels[n] takes the next child's state
	n      int
	spawns []spawned // not yet synced, oldest first; their levels never decrease
	buf    *openBuf  // where levels and spawns go back to after the search
	// floor is the lowest index that may still have siblings left: every
	// range below it has none (a range's i only grows and its hi only
	// shrinks while it is open).
	floor int
	// nextPoll is the node count of the running task's result at which
	// serialPoll next calls Poll (see pollNodes).
	nextPoll int64
	_        [64]byte // keep workers' stacks off each other's cache lines
}

// pollNodes is how many nodes serialPoll counts between two calls of
// core.Worker.Poll, which lets in a root submitted to the pool that has
// waited too long (and shares frames a thief asked for): about 30 µs of
// search at 30 ns a node.
const pollNodes = 1024

// openBuf carries a stack between searches (through openStacks).
type openBuf struct {
	levels []openRange
	spawns []spawned
}

// openRange is one level of a walk: the children i..hi-1 of the node with
// state s at depth h are still to be walked (the child before i, if any, is
// being walked at the level above).
type openRange struct {
	s     state
	h     int32
	i, hi int32
}

// spawned is a task promoted or split off from the range at index level.
type spawned struct {
	t     core.Spawned[task, Result]
	level int
}

// reserve makes room for levels[n], the next child's state.
func (o *openRanges) reserve() {
	if o.n < len(o.levels) {
		return
	}
	if o.buf == nil {
		b, ok := openStacks.Get().(*openBuf)
		if !ok {
			b = &openBuf{levels: make([]openRange, 64)}
		}
		o.buf, o.levels, o.spawns = b, b.levels, b.spawns
		if o.n < len(o.levels) {
			return
		}
	}
	for o.n >= len(o.levels) {
		o.levels = append(o.levels, make([]openRange, len(o.levels))...)
	}
}

// oldest returns the index of the lowest open range below j with a sibling
// left that may be promoted, or -1.
func (o *openRanges) oldest(j int) int {
	p := o.floor
	if k := len(o.spawns); k > 0 {
		p = max(p, o.spawns[k-1].level)
	}
	for ; p < j; p++ {
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

// task counts the task's children and their subtrees: the function every
// fork runs. Its range opens at the first free index of the worker's stack;
// while the range is large and the worker has few forks waiting, the upper
// half is spawned (and synced when the range closes).
func (x *search) task(w *core.Worker, t task) Result {
	var res Result
	o := x.openOf(w)
	o.nextPoll = pollNodes
	base := o.n
	o.reserve()
	l := &o.levels[base]
	l.s = t.state().unpack()
	h, lo, hi := t.depth(), t.lo(), t.hi()
	for hi-lo >= splitMin && w.Pending() < maxPending {
		mid := lo + (hi-lo)/2
		x.offer(w, o, newTask(pack(&l.s), h, mid, hi), base)
		hi = mid
	}
	l.h, l.i, l.hi = int32(h), int32(lo), int32(hi)
	o.n = base + 1
	res.Nodes += int64(hi - lo)
	res.MaxDepth = max(res.MaxDepth, h+1)
	x.walk(w, o, base, &res)
	return res
}

// walk works on the open ranges from index base up until they are all
// closed, counting into res: the top range's next internal child is
// searched by serialPoll, which may leave ranges of its own on top.
func (x *search) walk(w *core.Worker, o *openRanges, base int, res *Result) {
	for o.n > base {
		j := o.n - 1
		o.reserve() // levels[j+1] receives the children's states
		l := &o.levels[j]
		c := &o.levels[j+1].s
		i, k := x.scan(&l.s, int(l.h), int(l.i), int(l.hi), c, res)
		if i == int(l.hi) {
			l.i = l.hi
			x.close(w, o, j, base, res)
			continue
		}
		l.i = int32(i + 1)
		h := int(l.h) + 1 // the child's depth
		if x.serialLevel(h) {
			x.serial(c, h, k, res)
			continue
		}
		if w.Hungry() || x.promoteAlways {
			if p := o.oldest(j + 1); p >= 0 {
				x.promote(w, o, p, res)
			} else {
				// Nothing to promote: if a thief asked this worker for
				// work, share the frames it holds privately.
				w.Poll()
			}
		}
		x.serialPoll(w, o, c, h, k, j+1, res)
	}
}

// close closes the range at index j, which has no children left, and every
// range below it down to base that has none either, syncing the tasks
// spawned from each and adding their counts to res. A range stays open
// while its tasks are synced, so that work run meanwhile on this worker
// (stolen back from the thief) opens its ranges above it, and cannot
// promote below it.
func (x *search) close(w *core.Worker, o *openRanges, j, base int, res *Result) {
	for {
		for k := len(o.spawns) - 1; k >= 0 && o.spawns[k].level == j; k-- {
			*res = res.add(o.spawns[k].t.Sync(w))
			o.spawns = o.spawns[:k]
		}
		o.n = j
		o.floor = min(o.floor, j)
		if j == base {
			return
		}
		j--
		if l := &o.levels[j]; l.i < l.hi {
			return
		}
	}
}

// promote cuts the open range p short and spawns its siblings left as a
// task (the oldest work this worker holds).
func (x *search) promote(w *core.Worker, o *openRanges, p int, res *Result) {
	l := &o.levels[p]
	t := newTask(pack(&l.s), int(l.h), int(l.i), int(l.hi))
	res.Nodes -= int64(l.hi - l.i) // counted when the range was opened, and again by the task
	l.hi = l.i
	x.offer(w, o, t, p)
}

// offer spawns t, cut off the range at index level, and records it there
// for close to sync.
func (x *search) offer(w *core.Worker, o *openRanges, t task, level int) {
	o.spawns = append(o.spawns, spawned{core.Spawn(w, x.fork, t), level})
}

// serialPoll counts the n children of the node with state *s at depth h,
// and everything below them, into res, like serial, unless a worker of the
// pool becomes hungry. Then it stops at the next internal child, leaves its
// levels on o from index lvl up (the innermost on top, each with the
// children it has not walked yet) and returns false, for the walk to go on
// from there.
func (x *search) serialPoll(w *core.Worker, o *openRanges, s *state, h, n, lvl int, res *Result) bool {
	res.Nodes += int64(n)
	res.MaxDepth = max(res.MaxDepth, h+1)
	if res.Nodes >= o.nextPoll {
		o.nextPoll = res.Nodes + pollNodes
		w.Poll()
	}
	var c state
	for i := 0; i < n; i++ {
		spawn(s, uint32(i), &c)
		k := x.numChildren(&c, h+1)
		if k == 0 {
			res.Leaves++
			continue
		}
		if w.Hungry() || x.promoteAlways {
			o.n = lvl
			o.reserve()
			l := &o.levels[lvl]
			l.s, l.h, l.i, l.hi = *s, int32(h), int32(i), int32(n)
			o.n = lvl + 1
			return false
		}
		if !x.serialPoll(w, o, &c, h+1, k, lvl+1, res) {
			l := &o.levels[lvl]
			l.s, l.h, l.i, l.hi = *s, int32(h), int32(i+1), int32(n)
			return false
		}
	}
	return true
}

// scan spawns the children i, i+1, ... of the node with state s at depth h
// up to the first internal one, counting the leaves into res. It returns
// that child's index and number of children, its state left in *c, or
// (hi, 0) if the children up to hi-1 are all leaves. It is kept out of line
// so that walk's many live values are not spilled and reloaded around
// every spawn.
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
