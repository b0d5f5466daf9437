package loop

import (
	"math"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// Ops are the callbacks of a split/join loop run by Split.
type Ops[T any] struct {
	// Leaf folds the offsets [a, b) into acc and returns the result. Leaves of
	// one loop may run at the same time on different workers.
	Leaf func(a, b uint64, acc T) T
	// LeafOn is Leaf for a loop that needs the worker running each leaf:
	// state kept per worker (Worker.ID), or Worker.Poll inside a long leaf.
	// Exactly one of Leaf and LeafOn is set.
	LeafOn func(w *core.Worker, a, b uint64, acc T) T
	// Right returns the value a right half starts from, given the value its
	// parent range started from. stolen is false only when the right half
	// runs on the same worker as the left half and after it has finished, so
	// that it can go on accumulating into the same value; it is true when
	// another worker took the right half, and always on a HelpFirst pool
	// (there the right half runs first). TBB calls its splitting constructor
	// for stolen halves only in the same way. Under Static and Affinity,
	// whose chunks are fixed before any runs, every chunk after the first
	// is a right half with stolen true. Nil: right halves start from their
	// parent's value.
	Right func(parent T, stolen bool) T
	// Join merges y, the result of a right half, into x, the result of the
	// left half just before it, and returns the merged value. Joins happen in
	// range order, so an associative Join gives the serial answer. Nil: x.
	Join func(x, y T) T
	// Fixed makes the result independent of scheduling: every leaf is a node
	// of one binary tree that splits [0, n) at midpoints down to leaves of at
	// most the grain (Simple(g), else Grain(n), else deterministicGrain
	// iterations), each
	// leaf starts from the initial value, and results are joined along that
	// tree. Static and Affinity fall back to Auto. Right must be nil.
	Fixed bool
}

const (
	// autoChunksLog2 is how many levels Auto splits beyond log2(workers)
	// before it waits for theft: 2 levels give about four chunks per worker.
	autoChunksLog2 = 2
	// autoRearm is the split budget a stolen range gets back (TBB re-arms a
	// stolen range the same way): a thief splits its range into up to
	// 2^autoRearm pieces so that other idle workers find something to take.
	autoRearm = 2
	// autoBlockSplits is how many times an Auto range splits once its
	// budget is spent (never below the grain): its leaves run as up to 8
	// blocks, each a fork that idle workers and spares can take (see
	// splitTask).
	autoBlockSplits = 3
	// affinityChunksPerWorker is how many chunks Affinity cuts per worker.
	affinityChunksPerWorker = 8
	// deterministicGrain is the leaf size of Deterministic's fixed split tree
	// when no Simple or Grain option names one.
	deterministicGrain = 1024
)

// state is what every task of one Split call shares.
type state[T any] struct {
	leaf   func(a, b uint64, acc T) T
	leafOn func(w *core.Worker, a, b uint64, acc T) T // set instead of leaf
	right  func(parent T, stolen bool) T
	join   func(x, y T) T
	// task is splitTask[T], stored once so that forks pass a plain func
	// value and allocate nothing.
	task func(*core.Worker, span[T]) T

	splitAbove uint64 // a range splits only if it has more iterations than this
	treeGrain  uint64 // Fixed: leaf size of the fixed tree; 0 when not Fixed
	budget0    int32  // split budget of the whole range
	rearm      int32  // split budget a stolen range gets back (0: never)
	blocks0    int8   // Auto: block splits a range may make once its budget is spent
	helpFirst  bool   // the pool runs the right half of a Join first
	kind       Kind   // the partitioner the loop runs with (Fixed: Auto or Simple)

	// stop is set by the first leaf that panics or sees done closed; no leaf
	// starts once it is set. Written and read by every worker.
	stop atomic.Bool
	// cancelled records that a leaf was skipped because done was closed.
	cancelled atomic.Bool
	done      <-chan struct{} // nil: no context

	// Claim scheduling (Static, Affinity): k chunks of [0, n), each claimed
	// by exactly one of k tasks.
	n         uint64
	k         int
	init      T
	claimed   []atomic.Uint32 // claimed[c] != 0 once a task took chunk c (CAS by any worker)
	results   []T             // results[c]: written by chunk c's claimer, read after core.RunValue
	aff       *Affinity       // nil for Static
	hasRecord bool            // aff holds a mapping from an earlier call
	claimTask func(*core.Worker, claimSpan[T]) struct{}
}

// span is one range of a split loop, passed by value to each task.
type span[T any] struct {
	l      *state[T]
	acc    T
	a, b   uint64
	budget int32 // splits left before this range waits for theft
	owner  int32 // the worker that forked this range; -1 for the whole range
	blocks int8  // block splits left once budget is spent (Auto; see runLeaf)
	right  bool  // this is the right half of its parent
}

// Split runs ops over the offsets [0, n) with c's partitioner on c's pool
// and returns the joined result, and whether a leaf was skipped because done
// was closed (done may be nil). It returns init when n is 0. A panic in a
// callback stops new leaves from starting and reaches the caller.
func Split[T any](n uint64, init T, ops Ops[T], c Config, done <-chan struct{}) (T, bool) {
	if n == 0 {
		return init, false
	}
	l := newState(n, init, ops, c, done)
	switch l.kind {
	case Static:
		return l.runClaims(c.Pool, minChunks(c.Pool.Workers(), n))
	case AffinityKind:
		k := uint64(affinityChunksPerWorker * c.Pool.Workers())
		if g := n / c.Grain; g < k {
			k = max(g, 1)
		}
		l.aff = c.Affinity
		return l.runClaims(c.Pool, int(k))
	}
	r := core.RunValue(c.Pool, l.root)
	return r, l.cancelled.Load()
}

// newState checks ops and builds the state of one Split call;
// its kind is the partitioner the loop runs with.
func newState[T any](n uint64, init T, ops Ops[T], c Config, done <-chan struct{}) *state[T] {
	if (ops.Leaf == nil) == (ops.LeafOn == nil) {
		panic("loop: Split needs exactly one of Ops.Leaf and Ops.LeafOn")
	}
	if ops.Fixed && ops.Right != nil {
		panic("loop: Split with Fixed and a non-nil Ops.Right")
	}
	l := &state[T]{leaf: ops.Leaf, leafOn: ops.LeafOn, right: ops.Right, join: ops.Join, done: done, n: n, init: init}
	l.helpFirst = c.Pool.Policy() == core.HelpFirst
	p := c.Pool.Workers()
	l.kind = c.Kind
	if ops.Fixed {
		l.treeGrain = c.TreeGrain()
		if l.kind != Simple {
			l.kind = Auto
		}
	}
	switch l.kind {
	case Simple:
		l.splitAbove = c.Simple
		l.budget0 = math.MaxInt32
	case Auto:
		l.splitAbove = 2*c.Grain - 1 // both halves keep at least grain iterations
		if l.treeGrain > l.splitAbove {
			l.splitAbove = l.treeGrain
		}
		l.budget0 = log2Ceil(p) + autoChunksLog2
		l.rearm = autoRearm
		l.blocks0 = autoBlockSplits
	}
	l.task = splitTask[T]
	return l
}

// root runs the whole range of an Auto or Simple loop on w.
func (l *state[T]) root(w *core.Worker) T {
	return splitTask(w, span[T]{l: l, acc: l.init, b: l.n, budget: l.budget0, owner: -1, blocks: l.blocks0})
}

// minChunks returns min(p, n) as an int.
func minChunks(p int, n uint64) int {
	if n < uint64(p) {
		return int(n)
	}
	return p
}

// splitTask runs one range of an Auto or Simple loop: it splits while the
// partitioner allows and runs a leaf otherwise.
//
// An Auto range whose split budget is spent still splits into up to
// 2^autoBlockSplits blocks of at least the grain, as forks whose right
// halves stay on the worker's deque: a fork costs a few nanoseconds when
// nobody takes it, and every block that has not started is then a frame
// that an idle worker, or a spare standing in for a blocked one, can take
// (runLeaf shares them before the body runs), rather than a later part of
// one serial leaf loop.
func splitTask[T any](w *core.Worker, s span[T]) T {
	l := s.l
	if s.owner >= 0 {
		// Theft shows as a worker other than the forking one; either half
		// can be stolen (the left one on a HelpFirst pool).
		stolen := s.owner != int32(w.ID())
		if s.right && l.right != nil {
			s.acc = l.right(s.acc, stolen || l.helpFirst)
		}
		if stolen && s.budget < l.rearm {
			s.budget = l.rearm // demand-driven: a thief splits its range again
			s.blocks = l.blocks0
		}
	}
	if s.b-s.a > l.splitAbove && (s.budget > 0 || s.blocks > 0) && !l.stop.Load() {
		if s.budget > 0 {
			s.budget--
		} else {
			s.blocks--
		}
		s.owner, s.right = int32(w.ID()), false
		r := s
		r.a, r.right = s.a+(s.b-s.a)/2, true
		s.b = r.a
		x, y := core.Join(w, l.task, s, l.task, r)
		if l.join != nil {
			return l.join(x, y)
		}
		return x
	}
	return l.runLeaf(w, s.a, s.b, s.acc)
}

// runLeaf runs one leaf on w unless the loop has stopped. A panic in the
// leaf sets stop on its way out, so no further leaf starts.
//
// Before the body runs, the worker shares the frames it holds privately
// (core.Worker.Share): the body is the user's code, which may run long or
// block, and the rest of the loop must not wait behind it on this worker's
// deque. Share also lets in a root submitted to the pool that has waited too
// long, so every leaf start is a poll point.
func (l *state[T]) runLeaf(w *core.Worker, a, b uint64, acc T) T {
	if l.stopped() {
		return acc
	}
	w.Share()
	ok := false
	defer func() {
		if !ok {
			l.stop.Store(true) // panicking: hand out no more leaves
		}
	}()
	if l.treeGrain != 0 {
		acc = l.tree(w, a, b, acc)
	} else {
		acc = l.callLeaf(w, a, b, acc)
	}
	ok = true
	return acc
}

// stopped reports whether no more leaves may start: a leaf panicked, or the
// loop's done channel is closed (which it records).
func (l *state[T]) stopped() bool {
	if l.stop.Load() {
		return true
	}
	if l.done != nil {
		select {
		case <-l.done:
			l.cancelled.Store(true)
			l.stop.Store(true)
			return true
		default:
		}
	}
	return false
}

// callLeaf runs the loop's Leaf or LeafOn on [a, b) from acc.
func (l *state[T]) callLeaf(w *core.Worker, a, b uint64, acc T) T {
	if l.leafOn != nil {
		return l.leafOn(w, a, b, acc)
	}
	return l.leaf(a, b, acc)
}

// tree evaluates the node [a, b) of a Fixed loop's split tree serially on w.
func (l *state[T]) tree(w *core.Worker, a, b uint64, acc T) T {
	if b-a <= l.treeGrain {
		return l.callLeaf(w, a, b, acc)
	}
	mid := a + (b-a)/2
	x := l.tree(w, a, mid, acc)
	y := l.tree(w, mid, b, acc)
	if l.join != nil {
		return l.join(x, y)
	}
	return x
}
