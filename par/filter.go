package par

import (
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/internal/pack"
)

// filterSerialMax is the length up to which Filter and DeleteFunc run on
// the calling goroutine.
const filterSerialMax = 1 << 13

// Filter returns a new slice holding, in order, the elements of s for which
// keep returns true (nil if there are none), like an append loop over s.
// keep is called once per element, from several workers at once. It
// allocates the result at its exact length and one bit per element of s.
//
// It runs in two phases over blocks of s: each block marks its kept
// elements in a bit mask and counts them; the counts are summed in order,
// which gives every block its place in the result; then each block copies
// its kept elements there. It takes For's options: the partitioner applies
// to the blocks, a Grain or Simple size rounded up to whole blocks of 1024
// elements. FilterBlocks is its block form, for when keep is cheap.
func Filter[S ~[]E, E any](s S, keep func(E) bool, opts ...Option) S {
	if keep == nil {
		panic("par: Filter with a nil keep")
	}
	c := resolve("par.Filter", loop.Loops, opts)
	n := len(s)
	words := make([]uint64, pack.Words(n))
	if n <= filterSerialMax || c.Pool.Workers() == 1 {
		k := pack.MarkFunc(s, words, keep)
		if k == 0 {
			return nil
		}
		out := make(S, k)
		pack.Gather(out, s, words)
		return out
	}
	nb := pack.Blocks(n)
	counts := make([]int, nb)
	runBlocks := blockRunner(c)
	var out S
	onPool(c, func() {
		runBlocks(nb, func(lo, hi int) {
			for b := lo; b < hi; b++ {
				a := b * pack.BlockLen
				counts[b] = pack.MarkFunc(s[a:min(a+pack.BlockLen, n)], words[a/64:], keep)
			}
		})
		k := 0
		for b, cnt := range counts {
			counts[b] = k
			k += cnt
		}
		if k == 0 {
			return
		}
		out = make(S, k)
		runBlocks(nb, func(lo, hi int) {
			for b := lo; b < hi; b++ {
				a := b * pack.BlockLen
				pack.Gather(out[counts[b]:], s[a:min(a+pack.BlockLen, n)], words[a/64:])
			}
		})
	})
	return out
}

// DeleteFunc removes from s, in place, the elements for which del returns
// true, keeping the order of the others, zeroes the elements between the new
// length and the old one, and returns s up to the new length, like
// slices.DeleteFunc. del is called once per element, from several workers at
// once (in order, on the calling goroutine, with one worker or a short s,
// where DeleteFunc is slices.DeleteFunc).
//
// s is packed round by round (rounds of about 4 MiB): each block of a round
// packs its kept elements to its own front, in parallel, then they are
// copied to their final place (in parallel once that place lies before the
// round). If del panics, the panic reaches the caller and s holds a mix of
// its old elements and of moved ones. It takes Filter's options.
func DeleteFunc[S ~[]E, E any](s S, del func(E) bool, opts ...Option) S {
	if del == nil {
		panic("par: DeleteFunc with a nil del")
	}
	c := resolve("par.DeleteFunc", loop.Loops, opts)
	if len(s) <= filterSerialMax || c.Pool.Workers() == 1 {
		return slices.DeleteFunc(s, del)
	}
	var k int
	onPool(c, func() {
		k = pack.InPlace(s, pack.Func[E]{Keep: del, Want: false}, blockRunner(c))
	})
	return s[:k]
}

// blockRunner returns a pack.Runner that runs its loops, over blocks of
// pack.BlockLen elements, on c's pool with c's partitioner; a Grain or Simple
// size in elements becomes the number of blocks that covers it.
func blockRunner(c loop.Config) pack.Runner {
	c.Grain = (c.Grain + pack.BlockLen - 1) / pack.BlockLen
	c.Simple = (c.Simple + pack.BlockLen - 1) / pack.BlockLen
	return func(n int, body func(lo, hi int)) {
		if n > 0 {
			loop.Split(uint64(n), none{}, loop.Ops[none]{Leaf: rangeLeaf(0, body)}, c, nil)
		}
	}
}

// onPool runs f as one task on c's pool, so that the loops f runs start on
// a worker (see core.RunValue) instead of each waking the pool from outside.
func onPool(c loop.Config, f func()) {
	c.Pool.Run(func(*core.Worker) { f() })
}
