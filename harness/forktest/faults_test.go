package forktest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// boom is the value the fault tests panic with; comparable, so the value that
// reaches the caller can be checked with ==.
type boom struct {
	where string
	n     int
}

// fibPanic is fib(n) by Join, panicking with boom{where, n} at the leaf
// whose path from the root is target (bit i: left or right at depth i), so
// that the panic happens deep in a stolen subtree as often as not.
type fibArg struct {
	n, depth int
	path     uint64
	target   uint64
	where    string
}

func fibPanic(w *core.Worker, a fibArg) int {
	if a.n < 2 {
		if a.target != ^uint64(0) && a.path == a.target {
			panic(boom{a.where, a.depth})
		}
		return a.n
	}
	l, r := core.Join(w,
		fibPanic, fibArg{a.n - 1, a.depth + 1, a.path, a.target, a.where},
		fibPanic, fibArg{a.n - 2, a.depth + 1, a.path | 1<<a.depth, a.target, a.where})
	return l + r
}

func fibSerial(n int) int {
	if n < 2 {
		return n
	}
	return fibSerial(n-1) + fibSerial(n-2)
}

// leafPath returns the path of the leftmost-then-right leaf reached by the
// bits of pick in fib(n)'s tree, and its depth.
func leafPath(n int, pick uint64) (path uint64, depth int) {
	for n >= 2 {
		if pick&1 == 0 {
			n--
		} else {
			path |= 1 << depth
			n -= 2
		}
		pick >>= 1
		depth++
	}
	return path, depth
}

// catch runs f and returns what it panicked with, or nil.
func catch(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// checkPanic checks that raw, as recovered from the caller, carries want, and
// that the runtime's wrapper (if any) holds a stack from this package.
func checkPanic(t *testing.T, name string, raw any, want any) {
	t.Helper()
	if raw == nil {
		t.Errorf("%s: no panic reached the caller, want %v", name, want)
		return
	}
	if got := Unwrap(raw); got != want {
		t.Errorf("%s: caller got %#v (raw %T), want %#v", name, got, raw, want)
		return
	}
	if pe, ok := raw.(*core.PanicError); ok {
		if !strings.Contains(string(pe.Stack), "harness/forktest") {
			t.Errorf("%s: PanicError.Stack has no frame of the panicking task:\n%s", name, pe.Stack)
		}
		if !strings.Contains(pe.Error(), fmt.Sprint(want)) {
			t.Errorf("%s: PanicError.Error() = %q does not name the value %v", name, pe.Error()[:min(200, len(pe.Error()))], want)
		}
	}
}

// checkHealthy runs jobs more jobs of mixed kinds on pool and fails on any
// wrong result: a pool that survived a panic must be as good as new.
func checkHealthy(t *testing.T, pool *core.Pool, jobs int) {
	t.Helper()
	want := fibSerial(12)
	xs := make([]int, 3000)
	for j := range jobs {
		switch j % 4 {
		case 0, 1:
			if got := core.RunValue(pool, func(w *core.Worker) int {
				return fibPanic(w, fibArg{n: 12, target: ^uint64(0)})
			}); got != want {
				t.Fatalf("job %d after the fault: fib(12) = %d, want %d", j, got, want)
			}
		case 2:
			var sum atomic.Int64
			par.For(0, 200, func(i int) { sum.Add(int64(i)) }, par.WithPool(pool), par.Simple(7))
			if sum.Load() != 199*200/2 {
				t.Fatalf("job %d after the fault: par.For sum %d", j, sum.Load())
			}
		case 3:
			for i := range xs {
				xs[i] = (i * 7919) % len(xs)
			}
			sortpar.SortFunc(xs, cmp.Compare[int], par.WithPool(pool), par.Grain(64))
			for i := range xs {
				if xs[i] != i {
					t.Fatalf("job %d after the fault: sort gave %d at %d", j, xs[i], i)
				}
			}
		}
	}
}

func healthyJobs() int {
	if raceEnabled || emulated {
		return 200
	}
	return 1000
}

// TestPanicLevels panics at every level a task can run at and checks that the
// caller gets the value, that the pool then runs 1000 more jobs correctly,
// and (when the test ends) that no goroutine is left behind.
func TestPanicLevels(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) }) // runs after the pools close
	pools := newPools(t, []int{1, 2, 4, 8})
	type fault struct {
		name string
		run  func(pool *core.Pool, seed uint64) (want any, raw any)
	}
	faults := []fault{
		{"root", func(pool *core.Pool, _ uint64) (any, any) {
			want := boom{"root", 0}
			return want, catch(func() { core.RunValue(pool, func(*core.Worker) int { panic(want) }) })
		}},
		{"leaf of a deep Join tree", func(pool *core.Pool, seed uint64) (any, any) {
			path, depth := leafPath(18, seed)
			return boom{"leaf", depth}, catch(func() {
				core.RunValue(pool, func(w *core.Worker) int {
					return fibPanic(w, fibArg{n: 18, target: path, where: "leaf"})
				})
			})
		}},
		{"both halves of a Join", func(pool *core.Pool, _ uint64) (any, any) {
			raw := catch(func() {
				core.RunValue(pool, func(w *core.Worker) int {
					a, b := core.Join(w,
						func(*core.Worker, int) int { panic(boom{"both", 0}) }, 0,
						func(*core.Worker, int) int { panic(boom{"both", 0}) }, 0)
					return a + b
				})
			})
			return boom{"both", 0}, raw
		}},
		{"Invoke", func(pool *core.Pool, seed uint64) (any, any) {
			k := int(seed % 4)
			return boom{"invoke", k}, catch(func() {
				core.RunValue(pool, func(w *core.Worker) int {
					fns := make([]func(*core.Worker), 4)
					for i := range fns {
						fns[i] = func(w *core.Worker) {
							if i == k {
								panic(boom{"invoke", i})
							}
							fibPanic(w, fibArg{n: 10, target: ^uint64(0)})
						}
					}
					core.Invoke(w, fns...)
					return 0
				})
			})
		}},
		{"par.For body", func(pool *core.Pool, seed uint64) (any, any) {
			k := int(seed % 5000)
			return boom{"for", k}, catch(func() {
				par.For(0, 5000, func(i int) {
					if i == k {
						panic(boom{"for", i})
					}
				}, par.WithPool(pool), par.Grain(4))
			})
		}},
		{"par.For nested in a Join", func(pool *core.Pool, seed uint64) (any, any) {
			k := int(seed % 300)
			return boom{"nested", k}, catch(func() {
				core.RunValue(pool, func(w *core.Worker) int {
					a, b := core.Join(w, fibPanic, fibArg{n: 14, target: ^uint64(0)},
						func(*core.Worker, int) int {
							par.For(0, 300, func(i int) {
								if i == k {
									panic(boom{"nested", i})
								}
							}, par.WithPool(pool), par.Simple(3))
							return 0
						}, 0)
					return a + b
				})
			})
		}},
		{"sortpar comparator", func(pool *core.Pool, seed uint64) (any, any) {
			rng := rand.New(rand.NewPCG(seed, 2))
			xs := make([]int, 20000)
			for i := range xs {
				xs[i] = rng.IntN(1 << 20)
			}
			orig := slices.Clone(xs)
			limit := int64(1 + rng.IntN(100000))
			var calls atomic.Int64
			raw := catch(func() {
				sortpar.SortFunc(xs, func(a, b int) int {
					if calls.Add(1) == limit {
						panic(boom{"cmp", int(limit)})
					}
					return cmp.Compare(a, b)
				}, par.WithPool(pool), par.Grain(32))
			})
			// The documented promise: the slice still holds its elements.
			slices.Sort(xs)
			slices.Sort(orig)
			if !slices.Equal(xs, orig) {
				return boom{"cmp", int(limit)}, "slice is no longer a permutation of its input after the comparator panicked"
			}
			return boom{"cmp", int(limit)}, raw
		}},
		{"reduce join", func(pool *core.Pool, seed uint64) (any, any) {
			k := 1 + int(seed%500)
			var joins atomic.Int64
			return boom{"join", k}, catch(func() {
				reduce.Reduce(0, 1000, 0, func(lo, hi, acc int) int {
					for i := lo; i < hi; i++ {
						acc += i
					}
					return acc
				}, func(x, y int) int {
					if joins.Add(1) == int64(k) {
						panic(boom{"join", k})
					}
					return x + y
				}, par.WithPool(pool), par.Simple(1)) // 999 joins for sure
			})
		}},
		{"reduce body", func(pool *core.Pool, seed uint64) (any, any) {
			k := int(seed % 1000)
			return boom{"body", k}, catch(func() {
				reduce.Reduce(0, 1000, 0, func(lo, hi, acc int) int {
					for i := lo; i < hi; i++ {
						if i == k {
							panic(boom{"body", i})
						}
						acc += i
					}
					return acc
				}, func(x, y int) int { return x + y }, par.WithPool(pool), par.Grain(2))
			})
		}},
	}
	seeds := 8
	if raceEnabled || testing.Short() {
		seeds = 3
	}
	for _, f := range faults {
		for _, pool := range pools {
			name := fmt.Sprintf("%s/p=%d", f.name, pool.Workers())
			for s := range uint64(seeds) {
				want, raw := f.run(pool, s*0x9E3779B97F4A7C15+uint64(pool.Workers()))
				if msg, ok := raw.(string); ok {
					t.Errorf("%s: %s", name, msg)
					continue
				}
				checkPanic(t, name, raw, want)
			}
			checkHealthy(t, pool, healthyJobs())
		}
	}
}

// TestForCtxCancel cancels a context from inside a chunk of a loop and checks
// par's promise: once a worker can see the cancellation, it starts no more
// chunks. A worker may have checked the context just before cancel ran and
// start one more chunk; it cannot start two. The loop reports the
// cancellation exactly when it skipped some index.
func TestForCtxCancel(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	pools := newPools(t, []int{1, 2, 4, 8, 16})
	const n = 20000
	rounds := 10
	if raceEnabled {
		rounds = 3
	}
	parts := []struct {
		name string
		opt  par.Option
	}{{"auto", par.Grain(8)}, {"simple", par.Simple(8)}, {"static", par.Static()}}
	for _, pool := range pools {
		for _, part := range parts {
			for round := range rounds {
				cancelAt := (round*7919 + pool.Workers()*104729) % n
				name := fmt.Sprintf("p=%d/%s/cancel-at=%d", pool.Workers(), part.name, cancelAt)
				ctx, cancel := context.WithCancel(context.Background())
				visits := make([]atomic.Int32, n)
				// Keyed by worker ID: a spare the governor starts for a stall,
				// or a new guest record for the caller, has an ID beyond the
				// pool's MaxWorkerID before the loop.
				var lateMu sync.Mutex
				late := map[int]int{}
				err := par.ForRangeCtx(ctx, 0, n, func(lo, hi int) {
					id := core.RunValue(pool, func(w *core.Worker) int { return w.ID() })
					if ctx.Err() != nil {
						lateMu.Lock()
						late[id]++
						lateMu.Unlock()
					}
					for i := lo; i < hi; i++ {
						visits[i].Add(1)
						if i == cancelAt {
							cancel()
						}
					}
				}, par.WithPool(pool), part.opt)
				skipped := 0
				for i := range visits {
					switch v := visits[i].Load(); v {
					case 0:
						skipped++
					case 1:
					default:
						t.Fatalf("%s: index %d visited %d times", name, i, v)
					}
				}
				for id, c := range late {
					if c > 1 {
						t.Errorf("%s: worker %d started %d chunks after it could see the cancellation (at most 1)", name, id, c)
					}
				}
				if (err != nil) != (skipped > 0) {
					t.Errorf("%s: ForRangeCtx returned %v with %d indices skipped", name, err, skipped)
				}
				if err != nil && err != context.Canceled {
					t.Errorf("%s: ForRangeCtx returned %v, want context.Canceled", name, err)
				}
				cancel()
			}
		}
		checkHealthy(t, pool, healthyJobs()/10)
	}

	// Done on entry: body never runs.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := par.ForCtx(ctx, 0, 100, func(int) { t.Errorf("body ran on a cancelled context") }); err != context.Canceled {
		t.Errorf("ForCtx on a cancelled context returned %v", err)
	}
}

// TestForCtxCancelNested cancels a loop that runs inside a task of the pool
// (the loop runs on the current worker) while its sibling keeps working.
func TestForCtxCancelNested(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	pools := newPools(t, []int{2, 8})
	for _, pool := range pools {
		ctx, cancel := context.WithCancel(context.Background())
		var ran atomic.Int64
		res := core.RunValue(pool, func(w *core.Worker) fibErr {
			f, err := core.Join(w, fibPanic, fibArg{n: 16, target: ^uint64(0)},
				func(*core.Worker, int) error {
					return par.ForCtx(ctx, 0, 100000, func(i int) {
						if ran.Add(1) == 1000 {
							cancel()
						}
					}, par.WithPool(pool), par.Grain(16))
				}, 0)
			return fibErr{f, err}
		})
		if res.err != context.Canceled {
			t.Errorf("p=%d: nested ForCtx returned %v, want context.Canceled", pool.Workers(), res.err)
		}
		fib := res.fib
		if fib != fibSerial(16) {
			t.Errorf("p=%d: fib(16) beside a cancelled loop = %d", pool.Workers(), fib)
		}
		if ran.Load() >= 100000 {
			t.Errorf("p=%d: the cancelled loop ran every index", pool.Workers())
		}
		cancel()
	}
}

type fibErr struct {
	fib int
	err error
}

// TestPanicValues checks the odd panic values: panic(nil) arrives as a
// *runtime.PanicNilError, and an error value stays reachable through the
// wrapper with errors.Is and errors.As.
func TestPanicValues(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	pool := newPools(t, []int{2})[0]
	raw := catch(func() {
		core.RunValue(pool, func(w *core.Worker) int {
			a, b := core.Join(w, fibPanic, fibArg{n: 12, target: ^uint64(0)},
				func(*core.Worker, int) int { panic(nil) }, 0)
			return a + b
		})
	})
	if _, ok := Unwrap(raw).(*runtime.PanicNilError); !ok {
		t.Errorf("panic(nil) in a task reached the caller as %T %v, want *runtime.PanicNilError", Unwrap(raw), raw)
	}
	sentinel := errors.New("forktest: sentinel")
	raw = catch(func() {
		par.For(0, 100, func(i int) {
			if i == 57 {
				panic(fmt.Errorf("index %d: %w", i, sentinel))
			}
		}, par.WithPool(pool), par.Simple(1))
	})
	err, ok := raw.(error)
	if !ok || !errors.Is(err, sentinel) {
		t.Errorf("an error panic reached the caller as %T %v; errors.Is(sentinel) must see through the wrapper", raw, raw)
	}
	checkHealthy(t, pool, 100)
}

// TestGoexitInTask calls runtime.Goexit inside a task, as t.FailNow or
// t.Fatal inside a loop body do. The caller of Run must not wait forever, and
// the pool must still run the next job.
func TestGoexitInTask(t *testing.T) {
	pool := core.New(core.WithWorkers(1))
	defer pool.Close()
	first := make(chan any, 1)
	go func() {
		defer func() { first <- recover() }()
		core.RunValue(pool, func(w *core.Worker) int { runtime.Goexit(); return 0 })
	}()
	select {
	case v := <-first:
		t.Logf("Run after Goexit in its task: %v", v)
	case <-time.After(10 * time.Second): // a hang detector, not synchronisation
		t.Fatalf("Run still blocked 10 s after its task called runtime.Goexit")
	}
	next := make(chan int, 1)
	go func() { next <- core.RunValue(pool, func(*core.Worker) int { return 7 }) }()
	select {
	case v := <-next:
		if v != 7 {
			t.Errorf("next Run = %d", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the one-worker pool runs nothing after a task called runtime.Goexit")
	}
}
