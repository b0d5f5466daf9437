package loop_test

import (
	"sync/atomic"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/internal/loop"
)

// TestEachExactlyOnce checks that Each runs every index once, on a worker of
// the pool, and nothing outside [0, k).
func TestEachExactlyOnce(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, k := range []int{-1, 0, 1, 2, 3, 64, 1000} {
			ran := make([]atomic.Int32, max(k, 0))
			var wrong atomic.Int32
			p.Run(func(w *core.Worker) {
				loop.Each(w, k, func(w *core.Worker, i int) {
					if w == nil || w.Pool() != p || i < 0 || i >= k {
						wrong.Add(1)
						return
					}
					ran[i].Add(1)
				})
			})
			if wrong.Load() != 0 {
				t.Fatalf("k=%d: %d calls with a wrong worker or index", k, wrong.Load())
			}
			for i := range ran {
				if c := ran[i].Load(); c != 1 {
					t.Fatalf("k=%d: index %d ran %d times", k, i, c)
				}
			}
		}
	})
}

// TestChunksTile checks that the chunks of Chunks tile [0, n) in order, each
// run once, with the bounds ChunkBound gives.
func TestChunksTile(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, nk := range [][2]int{{0, 1}, {1, 1}, {5, 0}, {5, 8}, {1000, 7}, {1 << 20, 64}} {
			n, k := nk[0], nk[1]
			got := make([][2]int, max(k, 0))
			ran := make([]atomic.Int32, max(k, 0))
			p.Run(func(w *core.Worker) {
				loop.Chunks(w, n, k, func(i, lo, hi int) {
					got[i] = [2]int{lo, hi}
					ran[i].Add(1)
				})
			})
			next := 0
			for i := range got {
				lo, hi := got[i][0], got[i][1]
				want := [2]int{int(loop.ChunkBound(uint64(i), uint64(k), uint64(n))), int(loop.ChunkBound(uint64(i+1), uint64(k), uint64(n)))}
				if ran[i].Load() != 1 || got[i] != want || lo != next {
					t.Fatalf("n=%d k=%d: chunk %d = [%d, %d) ran %d times, want [%d, %d) once", n, k, i, lo, hi, ran[i].Load(), want[0], want[1])
				}
				next = hi
			}
			if k > 0 && next != n {
				t.Fatalf("n=%d k=%d: chunks end at %d", n, k, next)
			}
		}
	})
}

// TestEachPanic checks that a panic in a leaf reaches the root's caller as
// a *core.PanicError carrying the value, and that the pool still runs
// loops afterwards.
func TestEachPanic(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		v := func() (v any) {
			defer func() { v = recover() }()
			p.Run(func(w *core.Worker) {
				loop.Each(w, 100, func(_ *core.Worker, i int) {
					if i == 37 {
						panic("leaf 37")
					}
				})
			})
			return nil
		}()
		if pe, ok := v.(*core.PanicError); !ok || pe.Value != "leaf 37" {
			t.Fatalf("recovered %#v, want a *core.PanicError of \"leaf 37\"", v)
		}
		var sum atomic.Int64
		p.Run(func(w *core.Worker) {
			loop.Each(w, 100, func(_ *core.Worker, i int) { sum.Add(int64(i)) })
		})
		if sum.Load() != 4950 {
			t.Fatalf("after a panic: sum %d, want 4950", sum.Load())
		}
	})
}

// TestEachAllocs checks that Each and Chunks allocate nothing beyond the
// caller's closure: on a one-worker pool (no thief, so no wake-up path runs
// meanwhile) a root that runs both loops allocates as much as an empty one.
func TestEachAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	p := core.New(core.WithWorkers(1), core.WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer pooltest.Close(t, p)
	var sink atomic.Int64
	each := func(_ *core.Worker, i int) { sink.Add(int64(i)) }
	chunk := func(i, lo, hi int) { sink.Add(int64(hi - lo)) }
	loops := func(w *core.Worker) {
		loop.Each(w, 64, each)
		loop.Chunks(w, 1<<20, 64, chunk)
	}
	empty := func(*core.Worker) {}
	p.Run(loops) // warm the worker's frames
	base := testing.AllocsPerRun(100, func() { p.Run(empty) })
	got := testing.AllocsPerRun(100, func() { p.Run(loops) })
	if got > base {
		t.Fatalf("a root running Each and Chunks allocates %v times, an empty root %v", got, base)
	}
}
