package core

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// evalSpawn evaluates t like eval, but forks an inner node's children with
// Spawn: the children after the first are spawned newest-first, the first
// is evaluated here, and the spawned ones are synced in the order they are
// needed (last in, first out), so that with one worker the leaves run in
// serial order. Odd nodes pass their spawns up: the parent syncs them after
// its own Join returns, the pattern of a walk that forks a range opened
// further up and syncs it only when it gets back there.
func evalSpawn(w *Worker, t *tree, order *[]int) int64 {
	if t.kids == nil {
		t.runs.Add(1)
		if order != nil {
			*order = append(*order, t.id)
		}
		return t.value + spin(t.work)
	}
	s, pend := evalDeferred(w, t, order)
	for i := len(pend) - 1; i >= 0; i-- {
		s += pend[i].Sync(w)
	}
	return s
}

type spawnArg struct {
	t     *tree
	order *[]int
}

func evalSpawned(w *Worker, a spawnArg) int64 { return evalSpawn(w, a.t, a.order) }

// evalDeferred evaluates t's first child, and its second with Join when it
// has three or more, and returns the spawns of the others unsynced, newest
// last. A first child with an even number of children is evaluated the same
// way, and its own spawns are synced here, after it returned: newer than
// t's, they are synced before them.
func evalDeferred(w *Worker, t *tree, order *[]int) (int64, []Spawned[spawnArg, int64]) {
	first := 1
	if len(t.kids) >= 3 {
		first = 2
	}
	pend := make([]Spawned[spawnArg, int64], 0, len(t.kids))
	for i := len(t.kids) - 1; i >= first; i-- {
		pend = append(pend, Spawn(w, evalSpawned, spawnArg{t.kids[i], order}))
	}
	var s int64
	switch k := t.kids[0]; {
	case first == 2:
		a, b := Join(w, evalSpawned, spawnArg{k, order}, evalSpawned, spawnArg{t.kids[1], order})
		s = a + b
	case len(k.kids)%2 == 0 && k.kids != nil:
		var inner []Spawned[spawnArg, int64]
		s, inner = evalDeferred(w, k, order)
		for i := len(inner) - 1; i >= 0; i-- {
			s += inner[i].Sync(w)
		}
	default:
		s = evalSpawn(w, k, order)
	}
	return s, pend
}

// TestSpawnRandomTrees checks Spawn and Sync on random fork-join programs
// against the serial oracle: same sum, every leaf run exactly once, and with
// one worker the serial order.
func TestSpawnRandomTrees(t *testing.T) {
	for _, p := range []int{1, 2, 4, 8} {
		pool := New(WithWorkers(p))
		for seed := range scale(200) {
			rng := rand.New(rand.NewPCG(uint64(seed), 11))
			var leaves []*tree
			root := randomTree(rng, 3+rng.IntN(5), &leaves)
			var order, gotOrder []int
			want := root.serial(&order)
			var rec *[]int
			if p == 1 {
				rec = &gotOrder
			}
			got := RunValue(pool, func(w *Worker) int64 { return evalSpawn(w, root, rec) })
			if got != want {
				t.Fatalf("p=%d seed=%d: got %d, want %d", p, seed, got, want)
			}
			for _, l := range leaves {
				if r := l.runs.Load(); r != 1 {
					t.Fatalf("p=%d seed=%d: leaf %d ran %d times", p, seed, l.id, r)
				}
			}
			if p == 1 && !slices.Equal(gotOrder, order) {
				t.Fatalf("p=1 seed=%d: leaves ran in order %v, serial order is %v", seed, gotOrder, order)
			}
		}
		closeChecked(t, pool)
	}
}

// spawnFib is fib with the second call spawned and synced.
func spawnFib(w *Worker, n int) int {
	if n < 2 {
		return n
	}
	s := Spawn(w, spawnFib, n-2)
	x := spawnFib(w, n-1)
	return x + s.Sync(w)
}

func TestSpawnFib(t *testing.T) {
	for _, p := range []int{1, 2, 3, 8} {
		pool := New(WithWorkers(p))
		for range scale(50) {
			if got := RunValue(pool, func(w *Worker) int { return spawnFib(w, 20) }); got != 6765 {
				t.Fatalf("p=%d: spawnFib(20) = %d", p, got)
			}
		}
		closeChecked(t, pool)
	}
}

// TestSpawnAllocs checks that Spawn allocates nothing once the frames of
// each depth exist.
func TestSpawnAllocs(t *testing.T) {
	checkNoAllocs(t, "spawnFib", spawnFib)
}

// TestSpawnMisuse checks the panics of Spawn and Sync used wrongly, and
// that the pool keeps working after them.
func TestSpawnMisuse(t *testing.T) {
	for _, p := range []int{1, 2} {
		pool := New(WithWorkers(p))
		one := func(*Worker, int) int { return 1 }
		expectPanic(t, "Spawn with a nil function", func() {
			RunValue(pool, func(w *Worker) int { Spawn[int, int](w, nil, 0); return 0 })
		})
		expectPanic(t, "not the newest one spawned", func() {
			RunValue(pool, func(w *Worker) int {
				a := Spawn(w, one, 0)
				b := Spawn(w, one, 0)
				return a.Sync(w) + b.Sync(w)
			})
		})
		expectPanic(t, "not the newest one spawned", func() {
			RunValue(pool, func(w *Worker) int {
				a := Spawn(w, one, 0)
				return a.Sync(w) + a.Sync(w)
			})
		})
		expectPanic(t, "not the newest one spawned", func() {
			RunValue(pool, func(w *Worker) int { return Spawned[int, int]{}.Sync(w) })
		})
		// A handle synced already, whose frame a later spawn at the same
		// depth reuses, is stale.
		expectPanic(t, "not yet synced", func() {
			RunValue(pool, func(w *Worker) int {
				a := Spawn(w, one, 0)
				a.Sync(w)
				b := Spawn(w, one, 0)
				return a.Sync(w) + b.Sync(w)
			})
		})
		// A nested Run is a task of its own: it may not sync what the task
		// around it spawned, nor leave spawns of its own behind.
		expectPanic(t, "spawned by another task", func() {
			RunValue(pool, func(w *Worker) int {
				a := Spawn(w, one, 0)
				return RunValue(pool, func(w *Worker) int { return a.Sync(w) })
			})
		})
		expectPanic(t, "1 spawned tasks not synced", func() {
			RunValue(pool, func(w *Worker) int {
				RunValue(pool, func(w *Worker) int { Spawn(w, one, 0); return 0 })
				return 0
			})
		})
		// A task that returns with a spawn not synced: the spawned task is
		// either dropped unrun or waited for, never run twice.
		var runs atomic.Int32
		expectPanic(t, "1 spawned tasks not synced", func() {
			RunValue(pool, func(w *Worker) int {
				Spawn(w, func(*Worker, int) int { runs.Add(1); return 0 }, 0)
				return 0
			})
		})
		if r := runs.Load(); r > 1 {
			t.Fatalf("p=%d: an unsynced spawned task ran %d times", p, r)
		}
		if got := RunValue(pool, func(w *Worker) int { return spawnFib(w, 15) }); got != 610 {
			t.Fatalf("p=%d: after the misuse, spawnFib(15) = %d", p, got)
		}
		closeChecked(t, pool)
	}
}

// TestSpawnPanicStolen checks that a panic in a stolen spawned task reaches
// Sync, and through it the caller of Run, after the task that spawned it is
// done with it.
func TestSpawnPanicStolen(t *testing.T) {
	pool := New(WithWorkers(2))
	defer pool.Close()
	for range scale(100) {
		var stolen atomic.Bool
		v := catch(func() {
			RunValue(pool, func(w *Worker) int {
				s := Spawn(w, func(*Worker, int) int { stolen.Store(true); panic("spawned") }, 0)
				for deadline := time.Now().Add(10 * time.Second); !stolen.Load() && time.Now().Before(deadline); {
					w.Poll() // share the frame when the other worker asks
					runtime.Gosched()
				}
				if !stolen.Load() {
					t.Error("the spawned task was not stolen in 10 s")
				}
				return s.Sync(w)
			})
		})
		if panicValue(t, v) != "spawned" {
			t.Fatalf("panic value %v", v)
		}
	}
}
