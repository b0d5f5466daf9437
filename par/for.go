package par

import (
	"context"
	"strings"

	"github.com/gofork/gofork/internal/loop"
	"golang.org/x/exp/constraints"
)

// none is the result type of loops that produce nothing.
type none = struct{}

// count returns the number of iterations in [lo, hi), computed in the
// unsigned domain so that it cannot overflow for any integer type (a full
// int64 range has 2^64-1 iterations), and 0 when hi <= lo.
func count[I constraints.Integer](lo, hi I) uint64 {
	if hi <= lo {
		return 0
	}
	return uint64(hi) - uint64(lo) // modulo 2^64: exact for every pair lo < hi
}

// rangeLeaf adapts body to a leaf over offsets from lo. lo+I(a) wraps the
// same way uint64 offsets do, so it is exact near the ends of I's range.
func rangeLeaf[I constraints.Integer](lo I, body func(lo, hi I)) func(a, b uint64, _ none) none {
	return func(a, b uint64, _ none) none {
		body(lo+I(a), lo+I(b))
		return none{}
	}
}

// indexLeaf adapts body to a leaf that calls it once per index.
func indexLeaf[I constraints.Integer](lo I, body func(i I)) func(a, b uint64, _ none) none {
	return func(a, b uint64, _ none) none {
		// i != end rather than i < end: end may have wrapped to lo's side
		// only when b-a would exceed I's range, which it cannot.
		for i, end := lo+I(a), lo+I(b); i != end; i++ {
			body(i)
		}
		return none{}
	}
}

// For calls body(i) for every i in [lo, hi), in parallel, and returns when
// every call has returned. Each index is passed exactly once; the order is
// unspecified. An empty range (hi <= lo) does nothing. It takes the options
// WithPool, Grain and a partitioner (Auto, the default, Static, Simple or
// Affinity).
//
// ForRange is its block form, for when body is cheap.
//
// Called from inside a task (a nested loop, a loop inside a sort), it runs
// on the current worker of that task's pool unless WithPool names another; a
// loop on another pool parks the calling worker until it is done. A panic in
// body stops the loop from starting new chunks and reaches the caller of For
// once the running chunks have finished.
func For[I constraints.Integer](lo, hi I, body func(i I), opts ...Option) {
	c := resolve("par.For", loop.Loops, opts)
	if body == nil {
		panic("par: For with a nil body")
	}
	if n := count(lo, hi); n != 0 {
		loop.Split(n, none{}, loop.Ops[none]{Leaf: indexLeaf(lo, body)}, c, nil)
	}
}

// ForRange is the blocked form of For: it calls body(a, b) for disjoint
// subranges that together cover [lo, hi) exactly once. A serial loop inside
// body is the cheapest way to run a fine-grained loop in parallel.
func ForRange[I constraints.Integer](lo, hi I, body func(lo, hi I), opts ...Option) {
	forRange("par.ForRange", lo, hi, body, opts)
}

// forRange is ForRange for the entry point call.
func forRange[I constraints.Integer](call string, lo, hi I, body func(lo, hi I), opts []Option) {
	c := resolve(call, loop.Loops, opts)
	if body == nil {
		panic(nilArg(call, "body"))
	}
	if n := count(lo, hi); n != 0 {
		loop.Split(n, none{}, loop.Ops[none]{Leaf: rangeLeaf(lo, body)}, c, nil)
	}
}

// ForCtx is For with a context: once ctx is done no new chunk starts (chunks
// already running finish), and ForCtx returns ctx.Err(). It returns nil when
// every index was visited, and ctx.Err() without calling body if ctx is done
// on entry. It takes For's options.
func ForCtx[I constraints.Integer](ctx context.Context, lo, hi I, body func(i I), opts ...Option) error {
	if body == nil {
		resolve("par.ForCtx", loop.Loops, opts)
		panic("par: ForCtx with a nil body")
	}
	return runCtx("par.ForCtx", ctx, count(lo, hi), indexLeaf(lo, body), opts)
}

// ForRangeCtx is ForRange with a context, with ForCtx's rules.
func ForRangeCtx[I constraints.Integer](ctx context.Context, lo, hi I, body func(lo, hi I), opts ...Option) error {
	if body == nil {
		resolve("par.ForRangeCtx", loop.Loops, opts)
		panic("par: ForRangeCtx with a nil body")
	}
	return runCtx("par.ForRangeCtx", ctx, count(lo, hi), rangeLeaf(lo, body), opts)
}

// nilArg returns the message of the panic of the entry point call
// ("par.ForRange") when its argument arg is nil: "par: ForRange with a nil
// body".
func nilArg(call, arg string) string {
	return strings.Replace(call, ".", ": ", 1) + " with a nil " + arg
}

// runCtx runs a loop with no result that stops handing out chunks once ctx
// is done.
func runCtx(call string, ctx context.Context, n uint64, leaf func(a, b uint64, _ none) none, opts []Option) error {
	c := resolve(call, loop.Loops, opts)
	if ctx == nil {
		panic(nilArg(call, "ctx"))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if _, cancelled := loop.Split(n, none{}, loop.Ops[none]{Leaf: leaf}, c, ctx.Done()); cancelled {
		return ctx.Err()
	}
	return nil
}

// ForEach calls body(i, &s[i]) for every index of s, in parallel, with For's
// rules and options; body may modify the element through the pointer.
// ForRange is its block form, for when body is cheap.
func ForEach[S ~[]E, E any](s S, body func(i int, e *E), opts ...Option) {
	if body == nil {
		resolve("par.ForEach", loop.Loops, opts)
		panic("par: ForEach with a nil body")
	}
	forRange("par.ForEach", 0, len(s), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			body(i, &s[i])
		}
	}, opts)
}

// Map returns a new slice with fn(s[i]) at index i, computed in parallel with
// For's rules and options. ForRange is its block form, for when fn is
// cheap.
func Map[S ~[]E, E, R any](s S, fn func(E) R, opts ...Option) []R {
	if fn == nil {
		resolve("par.Map", loop.Loops, opts)
		panic("par: Map with a nil fn")
	}
	out := make([]R, len(s))
	forRange("par.Map", 0, len(s), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = fn(s[i])
		}
	}, opts)
	return out
}
