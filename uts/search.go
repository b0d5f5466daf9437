package uts

import (
	"strings"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
)

// Result is what a search counts: every node of the tree (the root
// included), the nodes without children, and the largest depth of any node
// (the root has depth 0).
type Result struct {
	// Nodes is the number of nodes of the tree, the root included.
	Nodes int64
	// Leaves is the number of nodes without children.
	Leaves int64
	// MaxDepth is the largest depth of any node; the root has depth 0.
	MaxDepth int
}

// add merges the counts of two disjoint parts of a tree.
func (r Result) add(o Result) Result {
	return Result{Nodes: r.Nodes + o.Nodes, Leaves: r.Leaves + o.Leaves, MaxDepth: max(r.MaxDepth, o.MaxDepth)}
}

// compile checks t and returns its rule, panicking on a bad field with a
// message that names the entry point call ("uts.Search").
func compile(call string, t Tree) *rule {
	if err := t.validate(); err != nil {
		panic(strings.Replace(call, ".", ": ", 1) + ": " + err.Error())
	}
	return newRule(t)
}

// SearchSerial walks the whole tree depth-first on the calling goroutine
// and returns its counts. It panics if a field of t is out of range (see
// Parse for the ranges).
func SearchSerial(t Tree) Result {
	r := compile("uts.SearchSerial", t)
	root := rootState(uint32(t.Seed))
	n := r.numChildren(&root, 0)
	res := Result{Nodes: 1}
	if n == 0 {
		res.Leaves = 1
		return res
	}
	r.serial(&root, 0, n, &res)
	return res
}

// serial counts the n children of the node with state *s at depth h and
// everything below them into res. States go by pointer: a by-value copy of
// a state just written by spawn reads it with an overlapping 16-byte load
// that cannot be forwarded from spawn's stores, and measured 3-4% slower.
func (r *rule) serial(s *state, h, n int, res *Result) {
	res.Nodes += int64(n)
	res.MaxDepth = max(res.MaxDepth, h+1)
	var c state
	for i := range n {
		spawn(s, uint32(i), &c)
		k := r.numChildren(&c, h+1)
		if k == 0 {
			res.Leaves++
			continue
		}
		r.serial(&c, h+1, k, res)
	}
}

// Search walks the whole tree as fork-join tasks and returns its counts,
// which are always those of SearchSerial. Its one option is par.WithPool. It
// panics if a field of t is out of range (see Parse for the ranges).
//
// A task owns a range of one node's children: the node's 20-byte state, its
// depth and the range travel by value in the task, so a fork allocates
// nothing (see the package doc for how the tree is walked and when it
// forks).
func Search(t Tree, opts ...par.Option) Result {
	pool := loop.Resolve("uts.Search", loop.SetPool, opts).Pool
	return searchOn(t, pool, false)
}

// searchOn is Search on pool; promoteAlways makes every walk act as if a
// worker were hungry, so that tests exercise promotion at every internal
// node.
func searchOn(t Tree, pool *core.Pool, promoteAlways bool) Result {
	r := compile("uts.Search", t)
	root := rootState(uint32(t.Seed))
	n := r.numChildren(&root, 0)
	res := Result{Nodes: 1}
	if n == 0 {
		res.Leaves = 1
		return res
	}
	x := newSearch(r, pool.MaxWorkerID())
	x.promoteAlways = promoteAlways
	defer x.release()
	all := newTask(pack(&root), 0, 0, n)
	return res.add(core.RunValue(pool, func(w *core.Worker) Result { return x.task(w, all) }))
}
