package par_test

import (
	"bufio"
	"fmt"
	"iter"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
)

// count is the sequence 0, 1, ..., n-1 (n < 0: endless), counting the
// items pulled into pulled.
func count(n int, pulled *atomic.Int64) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; n < 0 || i < n; i++ {
			pulled.Add(1)
			if !yield(i) {
				return
			}
		}
	}
}

// streamSizes are the sequence lengths every stream test runs: empty, one,
// around the window, and large: 10^6 items on the 2-worker pool, 10^5 on
// the others (2*10^4 with -short or -race), to keep the suite quick.
func streamSizes(p *core.Pool, window int) []int {
	big := 100_000
	switch {
	case testing.Short() || raceEnabled:
		big = 20_000
	case p.Workers() == 2 && p.Policy() == core.WorkFirst:
		big = 1_000_000
	}
	return []int{0, 1, window - 1, window, window + 1, 3*window + 2, big}
}

// TestMapSeqOrderAndOnce: results come in input order, fn runs once per
// item, and no more than InFlight items are ever between pull and
// consumption.
func TestMapSeqOrderAndOnce(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		const window = 6
		for _, n := range streamSizes(p, window) {
			var pulled, consumed, calls atomic.Int64
			var most int64
			i := 0
			for r := range par.MapSeq(count(n, &pulled), func(x int) int { calls.Add(1); return 3*x + 1 },
				par.WithPool(p), par.InFlight(window)) {
				if r != 3*i+1 {
					t.Fatalf("n=%d: result %d is %d, want %d", n, i, r, 3*i+1)
				}
				most = max(most, pulled.Load()-consumed.Load())
				consumed.Add(1)
				i++
			}
			if i != n || calls.Load() != int64(n) {
				t.Fatalf("n=%d: %d results, %d calls", n, i, calls.Load())
			}
			if most > window {
				t.Fatalf("n=%d: %d items between pull and consumption, InFlight(%d)", n, most, window)
			}
		}
	})
}

// TestForEachSeqOnce: every item once, and no more than InFlight items
// between pull and the end of their call.
func TestForEachSeqOnce(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		const window = 5
		for _, n := range streamSizes(p, window) {
			var pulled, done atomic.Int64
			var most atomic.Int64
			seen := make([]atomic.Int32, max(n, 0))
			par.ForEachSeq(count(n, &pulled), func(x int) {
				live := pulled.Load() - done.Load()
				for m := most.Load(); live > m && !most.CompareAndSwap(m, live); m = most.Load() {
				}
				seen[x].Add(1)
				done.Add(1)
			}, par.WithPool(p), par.InFlight(window))
			for x := range seen {
				if c := seen[x].Load(); c != 1 {
					t.Fatalf("n=%d: item %d seen %d times", n, x, c)
				}
			}
			if most.Load() > window {
				t.Fatalf("n=%d: %d items between pull and finish, InFlight(%d)", n, most.Load(), window)
			}
		}
	})
}

// TestMapSeqEndless breaks out of an endless sequence after 10^5 results
// (10^4 with -short or -race): the live items never exceed the window, and
// the pulling stops.
func TestMapSeqEndless(t *testing.T) {
	stop := 100_000
	if testing.Short() || raceEnabled {
		stop = 10_000
	}
	for _, window := range []int{1, 8, 64} {
		var pulled, live, most atomic.Int64
		k := 0
		for r := range par.MapSeq(count(-1, &pulled), func(x int) int {
			v := live.Add(1)
			for m := most.Load(); v > m && !most.CompareAndSwap(m, v); m = most.Load() {
			}
			live.Add(-1)
			return x
		}, par.InFlight(window)) {
			if r != k {
				t.Fatalf("window %d: result %d is %d", window, k, r)
			}
			if k++; k == stop {
				break
			}
		}
		after := pulled.Load()
		time.Sleep(time.Millisecond)
		if pulled.Load() != after || after > int64(stop+window) {
			t.Fatalf("window %d: pulled %d items for %d consumed, still pulling: %v", window, after, stop, pulled.Load() != after)
		}
		if most.Load() > int64(window) {
			t.Fatalf("window %d: %d calls of fn at once", window, most.Load())
		}
	}
}

// TestStreamPanics: a panic in fn reaches the consumer as a
// *core.PanicError, one in seq as it is, and one in the loop body too;
// every call that started has returned by then, and the pool is fine.
func TestStreamPanics(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		var running atomic.Int64
		fn := func(x int) int {
			running.Add(1)
			defer running.Add(-1)
			if x == 40 {
				panic("fn 40")
			}
			time.Sleep(10 * time.Microsecond)
			return x
		}
		v := recovered(func() {
			for range par.MapSeq(count(100, new(atomic.Int64)), fn, par.WithPool(p), par.InFlight(8)) {
			}
		})
		if pe, ok := v.(*core.PanicError); !ok || pe.Value != "fn 40" {
			t.Fatalf("MapSeq: panicked with %v, want a *core.PanicError of fn 40", v)
		}
		v = recovered(func() {
			par.ForEachSeq(count(100, new(atomic.Int64)), func(x int) { fn(x) }, par.WithPool(p), par.InFlight(8))
		})
		if pe, ok := v.(*core.PanicError); !ok || pe.Value != "fn 40" {
			t.Fatalf("ForEachSeq: panicked with %v, want a *core.PanicError of fn 40", v)
		}
		badSeq := func(yield func(int) bool) {
			for i := range 100 {
				if i == 30 {
					panic("seq 30")
				}
				if !yield(i) {
					return
				}
			}
		}
		if v := recovered(func() {
			for range par.MapSeq(badSeq, func(x int) int { return fn(x + 100) }, par.WithPool(p)) {
			}
		}); v != "seq 30" {
			t.Fatalf("MapSeq over a panicking seq: %v", v)
		}
		if v := recovered(func() {
			par.ForEachSeq(badSeq, func(x int) { fn(x + 100) }, par.WithPool(p))
		}); v != "seq 30" {
			t.Fatalf("ForEachSeq over a panicking seq: %v", v)
		}
		if v := recovered(func() {
			for r := range par.MapSeq(count(100, new(atomic.Int64)), func(x int) int { return fn(x + 100) }, par.WithPool(p)) {
				if r == 120 {
					panic("body 120")
				}
			}
		}); v != "body 120" {
			t.Fatalf("a panicking loop body: %v", v)
		}
		if r := running.Load(); r != 0 {
			t.Fatalf("%d calls of fn still running after the panics reached the caller", r)
		}
	})
}

// TestMapSeqBreakRacesPanic breaks out of the loop while calls panic: the
// break wins or the panic does, nothing is left running.
func TestMapSeqBreakRacesPanic(t *testing.T) {
	pool := core.New(core.WithWorkers(4))
	defer pool.Close()
	for round := range 50 {
		var running atomic.Int64
		_ = recovered(func() {
			for r := range par.MapSeq(count(1000, new(atomic.Int64)), func(x int) int {
				running.Add(1)
				defer running.Add(-1)
				if x%7 == round%7 {
					panic(x)
				}
				return x
			}, par.WithPool(pool), par.InFlight(16)) {
				if r >= round {
					break
				}
			}
		})
		if n := running.Load(); n != 0 {
			t.Fatalf("round %d: %d calls still running", round, n)
		}
	}
}

// TestStreamBlockingSeq reads a sequence that blocks between items (a
// slow reader): the pool keeps computing on what it took.
func TestStreamBlockingSeq(t *testing.T) {
	slow := func(yield func(int) bool) {
		for i := range 50 {
			time.Sleep(100 * time.Microsecond)
			if !yield(i) {
				return
			}
		}
	}
	sum := 0
	for r := range par.MapSeq(slow, func(x int) int { return x * x }) {
		sum += r
	}
	if sum != 40425 { // 0² + ... + 49²
		t.Fatalf("sum %d", sum)
	}
	// From inside a task: the consumer is a worker, which helps while it waits.
	sum = int(core.RunValue(core.Default(), func(*core.Worker) int64 {
		var s int64
		for r := range par.MapSeq(slow, func(x int) int64 { return int64(x) }) {
			s += r
		}
		return s
	}))
	if sum != 1225 {
		t.Fatalf("from a task: sum %d", sum)
	}
}

// TestStreamBlockingSourceDelivers: a sequence that yields k items and
// then blocks (a reader waiting for the next request) has all k items
// computed, and with MapSeq all k results consumed, before it goes on: the
// test releases the sequence only once it has counted k. For every k from
// 1 to twice the window, with small windows, the default one, and the
// consumer inside a task. A hang fails after a generous timeout.
func TestStreamBlockingSourceDelivers(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		windows := []int{1, 3, 8, 0} // 0: the default window
		if testing.Short() || raceEnabled {
			windows = []int{1, 8, 0}
		}
		for _, window := range windows {
			opts := []par.Option{par.WithPool(p)}
			n := 64 * p.Workers() // the default
			if window > 0 {
				opts, n = append(opts, par.InFlight(window)), window
			}
			for k := 1; k <= 2*n; k++ {
				blocking := func(release chan struct{}) iter.Seq[int] {
					return func(yield func(int) bool) {
						for i := range k {
							if !yield(i) {
								return
							}
						}
						<-release // blocks until the test has counted k
					}
				}
				what := fmt.Sprintf("window %d, k=%d", window, k)
				release := make(chan struct{})
				got := 0
				withinOrFail(t, "MapSeq: "+what, 30*time.Second, func() {
					for r := range par.MapSeq(blocking(release), func(x int) int { return x + 1 }, opts...) {
						if r != got+1 {
							t.Errorf("MapSeq, %s: result %d is %d", what, got, r)
						}
						if got++; got == k {
							close(release)
						}
					}
				})
				if got != k {
					t.Fatalf("MapSeq, %s: %d results", what, got)
				}
				release = make(chan struct{})
				var calls atomic.Int64
				withinOrFail(t, "ForEachSeq: "+what, 30*time.Second, func() {
					par.ForEachSeq(blocking(release), func(int) {
						if calls.Add(1) == int64(k) {
							close(release)
						}
					}, opts...)
				})
				if calls.Load() != int64(k) {
					t.Fatalf("ForEachSeq, %s: %d calls", what, calls.Load())
				}
			}
			// From inside a task: the consumer is a worker of the pool.
			k := n + 1
			release := make(chan struct{})
			got := 0
			withinOrFail(t, fmt.Sprintf("MapSeq inside a task, window %d", window), 30*time.Second, func() {
				got = core.RunValue(p, func(*core.Worker) int {
					c := 0
					for range par.MapSeq(func(yield func(int) bool) {
						for i := range k {
							if !yield(i) {
								return
							}
						}
						<-release
					}, func(x int) int { return x }, opts...) {
						if c++; c == k {
							close(release)
						}
					}
					return c
				})
			})
			if got != k {
				t.Fatalf("MapSeq inside a task, window %d: %d results of %d", window, got, k)
			}
		}
	})
}

// withinOrFail runs f on a goroutine and fails the test if it has not
// returned after limit: a hang shows as a failure naming what hung, not as
// the whole binary's timeout.
func withinOrFail(t *testing.T, what string, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("%s: still running after %v", what, limit)
	}
}

// TestStreamSeqUsesPool pulls a sequence that runs par.For on the stream's
// own pool for each item. The pull blocks a worker inside the sequence (its
// coroutine waits for the par.For), and with GOMAXPROCS at 1 no spare
// stands in, so the par.For must be run by the other workers: a pump that
// finds the pull lock held must leave its worker free, not start another
// pump there.
func TestStreamSeqUsesPool(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, workers := range []int{1, 2, 4} {
		p := core.New(core.WithWorkers(workers))
		seq := func(yield func(int) bool) {
			for i := range 200 {
				var s atomic.Int64
				par.For(0, 16, func(j int) { s.Add(int64(j)) }, par.WithPool(p))
				if !yield(int(s.Load()) + i) {
					return
				}
			}
		}
		got := 0
		withinOrFail(t, fmt.Sprintf("p=%d: MapSeq over a sequence using par.For", workers), 30*time.Second, func() {
			for r := range par.MapSeq(seq, func(x int) int { return x }, par.WithPool(p)) {
				if r != 120+got {
					t.Errorf("p=%d: result %d = %d, want %d", workers, got, r, 120+got)
					return
				}
				got++
			}
		})
		if got != 200 {
			t.Errorf("p=%d: %d results, want 200", workers, got)
		}
		p.Close()
	}
}

// TestStreamLetsRootsIn keeps every worker of a pool pumping an endless
// stream, and submits a root to the same pool from another goroutine: the
// pumps must let it in at their poll point between batches (after the 200
// µs a root waits for a busy pool), not when the stream ends or a pump
// happens to stop. The measure is in items pulled before the root ran, a
// few dozen when the pumps poll: 20 000 (some 200 ms of work) is the bound.
// The stream ends only once the root has run.
func TestStreamLetsRootsIn(t *testing.T) {
	for _, workers := range []int{1, 2} {
		p := core.New(core.WithWorkers(workers))
		var ran atomic.Bool
		var items, before, at atomic.Int64
		go func() {
			time.Sleep(time.Millisecond) // let the stream take the workers
			before.Store(items.Load())
			core.RunValue(p, func(*core.Worker) int {
				at.Store(items.Load())
				ran.Store(true)
				return 0
			})
		}()
		work := func(x int) int { // ~10 µs
			for range 5000 {
				x = x*1103515245 + 12345
			}
			return x
		}
		withinOrFail(t, fmt.Sprintf("p=%d: a Run beside an endless stream", workers), 30*time.Second, func() {
			for range par.MapSeq(count(-1, &items), work, par.WithPool(p)) {
				if ran.Load() {
					break
				}
			}
		})
		if d := at.Load() - before.Load(); d > 20_000 {
			t.Errorf("p=%d: the root waited while %d items were pulled", workers, d)
		}
		p.Close()
	}
}

// TestMapSeqPanicTakesItsTurn: when fn panics on item k, the consumer still
// gets the results of items 0..k-1, in order, and then the panic, whatever
// the window and however the calls interleave: the calls after k are
// skipped, not those before it.
func TestMapSeqPanicTakesItsTurn(t *testing.T) {
	const n, k = 100, 40
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, window := range []int{1, 3, 16, 64} {
			for round := range 10 {
				got := 0
				v := recovered(func() {
					fn := func(x int) int {
						if x == k {
							panic("boom")
						}
						if x%7 == round%7 {
							time.Sleep(20 * time.Microsecond) // let later items pass it
						}
						return x
					}
					var pulled atomic.Int64
					for r := range par.MapSeq(count(n, &pulled), fn, par.WithPool(p), par.InFlight(window)) {
						if r != got {
							t.Fatalf("window %d: result %d is %d", window, got, r)
						}
						got++
					}
				})
				pe, ok := v.(*core.PanicError)
				if !ok || pe.Value != "boom" {
					t.Fatalf("window %d: recovered %v, want the *core.PanicError of fn", window, v)
				}
				if got != k {
					t.Fatalf("window %d round %d: %d results before the panic of item %d, want %d", window, round, got, k, k)
				}
			}
		}
	})
}

// TestStreamComputesWhatItPulled pulls a request/response sequence: after
// yielding item i it waits for fn to have run on it before it yields the
// next. A pump must not pull on while it holds an item it has not computed:
// here that is a stall of the whole stream (each wait gives up after 2 s,
// and a wait that gives up fails the test).
func TestStreamComputesWhatItPulled(t *testing.T) {
	const n = 20
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, window := range []int{1, 8, 64} {
			var calls atomic.Int64
			stalls := 0
			seq := func(yield func(int) bool) {
				for i := range n {
					if !yield(i) {
						return
					}
					deadline := time.Now().Add(2 * time.Second)
					for calls.Load() <= int64(i) && time.Now().Before(deadline) {
						time.Sleep(20 * time.Microsecond)
					}
					if calls.Load() <= int64(i) {
						stalls++
					}
				}
			}
			par.ForEachSeq(seq, func(int) { calls.Add(1) }, par.WithPool(p), par.InFlight(window))
			if stalls != 0 || calls.Load() != n {
				t.Fatalf("ForEachSeq, window %d: %d stalls, %d calls of %d", window, stalls, calls.Load(), n)
			}
			calls.Store(0)
			got := 0
			for range par.MapSeq(seq, func(x int) int { calls.Add(1); return x }, par.WithPool(p), par.InFlight(window)) {
				got++
			}
			if stalls != 0 || got != n {
				t.Fatalf("MapSeq, window %d: %d stalls, %d results of %d", window, stalls, got, n)
			}
		}
	})
}

func TestStreamBadInput(t *testing.T) {
	expectPanic(t, "InFlight(0)", func() { par.InFlight(0) })
	expectPanic(t, "InFlight(-3)", func() { par.InFlight(-3) })
	expectPanic(t, "nil sequence", func() { par.MapSeq(nil, func(int) int { return 0 }) })
	expectPanic(t, "nil function", func() { par.MapSeq[int, int](func(func(int) bool) {}, nil) })
	expectPanic(t, "nil sequence", func() { par.ForEachSeq(nil, func(int) {}) })
	expectPanic(t, "nil function", func() { par.ForEachSeq[int](func(func(int) bool) {}, nil) })
}

// recovered runs f and returns what it panicked with, unwrapped only as far
// as the panic itself (a *core.PanicError stays one).
func recovered(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

func ExampleMapSeq() {
	// Lines of a file (here a strings.Reader), processed in parallel and
	// printed in input order, with at most InFlight lines in memory.
	input := "alpha\nbeta\ngamma\ndelta\n"
	sc := bufio.NewScanner(strings.NewReader(input))
	lines := func(yield func(string) bool) {
		for sc.Scan() {
			if !yield(sc.Text()) {
				return
			}
		}
	}
	for s := range par.MapSeq(lines, strings.ToUpper, par.InFlight(2)) {
		fmt.Println(s)
	}
	// Output:
	// ALPHA
	// BETA
	// GAMMA
	// DELTA
}

func ExampleForEachSeq() {
	var total atomic.Int64
	squares := func(yield func(int) bool) {
		for i := 1; i <= 10; i++ {
			if !yield(i * i) {
				return
			}
		}
	}
	par.ForEachSeq(squares, func(x int) { total.Add(int64(x)) })
	fmt.Println(total.Load())
	// Output: 385
}
