package reduce

import (
	"fmt"
	"strings"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
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
// Its one option is par.WithPool: a scan on p workers runs as two phases
// of p tasks (see the package doc), whatever a partitioner would say. op
// is called n times with one worker and about 2n times with many.
//
// op is a call through a func value, about a nanosecond per element:
// PrefixSum is the form without a call per element for sums, and
// ScanBlocks the block form, for when op is cheap.
func Scan[S ~[]E, E any](dst, src S, identity E, op func(E, E) E, opts ...par.Option) E {
	pool := checkScan("reduce.Scan", dst, src, op, opts)
	if len(src) == 0 {
		return identity
	}
	return scan(pool, dst, src, identity, op, false)
}

// ScanInclusive writes the inclusive prefix combination of src into dst,
//
//	dst[0] = src[0]
//	dst[i] = op(dst[i-1], src[i])
//
// computed in parallel, with Scan's rules on op, overlap, panics and
// options. PrefixSumInclusive is its form for sums, and ScanBlocks its
// block form, for when op is cheap.
func ScanInclusive[S ~[]E, E any](dst, src S, op func(E, E) E, opts ...par.Option) {
	pool := checkScan("reduce.ScanInclusive", dst, src, op, opts)
	if len(src) == 0 {
		return
	}
	var none E
	scan(pool, dst, src, none, op, true)
}

// checkScan panics unless dst and src can be scanned by the entry point
// call: same length, and either the same slice or disjoint. It returns the
// pool the options name.
func checkScan[E any](call string, dst, src []E, op func(E, E) E, opts []par.Option) *core.Pool {
	name := strings.TrimPrefix(call, "reduce.")
	if op == nil {
		panic("reduce: " + name + " with a nil op")
	}
	pool := loop.Resolve(call, loop.SetPool, opts).Pool
	if len(dst) != len(src) {
		panic(fmt.Sprintf("reduce: %s: len(dst) = %d, len(src) = %d", name, len(dst), len(src)))
	}
	if overlap.Same(dst, src) {
		return pool
	}
	if i, j, ok := overlap.Find(dst, src); ok {
		panic(fmt.Sprintf("reduce: %s: dst[%d] is src[%d]: dst must be src itself or not overlap it", name, i, j))
	}
	return pool
}

// scanSerialMax is the length up to which a scan runs on the calling
// goroutine: starting tasks costs more than scanning this much.
const scanSerialMax = 1 << 12

// scanSegMin is the shortest segment a parallel scan cuts.
const scanSegMin = 1 << 10

// scanCtx is what the tasks of one scan share: the slices, cut into p+1
// segments for p workers (seg holds the p+2 bounds), and per segment the
// combination of everything before it (pre) and of the segment (sum).
type scanCtx[E any] struct {
	dst, src  []E
	op        func(E, E) E
	inclusive bool
	seg       []int
	pre, sum  []E
}

// scan runs an exclusive scan from identity, or an inclusive one, of a
// non-empty src into dst and returns the combination of all of src.
//
// With p workers the slice is cut into p+1 equal segments and scanned in
// two phases of p tasks: first segment 0 is written (its start is known)
// while segments 1..p-1 are folded; then their starts follow in order, and
// segments 1..p are written. op runs 2p times per p+1 segments' elements,
// and the two phases take two segments' time: (p+1)/2 times as fast as one
// worker, which on two workers is the best any scan can do (a prefix
// circuit's size plus depth is at least 2n-2, Snir 1986). There is no
// cache to keep warm between the phases: a call through op costs more than
// reading the element from memory.
func scan[E any](pool *core.Pool, dst, src []E, identity E, op func(E, E) E, inclusive bool) E {
	c := &scanCtx[E]{dst: dst, src: src, op: op, inclusive: inclusive}
	has := !inclusive // an exclusive scan starts from identity, an inclusive one from src[0]
	// Segments of at least scanSegMin elements: fewer workers than that
	// lets through are not worth waking, and none may be empty (its
	// write and fold read its first element).
	p := min(pool.Workers(), len(src)/scanSegMin)
	if len(src) <= scanSerialMax || p <= 1 {
		return c.write(dst, src, identity, has)
	}
	// The phases are p tasks each, split by Auto down to single tasks.
	phase := par.WithPool(pool)
	// One task runs both phases, so that their loops start on a worker
	// instead of waking the pool from outside.
	return core.RunValue(pool, func(*core.Worker) E { return c.run(identity, has, p, phase) })
}

// run scans c.src on p >= 2 workers, starting from acc (nothing, if !has),
// and returns the combination of all of it.
func (c *scanCtx[E]) run(acc E, has bool, p int, phase par.Option) E {
	n := len(c.src)
	c.seg = make([]int, p+2)
	for t := range c.seg {
		// In 64 bits: t*n overflows a 32-bit int from n > 2^31/(p+1).
		c.seg[t] = int(int64(t) * int64(n) / int64(p+1))
	}
	c.pre, c.sum = make([]E, p+1), make([]E, p+1)
	// Phase 1: task 0 writes segment 0, task t > 0 folds segment t.
	par.ForRange(0, p, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			d, s := c.dst[c.seg[t]:c.seg[t+1]], c.src[c.seg[t]:c.seg[t+1]]
			if t == 0 {
				c.pre[1] = c.write(d, s, acc, has)
			} else {
				c.sum[t] = foldSlice(s, c.op)
			}
		}
	}, phase)
	for t := 1; t < p; t++ {
		c.pre[t+1] = c.op(c.pre[t], c.sum[t])
	}
	// Phase 2: task t writes segment t+1.
	par.ForRange(0, p, func(lo, hi int) {
		for t := lo + 1; t <= hi; t++ {
			d, s := c.dst[c.seg[t]:c.seg[t+1]], c.src[c.seg[t]:c.seg[t+1]]
			c.sum[t] = c.write(d, s, c.pre[t], true)
		}
	}, phase)
	return c.sum[p]
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

// The serial kernels below are unrolled by four: op is a call through a
// func value, and Go keeps no register across a call, so the loop counter
// would otherwise go through memory once per element.
//
// They are never inlined. A program built with profile-guided optimization
// (go build -pgo) gets the hot op devirtualized and inlined into them, and
// then a kernel runs at the speed of a plain loop (a 10^8 int64 scan at one
// worker: 0.36 of the serial loop's speed without PGO, 0.78 with). PGO also
// inlines hot kernels into their callers, where the kernel's loop lost its
// registers to the caller's state and gained nothing.

// scanExclusive writes the exclusive scan of s, starting from acc, into d
// (len(d) >= len(s); d may be s) and returns the combination of acc and all
// of s.
//
//go:noinline
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
//
//go:noinline
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
//
//go:noinline
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
