package par_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
	"golang.org/x/exp/constraints"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
)

func TestMain(m *testing.M) {
	// The Default pool, once started by an example, lives for the whole
	// process by design.
	goleak.VerifyTestMain(m, pooltest.IgnoreDefault()...)
}

// partitioners returns a fresh set of named partitioner options (Affinity
// gets a new state each time).
func partitioners() []struct {
	name string
	opt  par.Option
} {
	return []struct {
		name string
		opt  par.Option
	}{
		{"auto", par.Auto()},
		{"auto-grain5", par.Grain(5)},
		{"static", par.Static()},
		{"simple1", par.Simple(1)},
		{"simple7", par.Simple(7)},
		{"affinity", par.Affinity(new(par.AffinityState))},
	}
}

// checkFor runs For, ForRange and ForCtx over [lo, hi) and checks that each
// index is visited exactly once and nothing outside the range is.
func checkFor[I constraints.Integer](t *testing.T, lo, hi I, opts ...par.Option) {
	t.Helper()
	n := 0
	if hi > lo {
		n = int(uint64(hi) - uint64(lo))
	}
	seen := make([]atomic.Int32, n)
	visit := func(i I) {
		if i < lo || i >= hi {
			t.Errorf("index %v outside [%v, %v)", i, lo, hi)
			return
		}
		seen[uint64(i)-uint64(lo)].Add(1)
	}
	check := func(form string, want int32) {
		t.Helper()
		for k := range seen {
			if got := seen[k].Load(); got != want {
				t.Fatalf("%s [%v, %v): index %v visited %d times, want %d", form, lo, hi, lo+I(k), got, want)
			}
		}
	}
	par.For(lo, hi, visit, opts...)
	check("For", 1)
	par.ForRange(lo, hi, func(a, b I) {
		if a >= b {
			t.Errorf("ForRange: empty or inverted subrange [%v, %v)", a, b)
		}
		for i := a; i < b; i++ {
			visit(i)
		}
	}, opts...)
	check("ForRange", 2)
	if err := par.ForCtx(context.Background(), lo, hi, visit, opts...); err != nil {
		t.Fatalf("ForCtx: %v", err)
	}
	check("ForCtx", 3)
}

func TestForExactlyOnce(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			t.Run(pt.name, func(t *testing.T) {
				opts := []par.Option{pt.opt, par.WithPool(p)}
				for _, r := range [][2]int{
					{0, 0}, {0, 1}, {5, 3}, {0, 2}, {0, 3}, {0, 97}, {0, 1023}, {0, 1024},
					{0, 1025}, {-50, 50}, {-1, 0}, {-4097, -3}, {0, 4099},
				} {
					checkFor(t, r[0], r[1], opts...)
				}
				checkFor(t, uint8(200), uint8(255), opts...)
				checkFor(t, uint8(0), uint8(255), opts...)
				checkFor(t, int8(-128), int8(127), opts...)
				checkFor(t, uint16(65000), uint16(65535), opts...)
				checkFor(t, uint64(math.MaxUint64-300), uint64(math.MaxUint64), opts...)
				checkFor(t, int64(math.MaxInt64-101), int64(math.MaxInt64), opts...)
				checkFor(t, int64(math.MinInt64), int64(math.MinInt64+37), opts...)
				checkFor(t, int32(-7), int32(8), opts...)
				checkFor(t, uintptr(10), uintptr(77), opts...)
			})
		}
	})
}

// checkTiling checks that the subranges ForRange hands out tile [lo, hi)
// exactly, for ranges too long to visit index by index.
func checkTiling[I constraints.Integer](t *testing.T, lo, hi I, opts ...par.Option) {
	t.Helper()
	var mu sync.Mutex
	var got [][2]I
	par.ForRange(lo, hi, func(a, b I) {
		mu.Lock()
		got = append(got, [2]I{a, b})
		mu.Unlock()
	}, opts...)
	slices.SortFunc(got, func(x, y [2]I) int {
		if x[0] < y[0] {
			return -1
		}
		if x[0] > y[0] {
			return 1
		}
		return 0
	})
	next := lo
	for _, r := range got {
		if r[0] != next || r[1] <= r[0] {
			t.Fatalf("[%v, %v): subranges %v do not tile the range", lo, hi, got)
		}
		next = r[1]
	}
	if next != hi {
		t.Fatalf("[%v, %v): subranges %v end at %v", lo, hi, got, next)
	}
}

func TestForRangeFullTypeRange(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		// The grains are sized to int, so that they cut a full int or uint
		// range into at most 16 chunks on every platform.
		for _, pt := range []struct {
			opt par.Option
			// wide: the option cuts a 64-bit range into a bounded number of
			// chunks. Simple's grain is an int, so where int has 32 bits it
			// cuts a 64-bit range into at least 2^33 chunks, more than
			// memory holds.
			wide bool
		}{
			{par.Static(), true},
			{par.Grain(math.MaxInt >> 5), true},
			{par.Simple(math.MaxInt >> 3), strconv.IntSize == 64},
			{par.Affinity(new(par.AffinityState)), true},
		} {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			checkTiling(t, math.MinInt, math.MaxInt, opts...)
			checkTiling(t, uint(0), uint(math.MaxUint), opts...)
			checkTiling(t, uint(1), uint(math.MaxUint), opts...)
			checkTiling(t, math.MinInt>>1, math.MaxInt>>1+3, opts...)
			if pt.wide {
				checkTiling(t, int64(math.MinInt64), int64(math.MaxInt64), opts...)
				checkTiling(t, uint64(0), uint64(math.MaxUint64), opts...)
				checkTiling(t, uint64(1), uint64(math.MaxUint64), opts...)
				checkTiling(t, int64(-1<<62), int64(1<<62+3), opts...)
			}
		}
	})
}

func TestSimpleChunkBound(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, g := range []int{1, 3, 8, 100} {
			var chunks atomic.Int64
			par.ForRange(0, 1000, func(a, b int) {
				if b-a > g {
					t.Errorf("Simple(%d): chunk [%d, %d) is longer than the grain", g, a, b)
				}
				chunks.Add(1)
			}, par.Simple(g), par.WithPool(p))
			if min := int64((1000 + g - 1) / g); chunks.Load() < min {
				t.Errorf("Simple(%d): %d chunks, want at least %d", g, chunks.Load(), min)
			}
		}
	})
}

func TestGrainBound(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, g := range []int{1, 10, 333, 5000} {
			for _, opt := range []par.Option{par.Auto(), par.Affinity(new(par.AffinityState))} {
				par.ForRange(0, 10000, func(a, b int) {
					if b-a < g && !(a == 0 && b == 10000) {
						t.Errorf("Grain(%d): chunk [%d, %d) is shorter than the grain", g, a, b)
					}
				}, opt, par.Grain(g), par.WithPool(p))
			}
		}
	})
}

func TestStaticOneChunkPerWorker(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, n := range []int{1, 3, 1000} {
			var chunks atomic.Int64
			par.ForRange(0, n, func(a, b int) { chunks.Add(1) }, par.Static(), par.WithPool(p))
			if want := int64(min(n, p.Workers())); chunks.Load() != want {
				t.Errorf("n=%d: %d chunks, want %d", n, chunks.Load(), want)
			}
		}
	})
}

func TestAffinityRecord(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		var a par.AffinityState
		if h, c := a.Hits(); h != 0 || c != 0 {
			t.Fatalf("zero state: Hits() = %d, %d", h, c)
		}
		for call := range 5 {
			checkFor(t, 0, 1000, par.Affinity(&a), par.WithPool(p))
			owners := a.Owners()
			if want := 8 * p.Workers(); len(owners) != want {
				t.Fatalf("call %d: %d chunks, want %d", call, len(owners), want)
			}
			for c, w := range owners {
				if w < 0 || w >= p.MaxWorkerID() { // a guest (the caller's goroutine) has an ID beyond the regular workers'
					t.Fatalf("call %d: chunk %d has owner %d", call, c, w)
				}
			}
			if h, c := a.Hits(); c != len(owners) || h < 0 || h > c {
				t.Fatalf("call %d: Hits() = %d, %d", call, h, c)
			}
		}
		if p.Workers() == 1 {
			// One worker runs everything, so the second call on replays it all.
			if h, c := a.Hits(); h != c {
				t.Errorf("one worker: Hits() = %d, %d, want all", h, c)
			}
		}
		// A different length resets the record.
		checkFor(t, 0, 10, par.Affinity(&a), par.WithPool(p))
		checkFor(t, 0, 10, par.Affinity(&a), par.WithPool(p))
		if want := min(10, 8*p.Workers()); len(a.Owners()) != want {
			t.Errorf("after a reset to n=10: %d chunks, want %d", len(a.Owners()), want)
		}
	})
}

func TestNestedFor(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			const outer, inner = 37, 53
			var seen [outer * inner]atomic.Int32
			par.For(0, outer, func(i int) {
				par.For(0, inner, func(j int) { seen[i*inner+j].Add(1) }, par.Simple(4), par.WithPool(p))
			}, pt.opt, par.WithPool(p))
			for k := range seen {
				if seen[k].Load() != 1 {
					t.Fatalf("%s: (%d, %d) visited %d times", pt.name, k/inner, k%inner, seen[k].Load())
				}
			}
		}
	})
}

func TestForEachAndMap(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, n := range []int{0, 1, 2, 1001} {
			s := make([]int, n)
			for i := range s {
				s[i] = i
			}
			got := par.Map(s, func(v int) string { return fmt.Sprint(v * 2) }, par.WithPool(p))
			if len(got) != n {
				t.Fatalf("Map: len %d, want %d", len(got), n)
			}
			for i, v := range got {
				if v != fmt.Sprint(i*2) {
					t.Fatalf("Map[%d] = %q", i, v)
				}
			}
			par.ForEach(s, func(i int, e *int) { *e += i }, par.WithPool(p))
			for i, v := range s {
				if v != 2*i {
					t.Fatalf("ForEach: s[%d] = %d, want %d", i, v, 2*i)
				}
			}
		}
	})
}

// TestInvokePanicRunsTheRest checks Invoke's promise on panics: every
// function that does not panic still runs, exactly once, before Invoke
// panics, and the panic raised is the first one in the order of fns. On one
// worker a panicking half used to drop the half no thief had taken.
func TestInvokePanicRunsTheRest(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, k := range []int{2, 3, 4, 17} {
			for _, bad := range [][]int{{0}, {1}, {k - 1}, {1, k - 1}, {0, k / 2, k - 1}} {
				var ran [17]atomic.Int32
				isBad := make([]bool, k)
				for _, b := range bad {
					isBad[b] = true
				}
				fns := make([]func(), k)
				for i := range fns {
					fns[i] = func() {
						ran[i].Add(1)
						if isBad[i] {
							panic(i)
						}
					}
				}
				v := catch(func() { core.RunValue(p, func(*core.Worker) int { par.Invoke(fns...); return 0 }) })
				if v != bad[0] {
					t.Errorf("k=%d bad=%v: recovered %v, want the panic of fn %d", k, bad, v, bad[0])
				}
				for i := range k {
					if ran[i].Load() != 1 {
						t.Errorf("k=%d bad=%v: fn %d ran %d times, want once", k, bad, i, ran[i].Load())
					}
				}
			}
		}
		// Inside a task, and with a nested loop's panic: the loop's
		// *core.PanicError is raised, not wrapped in another.
		var others atomic.Int32
		v := catch(func() {
			core.RunValue(p, func(*core.Worker) int {
				par.Invoke(
					func() { others.Add(1) },
					func() { par.For(0, 100, func(i int) { panic("nested") }, par.WithPool(p)) },
					func() { others.Add(1) })
				return 0
			})
		})
		if v != "nested" || others.Load() != 2 {
			t.Errorf("nested: recovered %v with %d of 2 others run", v, others.Load())
		}
	})
	expectPanic(t, "nil function at index 1", func() { par.Invoke(func() {}, nil) })
}

func TestInvoke(t *testing.T) {
	for _, k := range []int{0, 1, 2, 3, 17} {
		var ran [17]atomic.Int32
		fns := make([]func(), k)
		for i := range fns {
			fns[i] = func() { ran[i].Add(1) }
		}
		par.Invoke(fns...)
		for i := range ran {
			want := int32(0)
			if i < k {
				want = 1
			}
			if ran[i].Load() != want {
				t.Fatalf("k=%d: fn %d ran %d times", k, i, ran[i].Load())
			}
		}
	}
}

// panicValue returns the value of a recovered panic, unwrapping a core
// wrapper that carries it in a Value field (*core.PanicError) or behind Unwrap.
func panicValue(r any) any {
	for r != nil {
		v := reflect.ValueOf(r)
		if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			if f := v.Elem().FieldByName("Value"); f.IsValid() && f.CanInterface() {
				r = f.Interface()
				continue
			}
		}
		if u, ok := r.(interface{ Unwrap() error }); ok && u.Unwrap() != nil {
			r = u.Unwrap()
			continue
		}
		return r
	}
	return nil
}

// catch runs f and returns the value it panicked with, or nil.
func catch(f func()) (v any) {
	defer func() { v = panicValue(recover()) }()
	f()
	return nil
}

func TestForPanic(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			const n, bad = 500, 123
			var after atomic.Int32
			var panicked atomic.Bool
			v := catch(func() {
				par.For(0, n, func(i int) {
					if panicked.Load() {
						after.Add(1)
					}
					if i == bad {
						panicked.Store(true)
						panic("boom 123")
					}
				}, pt.opt, par.Simple(1), par.WithPool(p))
			})
			if v != "boom 123" {
				t.Fatalf("%s: recovered %v, want the body's panic", pt.name, v)
			}
			// With one worker, no chunk may start after the panic; with more,
			// only chunks that had started may still run, and far fewer than all.
			if p.Workers() == 1 && after.Load() != 0 {
				t.Errorf("%s: %d chunks ran after the panic", pt.name, after.Load())
			}
			if after.Load() >= n-1 {
				t.Errorf("%s: the loop went on after the panic (%d calls)", pt.name, after.Load())
			}
		}
		if v := catch(func() { par.Invoke(func() {}, func() { panic("inv") }) }); v != "inv" {
			t.Errorf("Invoke: recovered %v", v)
		}
	})
}

func TestForCtxCancel(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range []par.Option{par.Simple(1), par.Static(), par.Affinity(new(par.AffinityState))} {
			ctx, cancel := context.WithCancel(context.Background())
			const n, stop = 1000, 100
			var calls, after atomic.Int32
			err := par.ForCtx(ctx, 0, n, func(i int) {
				if ctx.Err() != nil {
					after.Add(1)
				}
				calls.Add(1)
				if i == stop {
					cancel()
				}
			}, pt, par.Simple(1), par.WithPool(p))
			// ForCtx returns the context's error exactly when it skipped an
			// index. With several workers every index may already have
			// started before the cancel is seen (then nil is right); with one
			// worker the cancel at index 100 must skip the rest.
			if skipped := calls.Load() < n; skipped != (err != nil) {
				t.Fatalf("ForCtx after cancel: err = %v with %d of %d indices run", err, calls.Load(), n)
			}
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Fatalf("ForCtx after cancel: err = %v, want context.Canceled", err)
			}
			if p.Workers() == 1 {
				if err == nil {
					t.Errorf("one worker: every index ran despite the cancel")
				}
				if after.Load() != 0 {
					t.Errorf("%d chunks started after the cancel was seen", after.Load())
				}
			}
			cancel()
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var calls atomic.Int32
		if err := par.ForRangeCtx(ctx, 0, 10, func(a, b int) { calls.Add(1) }, par.WithPool(p)); !errors.Is(err, context.Canceled) || calls.Load() != 0 {
			t.Errorf("ForRangeCtx on a done context: err = %v, %d calls", err, calls.Load())
		}
		if err := par.ForCtx(context.Background(), 0, 0, func(int) {}, par.WithPool(p)); err != nil {
			t.Errorf("ForCtx on an empty range: %v", err)
		}
	})
}

func TestOptionPanics(t *testing.T) {
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { par.Simple(0) }, "par: Simple(0)"},
		{func() { par.Simple(-3) }, "par: Simple(-3)"},
		{func() { par.Grain(-1) }, "par: Grain(-1)"},
		{func() { par.Grain(0) }, "par: Grain(0)"},
		{func() { par.Affinity(nil) }, "par: Affinity(nil)"},
		{func() { par.WithPool(nil) }, "par: WithPool(nil)"},
	} {
		v := catch(tc.f)
		if s, ok := v.(string); !ok || !strings.Contains(s, tc.want) {
			t.Errorf("panic %v, want one naming %q", v, tc.want)
		}
	}
}

func FuzzFor(f *testing.F) {
	f.Add(int64(-3), uint16(100), uint16(1), uint8(0), uint8(2))
	f.Add(int64(math.MaxInt64-50), uint16(50), uint16(7), uint8(3), uint8(3))
	f.Add(int64(math.MinInt64), uint16(999), uint16(0), uint8(2), uint8(1))
	pools := map[int]*core.Pool{}
	defer func() {
		for _, p := range pools {
			p.Close()
		}
	}()
	f.Fuzz(func(t *testing.T, lo int64, n, grain uint16, kind, workers uint8) {
		if lo > math.MaxInt64-int64(n) {
			t.Skip("range passes MaxInt64")
		}
		w := int(workers%8) + 1
		p := pools[w]
		if p == nil {
			p = core.New(core.WithWorkers(w))
			pools[w] = p
		}
		g := int(grain%64) + 1
		opt := []par.Option{par.Auto(), par.Static(), par.Simple(g), par.Affinity(new(par.AffinityState))}[kind%4]
		checkFor(t, lo, lo+int64(n), opt, par.Grain(g), par.WithPool(p))
	})
}

// TestAffinityStateInUse checks that a second loop given a state in use,
// nested in the first, panics with a clear message instead of corrupting
// the record, and that the state works again afterwards.
func TestAffinityStateInUse(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		a := new(par.AffinityState)
		v := catch(func() {
			par.For(0, 64, func(int) {
				par.For(0, 64, func(int) {}, par.Affinity(a), par.WithPool(p))
			}, par.Affinity(a), par.WithPool(p))
		})
		if s := fmt.Sprint(v); !strings.Contains(s, "AffinityState used by two loops at once") {
			t.Fatalf("nested loops on one AffinityState: panic %v", v)
		}
		var n atomic.Int32
		par.For(0, 1000, func(int) { n.Add(1) }, par.Affinity(a), par.WithPool(p))
		if n.Load() != 1000 {
			t.Fatalf("after the refused loop: %d of 1000 iterations", n.Load())
		}
	})
}
