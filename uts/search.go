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
	all := span{r: r, s: root, depth: 0, lo: 0, hi: int32(n)}
	return res.add(core.Run(o.pool, func(w *core.Worker) Result { return children(w, all) }))
}

// span is a task: children lo..hi-1 of the node with state s at depth.
type span struct {
	r      *rule
	s      state
	depth  int32
	lo, hi int32
}

// children counts the children lo..hi-1 of a node and their subtrees.
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
func children(w *core.Worker, sp span) Result {
	var res Result
	r := sp.r
	for {
		if sp.hi-sp.lo >= splitMin {
			mid := sp.lo + (sp.hi-sp.lo)/2
			left, right := sp, sp
			left.hi, right.lo = mid, mid
			a, b := core.Join(w, children, left, children, right)
			return res.add(a).add(b)
		}
		h := sp.depth + 1
		if sp.hi == sp.lo {
			return res
		}
		res.MaxDepth = max(res.MaxDepth, int(h))
		res.Nodes += int64(sp.hi - sp.lo)
		small := r.leafLevel(int(h) + 1)
		var c state
		k := 0
		i := sp.lo
		for ; i < sp.hi; i++ {
			spawn(&sp.s, uint32(i), &c)
			if k = r.numChildren(&c, int(h)); k == 0 {
				res.Leaves++
				continue
			}
			if i+1 == sp.hi {
				break
			}
			sub := span{r: r, s: c, depth: h, lo: 0, hi: int32(k)}
			if small || sp.hi-(i+1) < restMin {
				res = res.add(children(w, sub))
				continue
			}
			rest := sp
			rest.lo = i + 1
			res.Nodes -= int64(sp.hi - rest.lo) // the rest counts its own
			a, b := core.Join(w, children, sub, children, rest)
			return res.add(a).add(b)
		}
		if i == sp.hi {
			return res
		}
		sp = span{r: r, s: c, depth: h, lo: 0, hi: int32(k)} // the last child
	}
}
