package reduce

import (
	"golang.org/x/exp/constraints"

	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
)

// Body is the imperative form of a reduction (TBB's parallel_reduce body). B
// is the body's own type, usually a pointer to a struct.
type Body[I constraints.Integer, B any] interface {
	// Accumulate folds the subrange [lo, hi) into the receiver. One body
	// accumulates its subranges in increasing order.
	Accumulate(lo, hi I)
	// Split returns a fresh body, as at the start of the reduction, for a
	// right half that a thief took (TBB's splitting constructor). It may run
	// while the receiver accumulates on another worker, so it must read only
	// what Accumulate does not write (the input, not the running result).
	Split() B
	// Join merges right, the body of the subrange just after the receiver's,
	// into the receiver.
	Join(right B)
}

// ReduceBody reduces [lo, hi) into body in parallel. The range is cut by the
// partitioner named in opts; a subrange that runs on the same worker right
// after its left neighbour accumulates into the same body, and one that
// another worker took gets a body from Split and is joined back with Join
// once both sides are done, in range order. When ReduceBody returns, body
// holds the result for the whole range. Under Auto and Simple, when nothing
// is stolen (on a pool of one worker without spares, core.WithMaxSpares(0),
// nothing is), Split and Join are never called. Static
// (one chunk a worker) and Affinity (up to eight) cut the range into fixed
// chunks before any runs, and every chunk after the first gets a body from
// Split, joined back in range order, whichever worker runs it. An empty
// range does nothing.
func ReduceBody[I constraints.Integer, B Body[I, B]](lo, hi I, body B, opts ...par.Option) {
	reduceBody(resolve("reduce.ReduceBody", opts), lo, hi, body)
}

// reduceBody is ReduceBody with resolved options.
func reduceBody[I constraints.Integer, B Body[I, B]](c loop.Config, lo, hi I, body B) {
	n := count(lo, hi)
	if n == 0 {
		return
	}
	loop.Split(n, bodyAcc[B]{b: body}, loop.Ops[bodyAcc[B]]{
		Leaf: func(a, b uint64, acc bodyAcc[B]) bodyAcc[B] {
			acc.b.Accumulate(lo+I(a), lo+I(b))
			return acc
		},
		Right: func(p bodyAcc[B], stolen bool) bodyAcc[B] {
			if stolen {
				return bodyAcc[B]{b: p.b.Split(), split: true}
			}
			return bodyAcc[B]{b: p.b} // runs after the left half: keep accumulating
		},
		Join: func(x, y bodyAcc[B]) bodyAcc[B] {
			if y.split {
				x.b.Join(y.b)
			}
			return x
		},
	}, c, nil)
}

// bodyAcc is the accumulator ReduceBody threads through its loop: the body
// that a subrange accumulates into, and whether that body was split off for
// it (and so must be joined into its left neighbour's).
type bodyAcc[B any] struct {
	b     B
	split bool
}
