package core

import (
	"math"
	"math/bits"

	"github.com/gofork/gofork/internal/lockfree"
	"github.com/gofork/gofork/topology"
)

// Stealing: which victim a thief picks (victim selection, below), the
// steal attempt (trySteal, stealFrom), and what the thief does with what it
// took (runStolen, runStolenJob, endStolen): it runs a stolen frame as a
// task of its own, in its owner's lane, with the labels of the task that
// pushed it, and completes the frame's latch.
//
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

// trySteal makes one pass over the victims, starting with leap if it is a
// valid worker other than w, then with draws from w's victim distribution
// over the active workers, then over the extras (spares, workers beyond the
// limit), each looked at with one load. From each victim it takes the
// oldest frame, or else a batch of its oldest jobs. It returns what it took
// (a frame h, or a job j with ok set, the rest of its batch pushed on w's
// own job deque) and the ID of its owner. In the idle loop (idle), a
// worker whose place a guest claimed takes nothing from a guest: the guest
// stored its claim before it pushed the frame that offers shows, so the
// claim is seen here, and the guest's root stays on one goroutine for the
// one place.
func (w *Worker) trySteal(leap int, idle bool) (h *frameHeader, j job, ok bool, owner int) {
	r := w.pool.roster.Load() // pairs with the Store in publish
	if leap >= 0 && leap != w.id && leap < len(r.all) {
		if h, j, ok, _ := w.stealFrom(r.all[leap]); h != nil || ok {
			return h, j, ok, leap
		}
	}
	n := len(r.active)
	var sampler *victimSampler
	if k := w.index; k >= 0 && k < n {
		sampler = &r.samplers[k]
	}
	for retry := true; retry; {
		retry = false
		// n-1 draws from the topology-weighted distribution (libfork eq. 6:
		// near victims first; uniform on a flat machine). A worker outside
		// the active set draws uniformly from all of it.
		draws := n - 1
		if sampler == nil {
			draws = n
		}
		for range draws {
			var v *Worker
			if sampler != nil {
				v = r.active[sampler.pick(w.next())]
			} else {
				v = r.active[uniformPick(w.next(), n)]
			}
			if v == w {
				continue
			}
			h, j, ok, lost := w.stealFrom(v)
			if h != nil || ok {
				return h, j, ok, v.id
			}
			retry = retry || lost
		}
	}
	for _, v := range r.extras {
		if v != w && v.offers() {
			if idle && v.guest && w.claim.Load() != nil { // pairs with lend's claim.Store, made before the guest's push that offers loaded
				return nil, j, false, -1
			}
			if h, j, ok, _ := w.stealFrom(v); h != nil || ok {
				return h, j, ok, v.id
			}
		}
	}
	return nil, j, false, -1
}

// stealFrom tries v's oldest shared frame, then a batch of its oldest jobs
// (up to half of them: one to run, the rest to w's job deque, where other
// thieves can take them); lost says a race was lost, so a retry may
// succeed.
func (w *Worker) stealFrom(v *Worker) (h *frameHeader, j job, ok, lost bool) {
	w.stealAttempts++
	h, res := v.dq.steal()
	if res == lockfree.StealSuccess {
		return h, j, false, false
	}
	j, jres := v.jobs.Steal(&w.jobs)
	if jres == lockfree.StealSuccess {
		return nil, j, true, false
	}
	return nil, j, false, res == lockfree.StealLost || jres == lockfree.StealLost
}

// offers reports whether a thief could take something from v now: a shared
// frame or a job. Any goroutine.
func (v *Worker) offers() bool { return v.dq.hasShared() || v.jobs.Len() > 0 }

// runStolen runs a frame stolen from worker owner as a task, in owner's
// lane (guest.go), and completes its latch. It reports whether the owner
// is a guest that slept on the frame and was woken: a worker in its idle
// loop then yields, so that the caller it woke runs at once instead of
// waiting in this processor's next-to-run slot. A Goexit ends the goroutine
// with the lane still set; the worker's next goroutine starts in none.
func (w *Worker) runStolen(h *frameHeader, owner int) (wokeGuest bool) {
	h.thief.Store(int32(w.id + 1)) // tell the owner whom to steal back from
	w.stolen++
	outer, changed := w.enterLane(owner)
	labels := w.enterLabels(w.pool.roster.Load().all[owner].labelsAt(h.depth)) // before the frame ends: the owner's marks below it stay until it is joined
	w.runTask(h.job.execute, func(pe *PanicError) { wokeGuest = w.endStolen(h, owner, pe) })
	w.leaveLabels(labels)
	if changed {
		w.lane.Store(outer)
	}
	return wokeGuest
}

// runStolenJob runs a job stolen from worker owner, in owner's lane.
func (w *Worker) runStolenJob(j *job, owner int) {
	w.stolen++
	outer, changed := w.enterLane(owner)
	w.runJob(j)
	if changed {
		w.lane.Store(outer)
	}
}

// endStolen publishes the end of the stolen frame h to its owner, waking it
// if it sleeps on the frame's latch; it reports whether it woke a guest.
func (w *Worker) endStolen(h *frameHeader, owner int, pe *PanicError) bool {
	w.publish()
	h.panicked = pe
	// Subtle: once state is frameDone the owner may reuse the frame, so
	// nothing below may touch h.
	if h.state.Swap(frameDone) == frameSleeping { // publish res and panicked; pairs with state.Load in probe
		p := w.pool
		o := p.roster.Load().all[owner]
		p.wakeWorker(o)
		return o.guest
	}
	return false
}

// runStolenFrom steals a frame or else a job from v and runs it, and
// reports whether it found one.
func (w *Worker) runStolenFrom(v *Worker) bool {
	h, j, ok, _ := w.stealFrom(v)
	switch {
	case h != nil:
		w.runStolen(h, v.id) // a worker in a lane is inside a task: no yield to a guest it wakes
	case ok:
		w.runStolenJob(&j, v.id)
	default:
		return false
	}
	return true
}

// enterLane puts w in the lane of the worker it stole from (owner) for the
// stolen task, and returns the lane to restore after it, with whether it
// changed. A task whose victim is in no lane leaves w's lane as it is:
// one load and no store in the common case.
func (w *Worker) enterLane(owner int) (outer *Worker, changed bool) {
	outer = w.lane.Load()
	lane := w.pool.roster.Load().all[owner].lane.Load()
	if lane == nil || lane == outer {
		return outer, false
	}
	w.lane.Store(lane)
	return outer, true
}
