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
}

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
			n = min(n, 5*t.Depth+2)
		}
		if t.Type == Hybrid {
			// Depths h with float64(h) < shiftLimit are Geometric.
			n = min(n, max(0, int(math.Ceil(r.shiftLimit)))+1)
		}
		r.geoDenom = make([]float64, max(n, 1))
		for h := range r.geoDenom {
			r.geoDenom[h] = r.geoDenomAt(h)
		}
	}
	return r
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
		if h > 5*r.genMx {
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
func (r *rule) geo(s *state, h int) int {
	var den float64
	if h < len(r.geoDenom) {
		den = r.geoDenom[h]
	} else {
		den = r.geoDenomAt(h)
	}
	u := toProb(s.rand())
	x := math.Log(1-u) / den
	// The reference converts with (int)floor(x). Where that is undefined
	// in C (NaN, or x >= 2^31, as when b_h is negative, infinite or huge)
	// x86-64 yields INT_MIN, a leaf; so do we. A negative x is a leaf too.
	if !(x >= 0 && x < 1<<31) {
		return 0
	}
	return int(x) // x >= 0, so truncation is floor
}

// bin is the non-root Binomial rule: m children with probability q.
func (r *rule) bin(s *state) int {
	if toProb(s.rand()) < r.q {
		return r.m
	}
	return 0
}

// numChildren is uts_numChildren: the number of children of the node with
// state s at depth h, capped as in the reference.
func (r *rule) numChildren(s *state, h int) int {
	var n int
	switch r.typ {
	case Binomial:
		if h == 0 {
			// The root's cap, ceil(b0), never binds on floor(b0).
			return r.rootBF
		}
		n = r.bin(s)
	case Geometric:
		n = r.geo(s, h)
	case Hybrid:
		if float64(h) < r.shiftLimit {
			n = r.geo(s, h)
		} else {
			n = r.bin(s)
		}
	default: // Balanced: no random value, no cap.
		if h < r.genMx {
			return int(r.b0)
		}
		return 0
	}
	return min(n, maxChildren)
}
