package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// The pools suite: the test cases of the Zorro thread-pool study (light,
// computation, imbalanced, recursion-divide, divide+merge), run on gofork
// and on the pools in pools.go, so a reader sees why work stealing wins.
// Zorro's tasks sleep; here they spin a fixed number of xorshift steps so
// the work is CPU work that a core must do. Every test checks that each
// task ran exactly once.
const (
	poolsLightN      = 1_000_000 // empty tasks (each only marks its slot)
	poolsComputeN    = 1000      // equal tasks
	poolsComputeWork = 200_000   // xorshift steps per task (~0.3 ms)
	poolsImbalN      = 1000      // tasks, every P-th one heavy
	poolsImbalLight  = 20_000    // xorshift steps of a light task
	poolsImbalHeavy  = 200_000   // of a heavy one: 10x
	poolsSortN       = 2_000_000 // int64 keys for quicksort and mergesort
	poolsSortCutoff  = 2048      // ranges this short are sorted serially in one task
	poolsQuickScale  = 10        // -quick divides the sizes by this
)

var poolsVariants = []string{variantSerial, variantGofork, variantGlobal, variantLocal, variantGoroutine}

func init() {
	q := func(quick bool, n int) int { return pick(quick, n, n/poolsQuickScale) }
	register(&benchmark{
		name: "light", suite: suitePools, order: 100,
		about:    "Zorro light test: empty tasks, so time is the cost of submitting and taking a task (contention)",
		size:     func(quick bool) string { return fmt.Sprintf("%d tasks", q(quick, poolsLightN)) },
		variants: poolsVariants,
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupFlat(v, p, &flatTest{name: "light", n: q(quick, poolsLightN)})
		},
	})
	register(&benchmark{
		name: "computation", suite: suitePools, order: 110,
		about: "Zorro computation test: equal independent tasks; every design should scale linearly",
		size: func(quick bool) string {
			return fmt.Sprintf("%d tasks x %d steps", q(quick, poolsComputeN), poolsComputeWork)
		},
		variants: poolsVariants,
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupFlat(v, p, &flatTest{name: "computation", n: q(quick, poolsComputeN), base: poolsComputeWork})
		},
	})
	register(&benchmark{
		name: "imbalanced", suite: suitePools, order: 120, serialPerP: true,
		about: "Zorro imbalanced test: every P-th task 10x heavier, so round-robin dealing gives one worker all heavy tasks",
		size: func(quick bool) string {
			return fmt.Sprintf("%d tasks x %d steps, every P-th %d", q(quick, poolsImbalN), poolsImbalLight, poolsImbalHeavy)
		},
		variants: poolsVariants,
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupFlat(v, p, &flatTest{name: "imbalanced", n: q(quick, poolsImbalN),
				base: poolsImbalLight, heavy: poolsImbalHeavy, heavyEvery: p})
		},
	})
	register(&benchmark{
		name: "quicksort", suite: suitePools, order: 130,
		about:    "Zorro recursion test (divide): quicksort whose tasks only spawn tasks",
		size:     func(quick bool) string { return fmt.Sprintf("n=%d cutoff=%d", q(quick, poolsSortN), poolsSortCutoff) },
		variants: poolsVariants,
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupPoolSort(v, p, q(quick, poolsSortN), false)
		},
	})
	register(&benchmark{
		name: "mergesort", suite: suitePools, order: 140,
		about:    "Zorro recursion test (divide+merge): mergesort whose parent merges after both children",
		size:     func(quick bool) string { return fmt.Sprintf("n=%d cutoff=%d", q(quick, poolsSortN), poolsSortCutoff) },
		variants: poolsVariants,
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupPoolSort(v, p, q(quick, poolsSortN), true)
		},
	})
}

// spin is a task's CPU work: steps of a xorshift generator seeded by seed.
func spin(steps int, seed uint64) uint64 {
	x := seed*0x9E3779B97F4A7C15 | 1
	for range steps {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// flatTest is n independent tasks; task i marks hits[i] and, unless the test
// is light, spins base steps (heavy steps when i%heavyEvery == 0).
type flatTest struct {
	name       string
	n          int
	base       int
	heavy      int
	heavyEvery int
	hits       []atomic.Int32
	out        []uint64
}

func (t *flatTest) steps(i int) int {
	if t.heavyEvery > 0 && i%t.heavyEvery == 0 {
		return t.heavy
	}
	return t.base
}

func (t *flatTest) task(i int) {
	t.hits[i].Add(1)
	if s := t.steps(i); s > 0 {
		t.out[i] = spin(s, uint64(i))
	}
}

// verify checks every task ran exactly once and spot-checks the results.
func (t *flatTest) verify() error {
	bad := 0
	first := -1
	for i := range t.hits {
		if t.hits[i].Load() != 1 {
			if first < 0 {
				first = i
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%s: %d of %d tasks did not run exactly once (task %d ran %d times)",
			t.name, bad, t.n, first, t.hits[first].Load())
	}
	for k := range 16 {
		i := k * (t.n - 1) / 15
		if s := t.steps(i); s > 0 && t.out[i] != spin(s, uint64(i)) {
			return fmt.Errorf("%s: task %d computed %#x, want %#x", t.name, i, t.out[i], spin(s, uint64(i)))
		}
	}
	return nil
}

// flatSpan is the task range [lo, hi) that a gofork task splits.
type flatSpan struct {
	t      *flatTest
	lo, hi int
}

// flatGofork forks the range in halves down to single tasks: one fork per
// task, as a Submit per task costs the pools.
func flatGofork(w *core.Worker, s flatSpan) struct{} {
	if s.hi-s.lo == 1 {
		s.t.task(s.lo)
		return struct{}{}
	}
	mid := s.lo + (s.hi-s.lo)/2
	core.Join(w, flatGofork, flatSpan{s.t, s.lo, mid}, flatGofork, flatSpan{s.t, mid, s.hi})
	return struct{}{}
}

func setupFlat(variant string, p int, t *flatTest) (*job, error) {
	t.hits = make([]atomic.Int32, t.n)
	t.out = make([]uint64, t.n)
	j := &job{
		reset: func() {
			for i := range t.hits {
				t.hits[i].Store(0)
			}
			clear(t.out)
		},
		verify: t.verify,
	}
	switch variant {
	case variantSerial:
		j.run = func() {
			for i := range t.n {
				t.task(i)
			}
		}
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() {
			core.Run(pool, func(w *core.Worker) struct{} { return flatGofork(w, flatSpan{t, 0, t.n}) })
		}
		j.close = pool.Close
	default:
		pool := newTaskPool(variant, p)
		if pool == nil {
			return nil, fmt.Errorf("%s: no variant %q", t.name, variant)
		}
		j.run = func() {
			for i := range t.n {
				pool.Submit(func() { t.task(i) })
			}
			pool.Wait()
		}
		j.close = pool.Close
	}
	return j, nil
}

// qsPartition is Hoare's partition around the median of the first, middle
// and last keys. It returns k with 0 < k < len(a), a[:k] <= pivot <= a[k:].
func qsPartition(a []int64) int {
	n := len(a)
	m := n / 2
	if a[m] < a[0] {
		a[m], a[0] = a[0], a[m]
	}
	if a[n-1] < a[0] {
		a[n-1], a[0] = a[0], a[n-1]
	}
	if a[n-1] < a[m] {
		a[n-1], a[m] = a[m], a[n-1]
	}
	pivot := a[m]
	i, j := -1, n
	for {
		for i++; a[i] < pivot; i++ {
		}
		for j--; a[j] > pivot; j-- {
		}
		if i >= j {
			return j + 1
		}
		a[i], a[j] = a[j], a[i]
	}
}

// qsSerial sorts a: quicksort down to 16 keys, then insertion sort.
func qsSerial(a []int64) {
	for len(a) > 16 {
		k := qsPartition(a)
		if k < len(a)-k {
			qsSerial(a[:k])
			a = a[k:]
		} else {
			qsSerial(a[k:])
			a = a[:k]
		}
	}
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// msMerge merges sorted l and r into dst (len(dst) == len(l)+len(r)).
func msMerge(l, r, dst []int64) {
	i, j, k := 0, 0, 0
	for i < len(l) && j < len(r) {
		if r[j] < l[i] {
			dst[k] = r[j]
			j++
		} else {
			dst[k] = l[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], l[i:])
	copy(dst[k:], r[j:])
}

// sortTasks counts the tasks a sort of n keys runs: one per range (the
// leaves sort serially), plus one merge per split for mergesort.
func sortTasks(a []int64, merge bool) int64 {
	if len(a) <= poolsSortCutoff {
		return 1
	}
	var k int
	if merge {
		k = len(a) / 2
	} else {
		k = qsPartition(a)
	}
	n := 1 + sortTasks(a[:k], merge) + sortTasks(a[k:], merge)
	if merge {
		n++ // the merge task
	}
	return n
}

// poolSort holds one sort problem and the per-run task counter.
type poolSort struct {
	data, tmp []int64
	tasks     atomic.Int64
}

// qsRec is the divide-only recursion: partition, then the two halves.
type qsArgs struct {
	s *poolSort
	a []int64
}

func qsGofork(w *core.Worker, x qsArgs) struct{} {
	x.s.tasks.Add(1)
	if len(x.a) <= poolsSortCutoff {
		qsSerial(x.a)
		return struct{}{}
	}
	k := qsPartition(x.a)
	core.Join(w, qsGofork, qsArgs{x.s, x.a[:k]}, qsGofork, qsArgs{x.s, x.a[k:]})
	return struct{}{}
}

func qsTasksSerial(s *poolSort, a []int64) {
	s.tasks.Add(1)
	if len(a) <= poolsSortCutoff {
		qsSerial(a)
		return
	}
	k := qsPartition(a)
	qsTasksSerial(s, a[:k])
	qsTasksSerial(s, a[k:])
}

// msArgs is a mergesort range with its scratch space.
type msArgs struct {
	s      *poolSort
	a, tmp []int64
}

func msGofork(w *core.Worker, x msArgs) struct{} {
	x.s.tasks.Add(1)
	if len(x.a) <= poolsSortCutoff {
		qsSerial(x.a)
		return struct{}{}
	}
	m := len(x.a) / 2
	core.Join(w, msGofork, msArgs{x.s, x.a[:m], x.tmp[:m]}, msGofork, msArgs{x.s, x.a[m:], x.tmp[m:]})
	x.s.tasks.Add(1)
	msMerge(x.a[:m], x.a[m:], x.tmp)
	copy(x.a, x.tmp)
	return struct{}{}
}

func msTasksSerial(s *poolSort, a, tmp []int64) {
	s.tasks.Add(1)
	if len(a) <= poolsSortCutoff {
		qsSerial(a)
		return
	}
	m := len(a) / 2
	msTasksSerial(s, a[:m], tmp[:m])
	msTasksSerial(s, a[m:], tmp[m:])
	s.tasks.Add(1)
	msMerge(a[:m], a[m:], tmp)
	copy(a, tmp)
}

// msNode is a pending merge for the pools: it runs as a task once both
// children have finished (the last child to finish submits it), so no
// task ever blocks waiting for another.
type msNode struct {
	a, tmp  []int64
	mid     int
	pending atomic.Int32
	parent  *msNode
}

// poolsQuicksort runs the divide-only quicksort on a Submit/Wait pool.
func poolsQuicksort(pool taskPool, s *poolSort) {
	var task func(a []int64)
	task = func(a []int64) {
		s.tasks.Add(1)
		if len(a) <= poolsSortCutoff {
			qsSerial(a)
			return
		}
		k := qsPartition(a)
		l, r := a[:k], a[k:]
		pool.Submit(func() { task(l) })
		pool.Submit(func() { task(r) })
	}
	pool.Submit(func() { task(s.data) })
	pool.Wait()
}

// poolsMergesort runs the divide+merge mergesort on a Submit/Wait pool.
func poolsMergesort(pool taskPool, s *poolSort) {
	var finish func(n *msNode)
	finish = func(n *msNode) {
		if n == nil || n.pending.Add(-1) != 0 {
			return
		}
		pool.Submit(func() {
			s.tasks.Add(1)
			msMerge(n.a[:n.mid], n.a[n.mid:], n.tmp)
			copy(n.a, n.tmp)
			finish(n.parent)
		})
	}
	var task func(a, tmp []int64, parent *msNode)
	task = func(a, tmp []int64, parent *msNode) {
		s.tasks.Add(1)
		if len(a) <= poolsSortCutoff {
			qsSerial(a)
			finish(parent)
			return
		}
		m := len(a) / 2
		n := &msNode{a: a, tmp: tmp, mid: m, parent: parent}
		n.pending.Store(2)
		pool.Submit(func() { task(a[:m], tmp[:m], n) })
		pool.Submit(func() { task(a[m:], tmp[m:], n) })
	}
	pool.Submit(func() { task(s.data, s.tmp, nil) })
	pool.Wait()
}

func setupPoolSort(variant string, p, n int, merge bool) (*job, error) {
	name := pick(merge, "mergesort", "quicksort")
	rng := rand.New(rand.NewPCG(1, 1))
	master := make([]int64, n)
	var sum, xor int64
	for i := range master {
		master[i] = rng.Int64()
		sum += master[i]
		xor ^= master[i]
	}
	wantTasks := sortTasks(slices.Clone(master), merge)
	s := &poolSort{data: make([]int64, n), tmp: make([]int64, n)}
	j := &job{
		reset: func() {
			copy(s.data, master)
			s.tasks.Store(0)
		},
		verify: func() error {
			if !slices.IsSorted(s.data) {
				return fmt.Errorf("%s: result not sorted", name)
			}
			var gs, gx int64
			for _, v := range s.data {
				gs += v
				gx ^= v
			}
			if gs != sum || gx != xor {
				return fmt.Errorf("%s: result is not a permutation of the input", name)
			}
			if got := s.tasks.Load(); got != wantTasks {
				return fmt.Errorf("%s: %d tasks ran, want each of %d exactly once", name, got, wantTasks)
			}
			return nil
		},
	}
	switch variant {
	case variantSerial:
		if merge {
			j.run = func() { msTasksSerial(s, s.data, s.tmp) }
		} else {
			j.run = func() { qsTasksSerial(s, s.data) }
		}
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		if merge {
			j.run = func() { core.Run(pool, func(w *core.Worker) struct{} { return msGofork(w, msArgs{s, s.data, s.tmp}) }) }
		} else {
			j.run = func() { core.Run(pool, func(w *core.Worker) struct{} { return qsGofork(w, qsArgs{s, s.data}) }) }
		}
		j.close = pool.Close
	default:
		pool := newTaskPool(variant, p)
		if pool == nil {
			return nil, fmt.Errorf("%s: no variant %q", name, variant)
		}
		if merge {
			j.run = func() { poolsMergesort(pool, s) }
		} else {
			j.run = func() { poolsQuicksort(pool, s) }
		}
		j.close = pool.Close
	}
	return j, nil
}
