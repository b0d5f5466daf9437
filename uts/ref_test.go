package uts

import (
	"encoding/binary"
	"math"
)

// refSearch is an independent, slow implementation of the spec for the
// tests: bytes and crypto/sha1 (refRoot, refSpawn), an explicit stack as
// in the reference's uts-seq, and uts_numChildren transcribed without the
// package's precomputation. It also counts how often the cap of 100
// children binds.
func refSearch(t Tree) (res Result, truncated int) {
	type node struct {
		s [20]byte
		h int
	}
	stack := []node{{refRoot(uint32(t.Seed)), 0}}
	for len(stack) > 0 {
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		res.Nodes++
		res.MaxDepth = max(res.MaxDepth, nd.h)
		n, cut := refNumChildren(t, nd.s, nd.h)
		if cut {
			truncated++
		}
		if n <= 0 {
			res.Leaves++
			continue
		}
		for i := range n {
			stack = append(stack, node{refSpawn(nd.s, uint32(i)), nd.h + 1})
		}
	}
	return res, truncated
}

// cInt is C's (int) conversion of a double as x86-64 does it (cvttsd2si):
// truncation, and INT_MIN for NaN and for values outside the int32 range.
func cInt(x float64) int {
	if math.IsNaN(x) || x >= 1<<31 || x < -(1<<31) {
		return math.MinInt32
	}
	return int(x)
}

func refNumChildren(t Tree, s [20]byte, h int) (n int, truncated bool) {
	u := float64(binary.BigEndian.Uint32(s[16:])&0x7fffffff) / 2147483648.0
	bin := func() int {
		if u < t.Q {
			return t.M
		}
		return 0
	}
	geo := func() int {
		b := t.B0
		if h > 0 {
			d, mx := float64(h), float64(t.Depth)
			switch t.Shape {
			case ExpDec:
				b = t.B0 * math.Pow(d, -math.Log(t.B0)/math.Log(mx))
			case Cyclic:
				if h > 5*t.Depth {
					b = 0
				} else {
					b = math.Pow(t.B0, math.Sin(2.0*3.141592653589793*d/mx))
				}
			case Fixed:
				if h < t.Depth {
					b = t.B0
				} else {
					b = 0
				}
			default:
				b = t.B0 * (1.0 - d/mx)
			}
		}
		p := 1.0 / (1.0 + b)
		return cInt(math.Floor(math.Log(1-u) / math.Log(1-p)))
	}
	switch t.Type {
	case Binomial:
		if h == 0 {
			n = cInt(math.Floor(t.B0))
		} else {
			n = bin()
		}
	case Geometric:
		n = geo()
	case Hybrid:
		if float64(h) < t.ShiftDepth*float64(t.Depth) {
			n = geo()
		} else {
			n = bin()
		}
	case Balanced:
		if h < t.Depth {
			n = cInt(t.B0)
		}
	}
	if h == 0 && t.Type == Binomial {
		n = min(n, cInt(math.Ceil(t.B0)))
	} else if t.Type != Balanced && n > 100 {
		return 100, true
	}
	return n, false
}
