package main

import (
	"fmt"
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

// suitePools is the suite of these tests: -suite pools.
const suitePools = "pools"

var poolsVariants = []string{variantSerial, variantGofork, variantGlobal, variantLocal, variantGoroutine}

// poolsBenchmark is what the five tests share: their suite, variants and
// Go baseline, a goroutine per task, which runs the same tasks as gofork.
func poolsBenchmark(b benchmark) *benchmark {
	b.suite = suitePools
	b.variants = poolsVariants
	b.baselineVariant = variantGoroutine
	b.baseline = "a goroutine per task"
	return &b
}

func init() {
	q := func(quick bool, n int) int { return pick(quick, n, n/poolsQuickScale) }
	register(poolsBenchmark(benchmark{
		name: "light", order: 100, kind: kindForkEverywhere, // a task per item of no work
		about:  "Zorro light test: empty tasks, so time is the cost of submitting and taking a task (contention)",
		size:   func(quick bool) string { return fmt.Sprintf("%d tasks", q(quick, poolsLightN)) },
		cutoff: "none: a task per item on every design",
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupFlat(v, p, &flatTest{name: "light", n: q(quick, poolsLightN)})
		},
	}))
	register(poolsBenchmark(benchmark{
		name: "computation", order: 110,
		cutoff: "none: a task per item on every design",
		about:  "Zorro computation test: equal independent tasks; every design should scale linearly",
		size: func(quick bool) string {
			return fmt.Sprintf("%d tasks x %d steps", q(quick, poolsComputeN), poolsComputeWork)
		},
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupFlat(v, p, &flatTest{name: "computation", n: q(quick, poolsComputeN), base: poolsComputeWork})
		},
	}))
	register(poolsBenchmark(benchmark{
		name: "imbalanced", order: 120, serialPerP: true,
		cutoff: "none: a task per item on every design",
		about:  "Zorro imbalanced test: every P-th task 10x heavier, so round-robin dealing gives one worker all heavy tasks",
		size: func(quick bool) string {
			return fmt.Sprintf("%d tasks x %d steps, every P-th %d", q(quick, poolsImbalN), poolsImbalLight, poolsImbalHeavy)
		},
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupFlat(v, p, &flatTest{name: "imbalanced", n: q(quick, poolsImbalN),
				base: poolsImbalLight, heavy: poolsImbalHeavy, heavyEvery: p})
		},
	}))
	register(poolsBenchmark(benchmark{
		name: "quicksort", order: 130,
		cutoff: fmt.Sprintf("ranges of %d keys or fewer sorted serially, on every design", poolsSortCutoff),
		about:  "Zorro recursion test (divide): quicksort whose tasks only spawn tasks",
		size:   func(quick bool) string { return fmt.Sprintf("n=%d cutoff=%d", q(quick, poolsSortN), poolsSortCutoff) },
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupPoolSort(v, p, q(quick, poolsSortN), false)
		},
	}))
	register(poolsBenchmark(benchmark{
		name: "mergesort", order: 140,
		cutoff: fmt.Sprintf("ranges of %d keys or fewer sorted serially, on every design", poolsSortCutoff),
		about:  "Zorro recursion test (divide+merge): mergesort whose parent merges after both children",
		size:   func(quick bool) string { return fmt.Sprintf("n=%d cutoff=%d", q(quick, poolsSortN), poolsSortCutoff) },
		setup: func(v string, p int, quick bool) (*job, error) {
			return setupPoolSort(v, p, q(quick, poolsSortN), true)
		},
	}))
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
			pool.Run(func(w *core.Worker) { flatGofork(w, flatSpan{t, 0, t.n}) })
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
