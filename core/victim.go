package core

import (
	"math"
	"math/bits"

	"github.com/gofork/gofork/topology"
)

// Victim selection: a thief steals near before it steals far.
//
// Worker i picks victim j != i with probability proportional to
//
//	w_ij = 1 / (n_ij * r_ij^2)
//
// (libfork, "Libfork: portable continuation-stealing with stackless
// coroutines", eq. 6), where r_ij = topology.Machine.Distance(cpus[i], cpus[j]) is the
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
func newVictimSamplers(t *topology.Machine, cpus []int) []victimSampler {
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
