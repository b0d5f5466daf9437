package reduce

import (
	"fmt"
	"unsafe"

	"github.com/gofork/gofork/internal/overlap"
	"github.com/gofork/gofork/par"
)

// Scan writes the exclusive prefix combination of src into dst,
//
//	dst[0] = identity
//	dst[i] = op(...op(op(identity, src[0]), src[1])..., src[i-1])
//
// and returns the combination of all of src (identity for an empty src),
// computed in parallel on the pool named by opts. op must be associative
// with identity as its identity; it need not be commutative, and the result
// is then exactly the serial loop's. A float sum, whose + is associative only
// up to rounding, can differ from the serial loop's in the last bits.
//
// dst may be src itself (an in-place scan); Scan panics, before writing
// anything, if op is nil, if the lengths differ, or if dst overlaps src in
// any other way. If op panics, the panic reaches the caller and dst holds
// some mix of old and new values.
//
// op is called about n times with one worker and at most about 2n times
// with many: a range a thief takes is first folded, then written once the
// combination of everything before it is known (see the package doc).
func Scan[S ~[]E, E any](dst, src S, identity E, op func(E, E) E, opts ...par.Option) E {
	checkScan("Scan", dst, src, op)
	if len(src) == 0 {
		return identity
	}
	return scan(dst, src, identity, true, op, false, opts)
}

// ScanInclusive writes the inclusive prefix combination of src into dst,
//
//	dst[0] = src[0]
//	dst[i] = op(dst[i-1], src[i])
//
// computed in parallel, with Scan's rules on op, overlap and panics.
func ScanInclusive[S ~[]E, E any](dst, src S, op func(E, E) E, opts ...par.Option) {
	checkScan("ScanInclusive", dst, src, op)
	if len(src) == 0 {
		return
	}
	var none E
	scan(dst, src, none, false, op, true, opts)
}

// checkScan panics unless dst and src can be scanned: same length, and
// either the same slice or disjoint.
func checkScan[E any](name string, dst, src []E, op func(E, E) E) {
	if op == nil {
		panic("reduce: " + name + " with a nil op")
	}
	if len(dst) != len(src) {
		panic(fmt.Sprintf("reduce: %s: len(dst) = %d, len(src) = %d", name, len(dst), len(src)))
	}
	if overlap.Same(dst, src) {
		return
	}
	if i, j, ok := overlap.Find(dst, src); ok {
		panic(fmt.Sprintf("reduce: %s: dst[%d] is src[%d]: dst must be src itself or not overlap it", name, i, j))
	}
}

const (
	// scanSerialMax is the length up to which a scan runs on the calling
	// goroutine: starting tasks costs more than scanning this much.
	scanSerialMax = 1 << 12
	// scanRoundBytes is the size of a round: a scan runs round after
	// round, and a round is small enough that what a thief folded is
	// still in a cache when it is written.
	scanRoundBytes = 1 << 21
)

// scanState is the accumulator of one run of leaves. A known state has the
// combination of everything before its range (val, when has), so its leaves
// write dst; an unknown state belongs to a range a thief took, and its
// leaves only fold their subranges into recs, to be written in parallel once
// the range to their left is done.
type scanState[E any] struct {
	known bool
	has   bool // val holds a value (not so only at the start of ScanInclusive and of a fresh unknown state)
	val   E
	recs  []scanRec[E]
}

// scanRec is a subrange [a, b) of the round, folded to sum; fixup turns sum
// into the combination of everything before a.
type scanRec[E any] struct {
	a, b uint64
	sum  E
	has  bool // false only for the first record of ScanInclusive: nothing before it
}

// scanCtx is what every task of one scan shares.
type scanCtx[E any] struct {
	dst, src  []E // the current round
	op        func(E, E) E
	inclusive bool
	fixOpts   []par.Option // the caller's options with par.Auto: for the fix-up loops
}

// scan runs an exclusive (identity, has) or inclusive (!has) scan of a
// non-empty src into dst and returns the combination of all of src.
func scan[E any](dst, src []E, identity E, has bool, op func(E, E) E, inclusive bool, opts []par.Option) E {
	n := len(src)
	root := &scanState[E]{known: true, has: has, val: identity}
	c := &scanCtx[E]{op: op, inclusive: inclusive, src: src, dst: dst}
	if n <= scanSerialMax {
		c.leaf(0, uint64(n), root)
		return root.val
	}
	// The fix-up loops and the task that runs the rounds take the caller's
	// pool but always the Auto partitioner: an Affinity state must not serve
	// two loops at once, and a one-iteration loop has nothing to place.
	c.fixOpts = append(opts[:len(opts):len(opts)], par.Auto())
	ops := par.Ops[*scanState[E]]{Leaf: c.leaf, Right: c.right, Join: c.join}
	round := n
	if size := int(unsafe.Sizeof(identity)); size > 0 {
		round = max(scanRoundBytes/size, scanSerialMax)
	}
	rounds := func() {
		for lo := 0; lo < n; lo += round {
			hi := min(lo+round, n)
			c.dst, c.src = dst[lo:hi], src[lo:hi]
			par.Split(uint64(hi-lo), root, ops, opts...)
		}
	}
	if n <= round {
		rounds()
	} else {
		// One task runs every round, so that the rounds' loops start on a
		// worker instead of waking the pool round after round.
		par.ForRange(0, 1, func(int, int) { rounds() }, c.fixOpts...)
	}
	return root.val
}

// leaf scans [a, b) of the round if st is known and folds it into a record
// otherwise.
func (c *scanCtx[E]) leaf(a, b uint64, st *scanState[E]) *scanState[E] {
	s := c.src[a:b]
	if !st.known {
		r := foldSlice(s, c.op)
		st.recs = append(st.recs, scanRec[E]{a: a, b: b, sum: r})
		st.val, st.has = c.combine(st.val, st.has, r), true
		return st
	}
	st.val, st.has = c.write(c.dst[a:b], s, st.val, st.has), true
	return st
}

// write scans s into d starting from acc (nothing, if !has: the start of an
// inclusive scan) and returns the combination after the last element.
func (c *scanCtx[E]) write(d, s []E, acc E, has bool) E {
	if c.inclusive {
		if !has {
			acc = s[0]
			d[0] = acc
			d, s = d[1:], s[1:]
		}
		return scanInclusive(d, s, acc, c.op)
	}
	return scanExclusive(d, s, acc, c.op)
}

// combine returns op(x, y), or y when there is no x.
func (c *scanCtx[E]) combine(x E, has bool, y E) E {
	if !has {
		return y
	}
	return c.op(x, y)
}

// right gives a stolen right half a fresh unknown state; a right half that
// runs after its left half on the same worker goes on with the same state.
func (c *scanCtx[E]) right(parent *scanState[E], stolen bool) *scanState[E] {
	if !stolen {
		return parent
	}
	return &scanState[E]{}
}

// join merges the state y of a right half into x, the state of the range
// just before it. If x is known, y's folded records are written now, in
// parallel, since what precedes them is known; otherwise they wait in x.
func (c *scanCtx[E]) join(x, y *scanState[E]) *scanState[E] {
	if x == y || !y.has {
		return x // the same run of leaves, or a right half that ran no leaf
	}
	if x.known {
		c.fixup(x.val, x.has, y.recs)
	} else {
		x.recs = append(x.recs, y.recs...)
	}
	x.val, x.has = c.combine(x.val, x.has, y.val), true
	return x
}

// fixup writes the folded records recs, given acc, the combination of
// everything before the first one (nothing, if !has): each record's start
// value is computed in order, then the records are written in parallel.
func (c *scanCtx[E]) fixup(acc E, has bool, recs []scanRec[E]) {
	for i := range recs {
		r := &recs[i]
		sum := r.sum
		r.sum, r.has = acc, has
		acc, has = c.combine(acc, has, sum), true
	}
	dst, src := c.dst, c.src
	par.ForRange(0, len(recs), func(lo, hi int) {
		for _, r := range recs[lo:hi] {
			c.write(dst[r.a:r.b], src[r.a:r.b], r.sum, r.has)
		}
	}, c.fixOpts...)
}

// The serial kernels below are unrolled by four: op is a call through a
// func value, and Go keeps no register across a call, so the loop counter
// would otherwise go through memory once per element.

// scanExclusive writes the exclusive scan of s, starting from acc, into d
// (len(d) >= len(s); d may be s) and returns the combination of acc and all
// of s.
func scanExclusive[E any](d, s []E, acc E, op func(E, E) E) E {
	d = d[:len(s)]
	i := 0
	for ; i+4 <= len(s); i += 4 {
		x, y := (*[4]E)(s[i:]), (*[4]E)(d[i:])
		v0, v1, v2, v3 := x[0], x[1], x[2], x[3] // read before d, which may be s, is written
		y[0] = acc
		acc = op(acc, v0)
		y[1] = acc
		acc = op(acc, v1)
		y[2] = acc
		acc = op(acc, v2)
		y[3] = acc
		acc = op(acc, v3)
	}
	for ; i < len(s); i++ {
		v := s[i]
		d[i] = acc
		acc = op(acc, v)
	}
	return acc
}

// scanInclusive writes the inclusive scan of s, continuing from acc, into d
// (len(d) >= len(s); d may be s) and returns the last value written, or acc.
func scanInclusive[E any](d, s []E, acc E, op func(E, E) E) E {
	d = d[:len(s)]
	i := 0
	for ; i+4 <= len(s); i += 4 {
		x, y := (*[4]E)(s[i:]), (*[4]E)(d[i:])
		v0, v1, v2, v3 := x[0], x[1], x[2], x[3]
		acc = op(acc, v0)
		y[0] = acc
		acc = op(acc, v1)
		y[1] = acc
		acc = op(acc, v2)
		y[2] = acc
		acc = op(acc, v3)
		y[3] = acc
	}
	for ; i < len(s); i++ {
		acc = op(acc, s[i])
		d[i] = acc
	}
	return acc
}

// foldSlice returns op(...op(s[0], s[1])..., s[len(s)-1]) for a non-empty s.
func foldSlice[E any](s []E, op func(E, E) E) E {
	acc := s[0]
	i := 1
	for ; i+4 <= len(s); i += 4 {
		x := (*[4]E)(s[i:])
		acc = op(acc, x[0])
		acc = op(acc, x[1])
		acc = op(acc, x[2])
		acc = op(acc, x[3])
	}
	for ; i < len(s); i++ {
		acc = op(acc, s[i])
	}
	return acc
}
