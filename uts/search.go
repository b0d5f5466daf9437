package uts

import "github.com/gofork/gofork/core"

// splitMin is the smallest child range that the parallel search splits in
// two halves (a Binomial root's 2000 children, a Geometric node's rare
// dozens). A smaller range is walked child by child: leaves (80-90% of the
// nodes of the benchmark trees) are counted on the spot, and an internal
// child is forked off against the rest of the range, so the stealable part
// is still everything left to do there. Splitting down to single children
// instead would cost a fork per node, mostly around leaves.
const splitMin = 9

// restMin is the fewest siblings that must follow an internal child for
// the walk to fork the child's subtree against them; with fewer, they are
// walked after the subtree in the same task.
const restMin = 3

// Result is what a search counts: every node of the tree (the root
// included), the nodes without children, and the largest depth of any node
// (the root has depth 0).
type Result struct {
	Nodes, Leaves int64
	MaxDepth      int
}

// add merges the counts of two disjoint parts of a tree.
func (r Result) add(o Result) Result {
	return Result{Nodes: r.Nodes + o.Nodes, Leaves: r.Leaves + o.Leaves, MaxDepth: max(r.MaxDepth, o.MaxDepth)}
}

// Option configures Search.
type Option func(*options)

type options struct {
	pool *core.Pool
}

// WithPool runs the search on p instead of core.Default().
func WithPool(p *core.Pool) Option {
	if p == nil {
		panic("uts: WithPool(nil)")
	}
	return func(o *options) { o.pool = p }
}

// compile checks t and returns its rule, panicking on a bad field.
func compile(t Tree) *rule {
	if err := t.validate(); err != nil {
		panic(err.Error())
	}
	return newRule(t)
}

// SearchSerial walks the whole tree depth-first on the calling goroutine
// and returns its counts. It panics if a field of t is out of range (see
// Parse for the ranges).
func SearchSerial(t Tree) Result {
	r := compile(t)
	root := rootState(uint32(t.Seed))
	n := r.numChildren(&root, 0)
	res := Result{Nodes: 1}
	if n == 0 {
		res.Leaves = 1
		return res
	}
	r.serial(root, 0, n, &res)
	return res
}

// serial counts the n children of the node with state s at depth h and
// everything below them into res.
func (r *rule) serial(s state, h, n int, res *Result) {
	res.Nodes += int64(n)
	res.MaxDepth = max(res.MaxDepth, h+1)
	for i := range n {
		var c state
		spawn(&s, uint32(i), &c)
		k := r.numChildren(&c, h+1)
		if k == 0 {
			res.Leaves++
			continue
		}
		r.serial(c, h+1, k, res)
	}
}

// Search walks the whole tree as fork-join tasks on a core pool
// (core.Default() unless WithPool names another) and returns its counts,
// which are always those of SearchSerial. It panics if a field of t is out
// of range (see Parse for the ranges).
//
// Each task owns a range of one node's children: the node's 20-byte state,
// its depth and the range travel by value in the task, so a fork allocates
// nothing. See children for how a range is split and walked.
func Search(t Tree, opts ...Option) Result {
	r := compile(t)
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.pool == nil {
		o.pool = core.Default()
	}
	root := rootState(uint32(t.Seed))
	n := r.numChildren(&root, 0)
	res := Result{Nodes: 1}
	if n == 0 {
		res.Leaves = 1
		return res
	}
	r.fork = r.children // the one method value every fork passes
	all := newTask(pack(root), 0, 0, int32(n))
	return res.add(core.Run(o.pool, func(w *core.Worker) Result { return r.children(w, all) }))
}

// task is the argument of every fork: the children lo..hi-1 of the node
// with the packed state s at depth, in four words. Four words of 32 bytes
// are what the compiler keeps in registers; a larger argument is built and
// copied through memory, and its narrow field stores then stall the wide
// loads that copy it (measured: a fork with a 40-byte span cost about 35 ns,
// one with this task about 13). The rule is not in the task but the
// receiver of the method value r.fork that every fork passes.
type task struct {
	s01, s23 uint64 // state words H0 | H1<<32 and H2 | H3<<32
	s4d      uint64 // state word H4 | depth<<32
	lohi     uint64 // lo | hi<<32
}

func newTask(p packed, depth, lo, hi int32) task {
	return task{p.s01, p.s23, uint64(p.s4) | uint64(uint32(depth))<<32, uint64(uint32(lo)) | uint64(uint32(hi))<<32}
}

func (t task) state() packed { return packed{t.s01, t.s23, uint32(t.s4d)} }
func (t task) depth() int32  { return int32(t.s4d >> 32) }
func (t task) lo() int32     { return int32(uint32(t.lohi)) }
func (t task) hi() int32     { return int32(t.lohi >> 32) }

// withRange returns t for the children lo..hi-1.
func (t task) withRange(lo, hi int32) task {
	t.lohi = uint64(uint32(lo)) | uint64(uint32(hi))<<32
	return t
}

// children counts the children lo..hi-1 of the task's node and their
// subtrees.
//
// A range of splitMin or more children is split in halves, the larger
// half left to thieves. A smaller one is walked in order, leaves counted on
// the spot. At an internal child with at least restMin siblings after it,
// the child's subtree and the rest of the range are forked, the rest being
// left to thieves; otherwise the subtree is searched inline, as it is when
// the rule says that its children are all leaves (a subtree of a few nodes,
// such as every node one level above the end of a Fixed tree). The last
// child's children are walked in the same frame, so a chain of internal
// nodes costs no call.
func (r *rule) children(w *core.Worker, t task) Result {
	var res Result
	for {
		lo, hi := t.lo(), t.hi()
		if hi-lo >= splitMin {
			mid := lo + (hi-lo)/2
			a, b := core.Join(w, r.fork, t.withRange(lo, mid), r.fork, t.withRange(mid, hi))
			return res.add(a).add(b)
		}
		if hi == lo {
			return res
		}
		h := t.depth() + 1
		res.MaxDepth = max(res.MaxDepth, int(h))
		res.Nodes += int64(hi - lo)
		small := r.leafLevel(int(h) + 1)
		p := t.state()
		var c packed
		k := 0
		i := lo
		for ; i < hi; i++ {
			spawnPacked(p, uint32(i), &c)
			if k = r.draw(c.s4, int(h)); k == 0 {
				res.Leaves++
				continue
			}
			if i+1 == hi {
				break
			}
			sub := newTask(c, h, 0, int32(k))
			if small || hi-(i+1) < restMin {
				res = res.add(r.children(w, sub))
				continue
			}
			res.Nodes -= int64(hi - (i + 1)) // the rest counts its own
			a, b := core.Join(w, r.fork, sub, r.fork, t.withRange(i+1, hi))
			return res.add(a).add(b)
		}
		if i == hi {
			return res
		}
		t = newTask(c, h, 0, int32(k)) // the last child: go on with its children
	}
}
