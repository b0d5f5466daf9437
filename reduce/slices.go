package reduce

import (
	"cmp"
	"slices"

	"golang.org/x/exp/constraints"

	"github.com/gofork/gofork/par"
)

// Number is the element constraint of Sum.
type Number interface {
	constraints.Integer | constraints.Float | constraints.Complex
}

// Sum returns the sum of the elements of s (0 for an empty slice). It is
// computed on Deterministic's fixed tree, so a float sum has the same bits on
// every run and with every worker count (though not, in general, the bits of
// a serial loop: the leaves add in four interleaved lanes and the tree adds
// pairwise, which rounds less than a serial loop does).
func Sum[S ~[]E, E Number](s S, opts ...par.Option) E {
	c := resolve("reduce.Sum", opts)
	if uint64(len(s)) <= c.TreeGrain() {
		return sumSerial(s) // the tree is one leaf: its bits, without starting a task
	}
	return fold(c, 0, len(s), E(0), func(lo, hi int, acc E) E {
		return acc + sumSerial(s[lo:hi])
	}, add[E], true)
}

// add is Sum's join.
func add[E Number](x, y E) E { return x + y }

// sumSerial adds s in four interleaved lanes, which breaks the chain of
// dependent additions a plain loop has, then adds the lanes.
func sumSerial[E Number](s []E) E {
	var a0, a1, a2, a3 E
	i := 0
	for ; i+4 <= len(s); i += 4 {
		a0 += s[i]
		a1 += s[i+1]
		a2 += s[i+2]
		a3 += s[i+3]
	}
	for ; i < len(s); i++ {
		a0 += s[i]
	}
	return (a0 + a1) + (a2 + a3)
}

// Min returns the smallest element of s, like slices.Min: a NaN anywhere
// gives NaN. It panics if s is empty.
func Min[S ~[]E, E cmp.Ordered](s S, opts ...par.Option) E {
	c := resolve("reduce.Min", opts)
	if len(s) == 0 {
		panic("reduce: Min of an empty slice")
	}
	if len(s) <= orderedSerialMax {
		return slices.Min(s)
	}
	return fold(c, 1, len(s), s[0], func(lo, hi int, acc E) E {
		for _, v := range s[lo:hi] {
			acc = min(acc, v)
		}
		return acc
	}, minOf[E], false)
}

// Max returns the largest element of s, like slices.Max: a NaN anywhere
// gives NaN. It panics if s is empty.
func Max[S ~[]E, E cmp.Ordered](s S, opts ...par.Option) E {
	c := resolve("reduce.Max", opts)
	if len(s) == 0 {
		panic("reduce: Max of an empty slice")
	}
	if len(s) <= orderedSerialMax {
		return slices.Max(s)
	}
	return fold(c, 1, len(s), s[0], func(lo, hi int, acc E) E {
		for _, v := range s[lo:hi] {
			acc = max(acc, v)
		}
		return acc
	}, maxOf[E], false)
}

// orderedSerialMax is the length up to which Min and Max run on the calling
// goroutine: a comparison costs about a nanosecond, starting a task several
// microseconds.
const orderedSerialMax = 1 << 12

func minOf[E cmp.Ordered](x, y E) E { return min(x, y) }
func maxOf[E cmp.Ordered](x, y E) E { return max(x, y) }

// MinFunc returns the first minimal element of s under cmp, like
// slices.MinFunc. It panics if s is empty.
func MinFunc[S ~[]E, E any](s S, cmp func(a, b E) int, opts ...par.Option) E {
	c := resolve("reduce.MinFunc", opts)
	checkFuncs("reduce.MinFunc", "cmp", cmp == nil, "", false)
	if len(s) == 0 {
		panic("reduce: MinFunc of an empty slice")
	}
	// Every accumulator starts at s[0], the first element, and an element
	// replaces the accumulator only if it is strictly smaller: ties keep the
	// earlier element, and join sees the earlier subrange as x.
	first := func(x, y E) E {
		if cmp(y, x) < 0 {
			return y
		}
		return x
	}
	return fold(c, 1, len(s), s[0], func(lo, hi int, acc E) E {
		for _, v := range s[lo:hi] {
			acc = first(acc, v)
		}
		return acc
	}, first, false)
}

// MaxFunc returns the first maximal element of s under cmp, like
// slices.MaxFunc. It panics if s is empty.
func MaxFunc[S ~[]E, E any](s S, cmp func(a, b E) int, opts ...par.Option) E {
	c := resolve("reduce.MaxFunc", opts)
	checkFuncs("reduce.MaxFunc", "cmp", cmp == nil, "", false)
	if len(s) == 0 {
		panic("reduce: MaxFunc of an empty slice")
	}
	first := func(x, y E) E {
		if cmp(y, x) > 0 {
			return y
		}
		return x
	}
	return fold(c, 1, len(s), s[0], func(lo, hi int, acc E) E {
		for _, v := range s[lo:hi] {
			acc = first(acc, v)
		}
		return acc
	}, first, false)
}

// CountFunc returns the number of elements of s for which pred is true. Reduce
// is its block form, for when pred is cheap.
func CountFunc[S ~[]E, E any](s S, pred func(E) bool, opts ...par.Option) int {
	c := resolve("reduce.CountFunc", opts)
	checkFuncs("reduce.CountFunc", "pred", pred == nil, "", false)
	return fold(c, 0, len(s), 0, func(lo, hi int, acc int) int {
		for _, v := range s[lo:hi] {
			if pred(v) {
				acc++
			}
		}
		return acc
	}, add[int], false)
}

// MapReduce returns join(...join(join(identity, mapf(s[0])), mapf(s[1]))...,
// mapf(s[len(s)-1])) computed in parallel: each subrange folds its mapped
// elements from identity, and the results are joined in order. join must be
// associative with identity as its identity; it need not be commutative.
// Reduce is its block form, for when mapf and join are cheap: its body is
// the caller's own loop over a subrange, where they compile in.
func MapReduce[S ~[]E, E, T any](s S, identity T, mapf func(E) T, join func(x, y T) T, opts ...par.Option) T {
	c := resolve("reduce.MapReduce", opts)
	checkFuncs("reduce.MapReduce", "mapf", mapf == nil, "join", join == nil)
	return fold(c, 0, len(s), identity, func(lo, hi int, acc T) T {
		for _, v := range s[lo:hi] {
			acc = join(acc, mapf(v))
		}
		return acc
	}, join, false)
}
