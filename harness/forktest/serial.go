package forktest

import (
	"cmp"
	"slices"
)

// Outcome is what the serial interpreter finds: the program's value if no
// node failed, the number of leaf evaluations, and every fault reachable in a
// run (recorded, not raised: a parallel run may meet any of them first).
type Outcome struct {
	Value  uint64
	Leaves int64
	Faults map[Fault]bool
}

// Serial evaluates p on the calling goroutine with plain loops and
// slices.SortFunc: the oracle for Parallel.
func (p *Program) Serial() Outcome {
	s := serial{faults: map[Fault]bool{}}
	v := s.eval(p.Root, p.Seed)
	return Outcome{Value: v, Leaves: s.leaves, Faults: s.faults}
}

type serial struct {
	leaves int64
	faults map[Fault]bool
}

func (s *serial) eval(n *Node, x uint64) uint64 {
	switch n.Kind {
	case Leaf:
		s.leaves++
		v, fails := leafValue(n, x)
		if fails {
			s.faults[Fault{n.ID, x}] = true
		}
		return v
	case Join, Invoke:
		h := uint64(n.ID)
		for i, k := range n.Kids {
			h = combine(h, s.eval(k, childInput(x, i)))
		}
		return h
	case For:
		h := uint64(n.ID)
		for i := range n.N {
			h = combine(h, s.eval(n.Kids[0], childInput(x, i)))
		}
		return h
	case Reduce:
		if n.PanicMod != 0 {
			// Generate sets it only where a join is sure to run.
			s.faults[Fault{n.ID, x}] = true
		}
		acc := affineIdentity
		for i := range n.N {
			acc = acc.then(affineOf(s.eval(n.Kids[0], childInput(x, i))))
		}
		return acc.value()
	case Sort:
		keys := make([]uint64, n.N)
		for i := range keys {
			keys[i] = sortKey(n, s.eval(n.Kids[0], childInput(x, i)))
		}
		if n.PanicMod != 0 {
			// Every element of a slice of two or more takes part in some
			// comparison, so the comparator meets the marked key for sure.
			s.faults[Fault{n.ID, x}] = true
		}
		slices.SortFunc(keys, cmp.Compare[uint64])
		h := uint64(n.ID)
		for _, k := range keys {
			h = combine(h, k)
		}
		return h
	}
	panic("forktest: unknown node kind " + n.Kind.String())
}
