package reduce

import (
	"strings"

	"golang.org/x/exp/constraints"

	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
)

// resolve resolves the options of the entry point call, which takes those
// of a parallel loop: par.WithPool, par.Grain and a partitioner. Every
// function of the package resolves its options before it looks at its
// input, so that a bad option is refused on an empty or short input too.
func resolve(call string, opts []par.Option) loop.Config {
	return loop.Resolve(call, loop.Loops, opts)
}

// count returns the number of iterations in [lo, hi), computed in the
// unsigned domain so that it cannot overflow, and 0 when hi <= lo.
func count[I constraints.Integer](lo, hi I) uint64 {
	if hi <= lo {
		return 0
	}
	return uint64(hi) - uint64(lo) // modulo 2^64: exact for every pair lo < hi
}

// Reduce folds [lo, hi) to one value in parallel. The range is cut into
// subranges by the partitioner named in opts; body(a, b, acc) folds the
// subrange [a, b) into acc and returns the result, where acc is identity or
// the result for the subrange that ended at a on the same worker, and
// join(x, y) merges the results of neighbouring runs, x's before y's, until
// one value is left. An empty range returns identity.
//
// join must be associative and identity its identity; join need not be
// commutative. How the range is cut depends on the scheduling, so with a
// join that is associative only up to rounding (float addition) the result
// can differ in the last bits between runs; use Deterministic where that
// matters. A panic in body or join stops new subranges from starting and
// reaches the caller.
func Reduce[I constraints.Integer, T any](lo, hi I, identity T,
	body func(lo, hi I, acc T) T, join func(x, y T) T, opts ...par.Option) T {
	c := resolve("reduce.Reduce", opts)
	checkFuncs("reduce.Reduce", "body", body == nil, "join", join == nil)
	return fold(c, lo, hi, identity, body, join, false)
}

// Deterministic is Reduce with a result that does not depend on the
// scheduling: the range is cut along one binary tree that halves [lo, hi) at
// its midpoint down to leaves of at most the grain (par.Simple(g), else
// par.Grain(n), else 1024 iterations), each leaf folds from identity, and the
// results are joined along that tree. The same range, grain and functions give
// the same bits on every run and with every worker count, and a float sum is
// computed pairwise over leaves, which also bounds its rounding error better
// than a serial loop. par.Static and par.Affinity act as par.Auto here.
func Deterministic[I constraints.Integer, T any](lo, hi I, identity T,
	body func(lo, hi I, acc T) T, join func(x, y T) T, opts ...par.Option) T {
	c := resolve("reduce.Deterministic", opts)
	checkFuncs("reduce.Deterministic", "body", body == nil, "join", join == nil)
	return fold(c, lo, hi, identity, body, join, true)
}

// checkFuncs panics, naming the entry point call ("reduce.Reduce") and the
// argument, if one of its function arguments is nil: name1 if nil1, else
// name2 if nil2. Every entry point checks its functions before it looks at
// the length of its input, so that a nil function is refused on an empty
// input too.
func checkFuncs(call, name1 string, nil1 bool, name2 string, nil2 bool) {
	switch {
	case nil1:
		panic(strings.Replace(call, ".", ": ", 1) + " with a nil " + name1)
	case nil2:
		panic(strings.Replace(call, ".", ": ", 1) + " with a nil " + name2)
	}
}

// fold is Reduce and Deterministic with resolved options.
func fold[I constraints.Integer, T any](c loop.Config, lo, hi I, identity T,
	body func(lo, hi I, acc T) T, join func(x, y T) T, fixed bool) T {
	n := count(lo, hi)
	if n == 0 {
		return identity
	}
	r, _ := loop.Split(n, identity, loop.Ops[T]{
		// lo+I(a) wraps the same way the offsets do, so it is exact near
		// the ends of I's range.
		Leaf:  func(a, b uint64, acc T) T { return body(lo+I(a), lo+I(b), acc) },
		Join:  join,
		Fixed: fixed,
	}, c, nil)
	return r
}
