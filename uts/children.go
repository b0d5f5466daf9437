package uts

import "math"

// maxChildren is the reference's MAXNUMCHILDREN: every node except a
// Binomial root and Balanced nodes has at most this many children. Large
// Geometric trees (T1XXL and bigger) do reach it.
const maxChildren = 100

// denomTableLen bounds the per-depth table of Geometric denominators;
// deeper nodes (only ExpDec trees go deeper than 5*Depth) compute theirs.
const denomTableLen = 1 << 12

// rule is a Tree compiled for searching: the child-count rule of
// uts_numChildren with the per-depth constants precomputed. It is read-only
// while a search runs and shared by all its tasks.
type rule struct {
	typ        TreeType
	shape      Shape
	b0         float64
	genMx      int
	q          float64
	m          int
	shiftLimit float64 // Hybrid: depths below this are Geometric.
	rootBF     int     // Binomial root: floor(b0) children.
	// geoDenom[h] = ln(1 - p) for a Geometric node at depth h, where
	// p = 1/(1 + b_h). Table entries are computed by geoDenomAt, so they are
	// bit-identical to computing them per node.
	geoDenom []float64
	// geoCuts[h], for the first depths, replaces the logarithm of the
	// Geometric draw at depth h by a table lookup (see cuts); deeper depths
	// take the logarithm.
	geoCuts []*cuts
	// serialLevels[h] is true if a node at depth h is expected to have a
	// subtree of fewer than serialSubtree nodes; Search walks such subtrees
	// serially.
	serialLevels []bool
}

// serialSubtree is the expected subtree size, in nodes, below which Search
// does not consider forking: about 3 µs of work at 30 ns a node, against a
// fork and its two task entries of some tens of nanoseconds.
const serialSubtree = 100

// cutsDepths bounds the depths that get a cuts table: building one takes
// a few hundred logarithms.
const cutsDepths = 64

func newRule(t Tree) *rule {
	r := &rule{
		typ:        t.Type,
		shape:      t.Shape,
		b0:         t.B0,
		genMx:      t.Depth,
		q:          t.Q,
		m:          t.M,
		shiftLimit: t.ShiftDepth * float64(t.Depth),
		rootBF:     int(math.Floor(t.B0)),
	}
	if t.Type == Geometric || t.Type == Hybrid {
		n := denomTableLen
		switch t.Shape {
		case Linear, Fixed:
			n = min(n, t.Depth+1)
		case Cyclic:
			n = int(min(int64(n), 5*int64(t.Depth)+2)) // 64 bits: Depth may be up to 2^31-1
		}
		if t.Type == Hybrid {
			// Depths h with float64(h) < shiftLimit are Geometric.
			n = min(n, max(0, int(math.Ceil(r.shiftLimit)))+1)
		}
		r.geoDenom = make([]float64, max(n, 1))
		for h := range r.geoDenom {
			r.geoDenom[h] = r.geoDenomAt(h)
		}
		// Depths with the same denominator share a table (all the depths
		// above Depth in a Fixed tree).
		r.geoCuts = make([]*cuts, min(len(r.geoDenom), cutsDepths))
		byDenom := make(map[float64]*cuts)
		for h := range r.geoCuts {
			den := r.geoDenom[h]
			c, ok := byDenom[den]
			if !ok {
				c = newCuts(den)
				byDenom[den] = c
			}
			r.geoCuts[h] = c
		}
	}
	r.serialLevels = r.expectedSmall(serialSubtree)
	return r
}

// expectedSmall returns, for the depths below cutsDepths, whether a node's
// expected subtree size is under n. The expected size obeys
// E(h) = 1 + mean(h) * E(h+1), mean(h) being the expected number of children
// at depth h (b_h for a Geometric level, q*m for a Binomial one, 0 for a
// level of leaves). Geometric levels are small only within reach of a level
// of leaves (a Fixed, Linear or Cyclic tree's end); Binomial ones when
// 1/(1-q*m) is small, never for q*m near 1 (T3), where every subtree's size
// is unpredictable, which is the point of those trees.
func (r *rule) expectedSmall(n float64) []bool {
	small := make([]bool, cutsDepths)
	some := false
	// E below the table: 1/(1 - q*m), the fixed point of the recursion, for
	// Binomial levels with q*m < 1; 1 below a Balanced tree's last level;
	// unknown, so infinite, for Geometric ones.
	size := math.Inf(1)
	switch qm := r.q * float64(r.m); {
	case r.typ == Balanced:
		size = 1
	case (r.typ == Binomial || r.typ == Hybrid) && qm < 1:
		size = 1 / (1 - qm)
	}
	for h := cutsDepths - 1; h >= 0; h-- {
		var mean float64
		switch {
		case r.leafLevel(h):
			mean = 0
		case r.typ == Balanced:
			mean = float64(int(r.b0))
		case r.typ == Binomial && h == 0:
			mean = float64(r.rootBF)
		case r.typ == Binomial, r.typ == Hybrid && float64(h) >= r.shiftLimit:
			mean = r.q * float64(r.m)
		default: // a Geometric level
			mean = r.branching(h)
			if !(mean > 0 && mean < math.Inf(1)) {
				mean = 0 // b_h zero, negative, infinite or NaN: all leaves (see newCuts)
			}
		}
		if mean == 0 {
			size = 1
		} else {
			size = 1 + mean*size
		}
		small[h] = size < n
		some = some || small[h]
	}
	if !some {
		return nil // serialLevel is then a length check (Binomial trees)
	}
	return small
}

// leafLevel reports whether every node at depth h is a leaf, as far as the
// rule shows without drawing (false when it is not known).
func (r *rule) leafLevel(h int) bool {
	switch r.typ {
	case Binomial:
		return h > 0 && (r.q == 0 || r.m == 0)
	case Geometric:
		return h < len(r.geoCuts) && r.geoCuts[h].leafFrom == 0
	case Hybrid:
		if float64(h) < r.shiftLimit {
			return h < len(r.geoCuts) && r.geoCuts[h].leafFrom == 0
		}
		return r.q == 0 || r.m == 0
	default: // Balanced
		return h >= r.genMx || int(r.b0) == 0
	}
}

// serialLevel reports whether Search walks the subtrees of nodes at depth h
// serially (see expectedSmall).
func (r *rule) serialLevel(h int) bool {
	return h < len(r.serialLevels) && r.serialLevels[h]
}

// branching returns b_h, the expected number of children of a Geometric
// node at depth h (the shape function of uts_numChildren_geo).
func (r *rule) branching(h int) float64 {
	if h == 0 {
		return r.b0
	}
	d, mx := float64(h), float64(r.genMx)
	switch r.shape {
	case ExpDec:
		return r.b0 * math.Pow(d, -math.Log(r.b0)/math.Log(mx))
	case Cyclic:
		if int64(h) > 5*int64(r.genMx) { // 64 bits: genMx may be up to 2^31-1
			return 0
		}
		return math.Pow(r.b0, math.Sin(2*3.141592653589793*d/mx))
	case Fixed:
		if h < r.genMx {
			return r.b0
		}
		return 0
	default: // Linear
		return r.b0 * (1 - d/mx)
	}
}

// geoDenomAt returns ln(1 - p) with p = 1/(1 + b_h).
func (r *rule) geoDenomAt(h int) float64 {
	p := 1 / (1 + r.branching(h))
	return math.Log(1 - p)
}

// geo is uts_numChildren_geo: the inverse geometric CDF at the node's
// uniform value u, floor(ln(1-u) / ln(1-p)).
func (r *rule) geo(rnd uint32, h int) int {
	if h < len(r.geoCuts) {
		return r.geoCuts[h].draw(rnd)
	}
	var den float64
	if h < len(r.geoDenom) {
		den = r.geoDenom[h]
	} else {
		den = r.geoDenomAt(h)
	}
	return geoDraw(rnd, den)
}

// geoDraw is the geometric draw for the random value n and the
// denominator den = ln(1-p): floor(ln(1-u) / den) with u = n/2^31.
func geoDraw(n uint32, den float64) int {
	x := math.Log(1-toProb(n)) / den
	// The reference converts with (int)floor(x). Where that is undefined
	// in C (NaN, or x >= 2^31, as when b_h is negative, infinite or huge)
	// x86-64 yields INT_MIN, a leaf; so do we. A negative x is a leaf too.
	if !(x >= 0 && x < 1<<31) {
		return 0
	}
	return int(x) // x >= 0, so truncation is floor
}

// cuts is geoDraw for one denominator as a table: at[k-1] is the least
// random value whose draw is k or more, for k = 1, 2, ... up to the cap,
// and values from leafFrom on draw 2^31 or more, which is a leaf. The
// draw of n is then the number of cuts at or below n.
//
// The table gives exactly geoDraw's results because geoDraw is a
// non-decreasing step function of n: u = n/2^31 is exact, 1-u is exact,
// and consecutive values of 1-u differ by 2^-31, so their true logarithms
// differ by at least 2^-31, far more than the 1 ulp (< 2^-47 here) that
// math.Log may be off; dividing by the same negative den and flooring keep
// the order. So each cut is found by evaluating geoDraw itself, near the
// analytic inverse 2^31 * (1 - e^(k*den)).
type cuts struct {
	at       []uint32
	leafFrom uint32
}

// randEnd is one past the largest random value.
const randEnd = 1 << 31

// newCuts returns the table for den.
func newCuts(den float64) *cuts {
	if !(den < 0 && den > math.Inf(-1)) {
		// b_h = 0 (den = -Inf: how Fixed and Linear trees end), or b_h
		// negative, infinite or NaN: ln(1-u)/den is ±0, negative, ±Inf or
		// NaN for every u, so every node is a leaf.
		return &cuts{leafFrom: 0}
	}
	x := func(n uint32) float64 { return math.Log(1-toProb(n)) / den }
	// least returns the least n in [lo, randEnd) with x(n) >= v, or randEnd.
	least := func(lo uint32, v float64, guess float64) uint32 {
		if x(randEnd-1) < v {
			return randEnd
		}
		g := uint32(randEnd - 1)
		if guess >= float64(lo) && guess < randEnd-1 {
			g = uint32(guess)
		}
		g = max(g, lo)
		// Walk from the guess; it is off by a step or two at most, but
		// fall back to bisection if it is not.
		for range 64 {
			switch {
			case x(g) < v:
				g++
			case g > lo && x(g-1) >= v:
				g--
			default:
				return g
			}
		}
		a, b := lo, uint32(randEnd-1) // x(b) >= v
		for a < b {
			mid := a + (b-a)/2
			if x(mid) >= v {
				b = mid
			} else {
				a = mid + 1
			}
		}
		return a
	}
	inverse := func(v float64) float64 { return randEnd * -math.Expm1(v*den) }
	c := &cuts{leafFrom: least(0, 1<<31, inverse(1<<31))}
	lo := uint32(0)
	for k := 1; k <= maxChildren; k++ {
		n := least(lo, float64(k), inverse(float64(k)))
		if n >= c.leafFrom {
			break
		}
		c.at = append(c.at, n)
		lo = n
	}
	return c
}

// draw returns geoDraw(n, den), capped at maxChildren.
func (c *cuts) draw(n uint32) int {
	if n >= c.leafFrom {
		return 0
	}
	k := 0
	for k < len(c.at) && n >= c.at[k] {
		k++
	}
	return k
}

// bin is the non-root Binomial rule: m children with probability q.
func (r *rule) bin(rnd uint32) int {
	if toProb(rnd) < r.q {
		return r.m
	}
	return 0
}

// numChildren is uts_numChildren: the number of children of the node with
// state s at depth h, capped as in the reference.
func (r *rule) numChildren(s *state, h int) int {
	return r.draw(s[4], h)
}

// draw is numChildren for a node whose state's last word is s4.
func (r *rule) draw(s4 uint32, h int) int {
	rnd := s4 & 0x7fffffff // the node's rand value
	var n int
	switch r.typ {
	case Binomial:
		if h == 0 {
			// The root's cap, ceil(b0), never binds on floor(b0).
			return r.rootBF
		}
		n = r.bin(rnd)
	case Geometric:
		n = r.geo(rnd, h)
	case Hybrid:
		if float64(h) < r.shiftLimit {
			n = r.geo(rnd, h)
		} else {
			n = r.bin(rnd)
		}
	default: // Balanced: no random value, no cap.
		if h < r.genMx {
			return int(r.b0)
		}
		return 0
	}
	return min(n, maxChildren)
}
