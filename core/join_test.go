package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
)

// A tree is a random fork-join program: every inner node forks its children
// (by binary splitting with Join, or all at once with Invoke) and adds their
// values; every leaf does a little work and counts its executions.
type tree struct {
	kids   []*tree
	invoke bool  // fork the children with Invoke instead of Join
	value  int64 // leaf value
	work   int   // leaf busy-work iterations
	id     int   // leaf index, in serial (depth-first) order
	runs   atomic.Int32
}

func randomTree(rng *rand.Rand, depth int, leaves *[]*tree) *tree {
	t := &tree{}
	if depth == 0 || rng.IntN(5) == 0 {
		t.value = rng.Int64N(1000)
		t.work = rng.IntN(200)
		t.id = len(*leaves)
		*leaves = append(*leaves, t)
		return t
	}
	n := 1 + rng.IntN(6)
	t.invoke = rng.IntN(3) == 0
	for range n {
		t.kids = append(t.kids, randomTree(rng, depth-1, leaves))
	}
	return t
}

// serial is the oracle.
func (t *tree) serial(order *[]int) int64 {
	if t.kids == nil {
		*order = append(*order, t.id)
		return t.value + spin(t.work)
	}
	var s int64
	for _, k := range t.kids {
		s += k.serial(order)
	}
	return s
}

func spin(n int) int64 {
	x := uint64(n)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return int64(x >> 60) // deterministic, so the serial oracle adds the same
}

// evalArg carries the evaluation's state by value, so Join allocates nothing.
type evalArg struct {
	nodes []*tree
	order *[]int // serial order of leaves, recorded only with one worker
}

func evalNodes(w *Worker, a evalArg) int64 {
	if len(a.nodes) == 1 {
		return eval(w, a.nodes[0], a.order)
	}
	h := len(a.nodes) / 2
	x, y := Join(w, evalNodes, evalArg{a.nodes[:h], a.order}, evalNodes, evalArg{a.nodes[h:], a.order})
	return x + y
}

func eval(w *Worker, t *tree, order *[]int) int64 {
	if t.kids == nil {
		t.runs.Add(1)
		if order != nil {
			*order = append(*order, t.id)
		}
		return t.value + spin(t.work)
	}
	if t.invoke && order == nil {
		sums := make([]int64, len(t.kids))
		fns := make([]func(*Worker), len(t.kids))
		for i, k := range t.kids {
			fns[i] = func(w *Worker) { sums[i] = eval(w, k, nil) }
		}
		Invoke(w, fns...)
		var s int64
		for _, v := range sums {
			s += v
		}
		return s
	}
	return evalNodes(w, evalArg{t.kids, order})
}

func TestRandomTrees(t *testing.T) {
	seeds := scale(200)
	for _, policy := range []Policy{WorkFirst, HelpFirst} {
		for _, p := range []int{1, 2, 4, 8} {
			pool := New(WithWorkers(p), WithPolicy(policy))
			for seed := range seeds {
				rng := rand.New(rand.NewPCG(uint64(seed), 7))
				var leaves []*tree
				root := randomTree(rng, 3+rng.IntN(5), &leaves)
				var order []int
				want := root.serial(&order)
				var got int64
				var gotOrder []int
				if p == 1 && policy == WorkFirst {
					// On the only worker, alone: the serial order.
					got = onWorker(pool, func(w *Worker) int64 { return eval(w, root, &gotOrder) })
				} else {
					got = RunValue(pool, func(w *Worker) int64 { return eval(w, root, nil) })
				}
				if got != want {
					t.Fatalf("%v p=%d seed=%d: got %d, want %d", policy, p, seed, got, want)
				}
				for _, l := range leaves {
					if r := l.runs.Load(); r != 1 {
						t.Fatalf("%v p=%d seed=%d: leaf %d ran %d times", policy, p, seed, l.id, r)
					}
				}
				if gotOrder != nil && !slices.Equal(gotOrder, order) {
					t.Fatalf("p=1 seed=%d: leaves ran in order %v, serial order is %v", seed, gotOrder, order)
				}
			}
			closeChecked(t, pool)
		}
	}
}

func fib(w *Worker, n int) int {
	if n < 2 {
		return n
	}
	x, y := Join(w, fib, n-1, fib, n-2)
	return x + y
}

func fibSerial(n int) int {
	if n < 2 {
		return n
	}
	return fibSerial(n-1) + fibSerial(n-2)
}

func TestFib(t *testing.T) {
	n := 27
	if raceEnabled {
		n = 20
	}
	want := fibSerial(n)
	for _, policy := range []Policy{WorkFirst, HelpFirst} {
		for _, p := range []int{1, 2, 3, 8, 16} {
			t.Run(fmt.Sprintf("%v/p=%d", policy, p), func(t *testing.T) {
				pool := New(WithWorkers(p), WithPolicy(policy))
				defer closeChecked(t, pool)
				for range 5 {
					if got := RunValue(pool, func(w *Worker) int { return fib(w, n) }); got != want {
						t.Fatalf("fib(%d) = %d, want %d", n, got, want)
					}
				}
			})
		}
	}
}

// TestDeepRecursion forks 100000 levels deep: the deque grows to match and
// every level is joined.
func TestDeepRecursion(t *testing.T) {
	depth := scale(100_000)
	pool := New(WithWorkers(2))
	defer pool.Close()
	var chain func(w *Worker, n int) int
	chain = func(w *Worker, n int) int {
		if n == 0 {
			return 0
		}
		x, y := Join(w, chain, n-1, func(*Worker, int) int { return 1 }, 0)
		return x + y
	}
	if got := RunValue(pool, func(w *Worker) int { return chain(w, depth) }); got != depth {
		t.Fatalf("chain(%d) = %d", depth, got)
	}
}

// TestJoinAllocs checks that forks allocate nothing once the frames of each
// depth exist (the Run itself is recycled too).
func TestJoinAllocs(t *testing.T) {
	checkNoAllocs(t, "fib", fib)
}

// checkNoAllocs checks that RunValue(f(20)) on one worker allocates nothing after
// a first run has made the frames of every depth.
func checkNoAllocs(t *testing.T, name string, f func(*Worker, int) int) {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	pool := New(WithWorkers(1), WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer pool.Close()
	root := func(w *Worker) int { return f(w, 20) } // made once: a closure over f allocates
	run := func() { RunValue(pool, root) }
	run()
	if a := testing.AllocsPerRun(50, run); a > 0.1 {
		t.Fatalf("RunValue(%s(20)) allocates %.2f times per run; want 0", name, a)
	}
}

func TestJoinMixedTypes(t *testing.T) {
	// Joins of different types at the same depth replace the cached frame.
	pool := New(WithWorkers(2))
	defer pool.Close()
	got := RunValue(pool, func(w *Worker) string {
		var s string
		for i := range 100 {
			a, b := Join(w, func(*Worker, int) string { return fmt.Sprint(i) },
				i, func(*Worker, float64) float64 { return 2 * float64(i) }, 0.5)
			c, d := Join(w, func(*Worker, string) int { return len(a) },
				a, func(*Worker, []int) []int { return []int{int(b)} }, nil)
			s += fmt.Sprint(c, d[0], " ")
		}
		return s
	})
	var want string
	for i := range 100 {
		want += fmt.Sprint(len(fmt.Sprint(i)), 2*i, " ")
	}
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
