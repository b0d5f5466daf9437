package kernels

import (
	"fmt"
	"sync/atomic"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/baseline"
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

var poolsVariants = []string{Serial, Gofork, Global, Local, Goroutine}

// poolsBenchmark is what the five tests share: their suite, variants and
// Go baseline, a goroutine per task, which runs the same tasks as gofork.
func poolsBenchmark(k Kernel) *Kernel {
	k.Suite = suitePools
	k.Variants = poolsVariants
	k.BaselineVariant = Goroutine
	k.Baseline = "a goroutine per task"
	return &k
}

func init() {
	q := func(quick Scale, n int) int { return pick(quick, n, n/poolsQuickScale) }
	add(poolsBenchmark(Kernel{
		Name: "light", Order: 100, Kind: ForkEverywhere, // a task per item of no work
		About:  "Zorro light test: empty tasks, so time is the cost of submitting and taking a task (contention)",
		Size:   func(quick Scale) string { return fmt.Sprintf("%d tasks", q(quick, poolsLightN)) },
		Cutoff: "none: a task per item on every design",
		Setup: func(v string, p int, quick Scale) (*Job, error) {
			return setupFlat(v, p, &flatTest{name: "light", n: q(quick, poolsLightN)})
		},
	}))
	add(poolsBenchmark(Kernel{
		Name: "computation", Order: 110,
		Cutoff: "none: a task per item on every design",
		About:  "Zorro computation test: equal independent tasks; every design should scale linearly",
		Size: func(quick Scale) string {
			return fmt.Sprintf("%d tasks x %d steps", q(quick, poolsComputeN), poolsComputeWork)
		},
		Setup: func(v string, p int, quick Scale) (*Job, error) {
			return setupFlat(v, p, &flatTest{name: "computation", n: q(quick, poolsComputeN), base: poolsComputeWork})
		},
	}))
	add(poolsBenchmark(Kernel{
		Name: "imbalanced", Order: 120, SerialPerP: true,
		Cutoff: "none: a task per item on every design",
		About:  "Zorro imbalanced test: every P-th task 10x heavier, so round-robin dealing gives one worker all heavy tasks",
		Size: func(quick Scale) string {
			return fmt.Sprintf("%d tasks x %d steps, every P-th %d", q(quick, poolsImbalN), poolsImbalLight, poolsImbalHeavy)
		},
		Setup: func(v string, p int, quick Scale) (*Job, error) {
			return setupFlat(v, p, &flatTest{name: "imbalanced", n: q(quick, poolsImbalN),
				base: poolsImbalLight, heavy: poolsImbalHeavy, heavyEvery: p})
		},
	}))
	add(poolsBenchmark(Kernel{
		Name: "quicksort", Order: 130,
		Cutoff: fmt.Sprintf("ranges of %d keys or fewer sorted serially, on every design", poolsSortCutoff),
		About:  "Zorro recursion test (divide): quicksort whose tasks only spawn tasks",
		Size:   func(quick Scale) string { return fmt.Sprintf("n=%d cutoff=%d", q(quick, poolsSortN), poolsSortCutoff) },
		Setup: func(v string, p int, quick Scale) (*Job, error) {
			return setupPoolSort(v, p, q(quick, poolsSortN), false)
		},
	}))
	add(poolsBenchmark(Kernel{
		Name: "mergesort", Order: 140,
		Cutoff: fmt.Sprintf("ranges of %d keys or fewer sorted serially, on every design", poolsSortCutoff),
		About:  "Zorro recursion test (divide+merge): mergesort whose parent merges after both children",
		Size:   func(quick Scale) string { return fmt.Sprintf("n=%d cutoff=%d", q(quick, poolsSortN), poolsSortCutoff) },
		Setup: func(v string, p int, quick Scale) (*Job, error) {
			return setupPoolSort(v, p, q(quick, poolsSortN), true)
		},
	}))
}

// Spin is a task's CPU work: steps of a xorshift generator seeded by
// seed, a fixed cost (about 1.4 ns a step on the 2-core VM) that a
// scheduler cannot skip.
func Spin(steps int, seed uint64) uint64 {
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
		t.out[i] = Spin(s, uint64(i))
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
		if s := t.steps(i); s > 0 && t.out[i] != Spin(s, uint64(i)) {
			return fmt.Errorf("%s: task %d computed %#x, want %#x", t.name, i, t.out[i], Spin(s, uint64(i)))
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

func setupFlat(variant string, p int, t *flatTest) (*Job, error) {
	t.hits = make([]atomic.Int32, t.n)
	t.out = make([]uint64, t.n)
	j := &Job{
		Reset: func() {
			for i := range t.hits {
				t.hits[i].Store(0)
			}
			clear(t.out)
		},
		Verify: t.verify,
	}
	switch variant {
	case Serial:
		j.Run = func() {
			for i := range t.n {
				t.task(i)
			}
		}
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		j.Run = func() {
			pool.Run(func(w *core.Worker) { flatGofork(w, flatSpan{t, 0, t.n}) })
		}
		j.Close = pool.Close
	default:
		pool := baseline.NewTaskPool(variant, p)
		if pool == nil {
			return nil, fmt.Errorf("%s: no variant %q", t.name, variant)
		}
		j.Run = func() {
			for i := range t.n {
				pool.Submit(func() { t.task(i) })
			}
			pool.Wait()
		}
		j.Close = pool.Close
	}
	return j, nil
}
