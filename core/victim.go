package core

import (
	"fmt"
	"math"
	"math/bits"
)

// Victim selection: a thief steals near before it steals far.
//
// Worker i picks victim j != i with probability proportional to
//
//	w_ij = 1 / (n_ij * r_ij^2)
//
// (libfork, "Libfork: portable continuation-stealing with stackless
// coroutines", eq. 6), where r_ij = Topology.Distance(cpus[i], cpus[j]) is the
// topological distance between the CPUs the two workers run on and n_ij is the
// number of workers other than i at that same distance from i. Every distance
// class therefore receives total probability proportional to 1/r^2, shared
// evenly among its members: however many workers sit on the other socket,
// together they are stolen from as often as one class at that distance.
//
// Two workers on the same CPU (more workers than CPUs, so the assignment
// wraps) have r = 0; their weight uses r = 1 to stay finite, but they keep a
// class of their own (n_ij counts workers at exactly r = 0), so they take the
// same total share as the SMT-sibling class.
//
// On a flat topology every r_ij is equal, and the choice is uniform.

// victimSampler draws the victims of one worker in O(1) without allocating,
// using Walker's alias method (Vose's construction) over the P-1 other
// workers. It is read-only after newVictimSamplers, so the owning worker may
// use it without synchronisation (and other goroutines may read it too).
type victimSampler struct {
	self    int    // the thief's own worker index
	n       uint64 // number of candidate victims, P-1 (0: no victim)
	uniform bool   // all weights equal: skip the table
	table   []victimColumn
}

// victimColumn is one column of the alias table: accept victim with
// probability thresh/2^64, otherwise take alias.
type victimColumn struct {
	thresh uint64
	victim int32
	alias  int32
}

// newVictimSamplers builds one sampler per worker: worker i runs on CPU
// cpus[i] and samplers[i] draws i's victims by libfork eq. 6 (see above). A
// nil t is a flat topology. The tables take O(P^2) memory in all (16 bytes per
// pair; 1 MiB at P = 256) unless all distances are equal, when they take none.
func newVictimSamplers(t *Topology, cpus []int) []victimSampler {
	p := len(cpus)
	s := make([]victimSampler, p)
	dist := make([]int, p)
	weight := make([]float64, p)
	count := map[int]int{}
	for i := range s {
		s[i] = victimSampler{self: i, n: uint64(p - 1), uniform: true}
		if p < 2 || t == nil {
			continue
		}
		clear(count)
		for j := range cpus {
			if j != i {
				dist[j] = t.Distance(cpus[i], cpus[j])
				count[dist[j]]++
			}
		}
		if len(count) == 1 {
			continue // one distance class: uniform
		}
		s[i].uniform = false
		for j := range cpus {
			if j != i {
				r := float64(max(dist[j], 1))
				weight[j] = 1 / (float64(count[dist[j]]) * r * r)
			}
		}
		s[i].table = victimAliasTable(i, weight)
	}
	return s
}

// victimAliasTable builds the alias table over the workers j != self with the
// given (positive) weights, by Vose's method: columns start at weight scaled
// so the mean is 1; each under-full column is topped up by an over-full one,
// which becomes its alias.
func victimAliasTable(self int, weight []float64) []victimColumn {
	n := len(weight) - 1
	sum := 0.0
	for j, w := range weight {
		if j != self {
			sum += w
		}
	}
	col := make([]victimColumn, 0, n)
	q := make([]float64, 0, n) // scaled weight of each column, mean 1
	for j, w := range weight {
		if j != self {
			col = append(col, victimColumn{victim: int32(j), alias: int32(j)})
			q = append(q, w*float64(n)/sum)
		}
	}
	var small, large []int
	for k, v := range q {
		if v < 1 {
			small = append(small, k)
		} else {
			large = append(large, k)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		col[s].thresh = victimThreshold(q[s])
		col[s].alias = col[l].victim
		q[l] -= 1 - q[s]
		if q[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	// What is left is full up to rounding: always take the column's own victim.
	for _, k := range append(small, large...) {
		col[k].thresh = math.MaxUint64
		col[k].alias = col[k].victim
	}
	return col
}

// victimThreshold maps a probability in [0, 1) to a 64-bit threshold.
func victimThreshold(p float64) uint64 {
	if p <= 0 {
		return 0
	}
	if p >= 1 {
		return math.MaxUint64
	}
	return uint64(math.Ldexp(p, 64))
}

// pick returns the victim for the 64-bit uniform random number r (from the
// worker's own generator, e.g. math/rand/v2 PCG or a xorshift). It is O(1)
// and allocation-free: the high 64 bits of r*(P-1) choose the column and the
// low 64 bits (uniform within the column to within (P-1)/2^64) toss the
// column's biased coin. With P = 1 there is no victim and pick returns -1;
// callers should not steal at all then.
func (s *victimSampler) pick(r uint64) int {
	if s.n == 0 {
		return -1
	}
	hi, lo := bits.Mul64(r, s.n)
	if s.uniform {
		j := int(hi)
		if j >= s.self {
			j++
		}
		return j
	}
	c := &s.table[hi]
	if lo < c.thresh {
		return int(c.victim)
	}
	return int(c.alias)
}

// uniformPick returns a uniform index in [0, n) for the 64-bit uniform
// random number r (the high word of r*n, as pick does).
func uniformPick(r uint64, n int) int {
	hi, _ := bits.Mul64(r, uint64(n))
	return int(hi)
}

// assignCPUs returns the CPU for each of workers workers (worker i runs on
// cpus[i]), spreading them over the machine from the top of the tree down:
// round-robin over NUMA nodes first, then within a node over packages, then
// over L3 and L2 groups, then over cores, and only then over the SMT
// siblings of a core. On two 4-core sockets, 8 workers get 0,4,1,5,2,6,3,7.
// With more workers than CPUs the list wraps (worker i gets the CPU of worker
// i mod NumCPUs). A nil t is CurrentTopology(). It panics if workers < 1 or t
// has no CPUs.
func assignCPUs(t *Topology, workers int) []int {
	if workers < 1 {
		panic(fmt.Sprintf("core: assignCPUs(%d workers): need at least 1 worker", workers))
	}
	if t == nil {
		t = CurrentTopology()
	}
	if t.NumCPUs() == 0 {
		panic("core: assignCPUs: the topology has no CPUs (a zero Topology; build one with ReadTopology or FlatTopology)")
	}
	order := victimSpread(t.cpus, 0)
	cpus := make([]int, workers)
	for i := range cpus {
		cpus[i] = order[i%len(order)]
	}
	return cpus
}

// victimSpreadKeys are the tree levels assignCPUs spreads over, outermost first.
var victimSpreadKeys = [...]func(c *topoCPU) int{
	func(c *topoCPU) int { return c.node },
	func(c *topoCPU) int { return c.pkg },
	func(c *topoCPU) int { return c.l3 },
	func(c *topoCPU) int { return c.l2 },
	func(c *topoCPU) int { return c.core },
}

// victimSpread orders the CPUs of one subtree (a run of leaves in tree order)
// by interleaving the orders of its children at the given level.
func victimSpread(run []topoCPU, level int) []int {
	if level == len(victimSpreadKeys) {
		ids := make([]int, len(run)) // the SMT siblings of one core
		for i, c := range run {
			ids[i] = c.id
		}
		return ids
	}
	key := victimSpreadKeys[level]
	var children [][]int
	for len(run) > 0 {
		k, n := key(&run[0]), 1
		for n < len(run) && key(&run[n]) == k {
			n++
		}
		children = append(children, victimSpread(run[:n], level+1))
		run = run[n:]
	}
	if len(children) == 1 {
		return children[0]
	}
	var out []int
	for round := 0; ; round++ {
		added := false
		for _, ch := range children {
			if round < len(ch) {
				out = append(out, ch[round])
				added = true
			}
		}
		if !added {
			return out
		}
	}
}
