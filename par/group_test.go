package par_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
)

// The behaviours golang.org/x/sync/errgroup's own tests check, on every
// pool size, plus what is gofork's own: panics, nesting, Go from inside a
// task.

func TestGroupZero(t *testing.T) {
	err1, err2 := errors.New("errgroup_test: 1"), errors.New("errgroup_test: 2")
	for _, tc := range []struct {
		errs []error
		want error
	}{
		{errs: []error{}},
		{errs: []error{nil}},
		{errs: []error{err1}, want: err1},
		{errs: []error{err1, nil}, want: err1},
		{errs: []error{err1, nil, err2}, want: err1},
	} {
		var g par.Group
		var firstErr error
		for i, err := range tc.errs {
			g.Go(func() error { return err })
			if firstErr == nil && err != nil {
				firstErr = err
			}
			if gErr := g.Wait(); gErr != firstErr {
				t.Errorf("after Group.Go(func() error { return err }) for err in %v\n"+
					"g.Wait() = %v; want %v", tc.errs[:i+1], err, firstErr)
			}
		}
	}
}

func TestGroupWithContext(t *testing.T) {
	errDoom := errors.New("group_test: doomed")
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, tc := range []struct {
			errs []error
			want error
		}{
			{want: nil},
			{errs: []error{nil}, want: nil},
			{errs: []error{errDoom}, want: errDoom},
			{errs: []error{errDoom, nil}, want: errDoom},
		} {
			g, ctx := par.WithContext(context.Background(), par.WithPool(p))
			for _, err := range tc.errs {
				g.Go(func() error { return err })
			}
			if err := g.Wait(); err != tc.want {
				t.Errorf("Wait() = %v, want %v", err, tc.want)
			}
			if !canceled(ctx) {
				t.Errorf("after Wait returned, ctx.Err() = %v; want it cancelled", ctx.Err())
			}
			if tc.want != nil && !errors.Is(context.Cause(ctx), tc.want) {
				t.Errorf("the context's cause is %v, want %v", context.Cause(ctx), tc.want)
			}
		}
	})
}

func canceled(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

// TestGroupFirstErrorCancels: the first error cancels the context while
// the other functions still run, which see it and stop.
func TestGroupFirstErrorCancels(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		g, ctx := par.WithContext(context.Background(), par.WithPool(p))
		first := errors.New("first")
		var stopped atomic.Int64
		for i := range 20 {
			g.Go(func() error {
				if i == 0 {
					return first
				}
				select {
				case <-ctx.Done():
					stopped.Add(1)
					return ctx.Err()
				case <-time.After(20 * time.Second): // a hang becomes a failure
					return nil
				}
			})
		}
		if err := g.Wait(); err != first {
			t.Fatalf("Wait() = %v, want the first error", err)
		}
		if stopped.Load() != 19 {
			t.Fatalf("%d of 19 functions saw the cancellation", stopped.Load())
		}
	})
}

func TestGroupLimit(t *testing.T) {
	const limit = 3
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, inside := range []bool{false, true} {
			g := par.NewGroup(par.WithPool(p))
			g.SetLimit(limit)
			var active, most int32
			var ran atomic.Int64
			fork := func() {
				for range 200 {
					g.Go(func() error {
						n := atomic.AddInt32(&active, 1)
						for m := atomic.LoadInt32(&most); n > m && !atomic.CompareAndSwapInt32(&most, m, n); m = atomic.LoadInt32(&most) {
						}
						time.Sleep(20 * time.Microsecond)
						atomic.AddInt32(&active, -1)
						ran.Add(1)
						return nil
					})
				}
				if err := g.Wait(); err != nil {
					t.Error(err)
				}
			}
			if inside {
				core.RunValue(p, func(*core.Worker) int { fork(); return 0 })
			} else {
				fork()
			}
			if most > limit || ran.Load() != 200 {
				t.Fatalf("inside=%v: %d of 200 ran, at most %d at once with a limit of %d", inside, ran.Load(), most, limit)
			}
		}
	})
}

func TestGroupTryGo(t *testing.T) {
	var g par.Group
	g.SetLimit(2)
	release := make(chan struct{})
	var running sync.WaitGroup
	running.Add(2)
	for range 2 {
		if !g.TryGo(func() error { running.Done(); <-release; return nil }) {
			t.Fatal("TryGo refused below the limit")
		}
	}
	running.Wait()
	if g.TryGo(func() error { return nil }) {
		t.Fatal("TryGo forked a third function with a limit of 2")
	}
	close(release)
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if !g.TryGo(func() error { return nil }) {
		t.Fatal("TryGo refused after the group drained")
	}
	g.Wait()
	g.SetLimit(-1) // no limit: allowed once nothing runs
	expectPanic(t, "nil function", func() { g.Go(nil) })
	expectPanic(t, "nil function", func() { g.TryGo(nil) })
}

// TestGroupReuse: Go after Wait starts a new round; the first error stays.
func TestGroupReuse(t *testing.T) {
	var g par.Group
	var n atomic.Int64
	for round := range 5 {
		for range 10 {
			g.Go(func() error { n.Add(1); return nil })
		}
		if err := g.Wait(); err != nil || n.Load() != int64(10*(round+1)) {
			t.Fatalf("round %d: Wait() = %v after %d functions", round, err, n.Load())
		}
	}
	boom := errors.New("boom")
	g.Go(func() error { return boom })
	g.Wait()
	g.Go(func() error { return nil })
	if err := g.Wait(); err != boom {
		t.Fatalf("a later round returned %v, want the group's first error", err)
	}
}

// TestGroupPanic: a panicking function does not crash the program; the
// others finish, Wait panics with a *core.PanicError, and the context is
// cancelled.
func TestGroupPanic(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		g, ctx := par.WithContext(context.Background(), par.WithPool(p))
		var ran atomic.Int64
		for i := range 50 {
			g.Go(func() error {
				ran.Add(1)
				if i == 17 {
					panic("function 17")
				}
				return nil
			})
		}
		var v any
		func() {
			defer func() { v = recover() }()
			g.Wait()
		}()
		pe, ok := v.(*core.PanicError)
		if !ok || pe.Value != "function 17" {
			t.Fatalf("Wait panicked with %v, want a *core.PanicError of \"function 17\"", v)
		}
		if ran.Load() != 50 || !canceled(ctx) {
			t.Fatalf("%d of 50 functions ran, context cancelled %v", ran.Load(), canceled(ctx))
		}
	})
}

// TestGroupNested: groups inside group functions, a group inside par.For
// and par.For inside a group, all on one pool: every function once.
func TestGroupNested(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		var leaves atomic.Int64
		outer := par.NewGroup(par.WithPool(p))
		for range 8 {
			outer.Go(func() error {
				inner := par.NewGroup(par.WithPool(p))
				for range 8 {
					inner.Go(func() error {
						par.For(0, 10, func(int) { leaves.Add(1) }, par.WithPool(p))
						return nil
					})
				}
				return inner.Wait()
			})
		}
		par.For(0, 16, func(int) {
			g := par.NewGroup(par.WithPool(p))
			for range 4 {
				g.Go(func() error { leaves.Add(1); return nil })
			}
			g.Wait()
		}, par.WithPool(p))
		if err := outer.Wait(); err != nil {
			t.Fatal(err)
		}
		if got := leaves.Load(); got != 8*8*10+16*4 {
			t.Fatalf("%d leaves ran, want %d", got, 8*8*10+16*4)
		}
	})
}

// TestGroupManyTiny runs 10^6 (10^5 with -short or -race) tiny functions
// through one group, from one task and from 100 goroutines outside.
func TestGroupManyTiny(t *testing.T) {
	n := 1_000_000
	if testing.Short() || raceEnabled {
		n = 100_000
	}
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()
	var ran atomic.Int64
	inc := func() error { ran.Add(1); return nil }
	g := par.NewGroup(par.WithPool(pool))
	core.RunValue(pool, func(*core.Worker) int {
		for range n {
			g.Go(inc)
		}
		g.Wait()
		return 0
	})
	if ran.Load() != int64(n) {
		t.Fatalf("from a task: %d of %d ran", ran.Load(), n)
	}
	ran.Store(0)
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n / 100 {
				g.Go(inc)
			}
		}()
	}
	wg.Wait()
	if err := g.Wait(); err != nil || ran.Load() != int64(n) {
		t.Fatalf("from outside: %d of %d ran (%v)", ran.Load(), n, err)
	}
}

// TestGroupGoFromTaskAllocs: Go from inside a task allocates nothing in
// steady state (the function value is made once here).
func TestGroupGoFromTaskAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	pool := core.New(core.WithWorkers(1), core.WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer pool.Close()
	g := par.NewGroup(par.WithPool(pool))
	var n atomic.Int64
	inc := func() error { n.Add(1); return nil }
	run := func() {
		core.RunValue(pool, func(*core.Worker) int {
			for range 1000 {
				g.Go(inc)
			}
			g.Wait()
			return 0
		})
	}
	run()
	if a := testing.AllocsPerRun(10, run); a > 2 {
		t.Fatalf("1000 Go calls and a Wait from a task allocated %.1f times", a)
	}
}

func ExampleGroup() {
	// Sum the squares of 1..100 with one function per number, as one would
	// with errgroup.Group, on gofork's pool instead of goroutines.
	var g par.Group
	var sum atomic.Int64
	for i := 1; i <= 100; i++ {
		g.Go(func() error {
			sum.Add(int64(i * i))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(sum.Load())
	// Output: 338350
}

func ExampleWithContext() {
	// The first error cancels the group's context; the other functions
	// see it and stop early; Wait returns that first error.
	g, ctx := par.WithContext(context.Background())
	for i := range 10 {
		g.Go(func() error {
			if i == 3 {
				return fmt.Errorf("item %d is broken", i)
			}
			<-ctx.Done() // stands in for work that watches ctx
			return ctx.Err()
		})
	}
	fmt.Println(g.Wait())
	// Output: item 3 is broken
}

// expectPanic checks that fn panics with a value whose text contains want.
func expectPanic(t *testing.T, want string, fn func()) {
	t.Helper()
	v := catch(fn)
	if s := fmt.Sprint(v); v == nil || !strings.Contains(s, want) {
		t.Fatalf("panic %v, want one containing %q", v, want)
	}
}
