package par_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// A measured run is serial (core.MeasureWorkSpan): its leaves run one after
// another in the order of the serial program, and every strand that is not
// in a leaf runs in a gap between two leaves (or before the first, or after
// the last). The tests below record that timeline and bound the span from
// it: a path of the dag through leaf j holds leaf j's strand and strands of
// j's enclosing tasks, each of which lies in a gap that the test can name.
// Summing those whole gaps gives an upper bound on the path, whatever the
// machine did in them: a fork strand stalled by the host, a page fault, a
// long interrupt. The bound is tight on a quiet machine (the gaps are a
// few hundred nanoseconds each), so the parallelism range holds
// wherever it says the run was quiet, and it still catches a meter that
// sums a Join's halves or drops a branch.

// spinWall busy-waits d of wall time.
func spinWall(d time.Duration) {
	start := time.Now()
	for time.Since(start) < d {
	}
}

// timeline records when the root of a measured run starts and ends and when
// each of its n leaves does, as offsets from the root's start.
type timeline struct {
	origin     time.Time
	start, end []time.Duration
	finish     time.Duration
}

// newTimeline returns a timeline for n leaves. Its memory is written to
// here, so that a leaf's store never faults a fresh page in during the run
// (a fault lands in a strand; the bound would hold it, but looser).
func newTimeline(n int) *timeline {
	tl := &timeline{start: make([]time.Duration, n), end: make([]time.Duration, n)}
	for i := range n {
		tl.start[i], tl.end[i] = 1, 1 // a write maps the page in; fresh memory from make may not be
	}
	return tl
}

// begin marks the root's start; done its end.
func (tl *timeline) begin() { tl.origin = time.Now() }
func (tl *timeline) done()  { tl.finish = time.Since(tl.origin) }

// leaf is leaf i's body: it spins d and records when it ran.
func (tl *timeline) leaf(i int, d time.Duration) {
	tl.start[i] = time.Since(tl.origin)
	spinWall(d)
	tl.end[i] = time.Since(tl.origin)
}

// gap returns the time between leaf k-1's end and leaf k's start, with the
// root's start before leaf 0 and its end after leaf n-1 (k = n).
func (tl *timeline) gap(k int) time.Duration {
	from, to := time.Duration(0), tl.finish
	if k > 0 {
		from = tl.end[k-1]
	}
	if k < len(tl.start) {
		to = tl.start[k]
	}
	return to - from
}

// serial reports whether the leaves ran one after another in index order,
// as a measured run runs them; the bounds below assume it.
func (tl *timeline) serial() bool {
	for k := range len(tl.start) + 1 {
		if tl.gap(k) < 0 {
			return false
		}
	}
	return true
}

// pathBound returns the time of leaf j plus that of the gaps in gaps,
// each counted once: an upper bound on a path through leaf j whose other
// strands lie in those gaps.
func (tl *timeline) pathBound(j int, gaps []int) time.Duration {
	b := tl.end[j] - tl.start[j]
	for i, g := range gaps {
		if !slices.Contains(gaps[:i], g) {
			b += tl.gap(g)
		}
	}
	return b
}

// treeBound bounds the span of a balanced binary fork tree over the leaves
// [a, b) that splits at midpoints, as a Simple loop does. A path through
// leaf j holds, for each task [a', b') from the root down to j, strands
// that run when the task starts (before its first leaf, in gap a') and when
// it has joined its halves (after its last leaf, in gap b'); a leaf's own
// strand spills into the gaps on either side of it, which are its own a'
// and b'.
func (tl *timeline) treeBound(a, b int, path []int) time.Duration {
	path = append(path, a, b)
	if b-a == 1 {
		return tl.pathBound(a, path)
	}
	mid := a + (b-a)/2
	return max(tl.treeBound(a, mid, path), tl.treeBound(mid, b, path))
}

// spawnBound bounds the span of a root that spawns the n leaves in order
// and waits for them, as a Group does: a path through leaf j holds the
// root's strands up to j's spawn (before the first leaf runs: gap 0), the
// strands that start and finish j (gaps j and j+1), and the root's wait
// and return (gap n).
func (tl *timeline) spawnBound() time.Duration {
	var most time.Duration
	n := len(tl.start)
	for j := range n {
		most = max(most, tl.pathBound(j, []int{0, j, j + 1, n}))
	}
	return most
}

// checkParallelism checks a measured parallelism against the range
// [lo, hi] for the dag: it must be at most hi (the span cannot be shorter
// than the dag's nominal one), and at least lo wherever the timeline's
// bound allows as much (0.8 of work over the bound elsewhere).
func checkParallelism(t *testing.T, ws core.WorkSpan, bound time.Duration, lo, hi float64) string {
	t.Helper()
	got := ws.Parallelism()
	floor := min(lo, 0.8*float64(ws.Work)/float64(bound))
	if got >= floor && got <= hi {
		return ""
	}
	return "parallelism " + ftoa(got) + " (span " + ws.Span.String() + "), want " + ftoa(floor) + ".." + ftoa(hi) +
		" (the run's timeline bounds the span by " + bound.String() + ")"
}

func TestMeasureWorkSpanFor(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation makes every strand too slow for timed bounds")
	}
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	const n = 1024
	tl := newTimeline(n)
	var err string
	for range 3 {
		_, ws := core.MeasureWorkSpan(p, func(w *core.Worker) int {
			tl.begin()
			par.For(0, n, func(i int) { tl.leaf(i, 20*time.Microsecond) }, par.Simple(1))
			tl.done()
			return 0
		})
		// Simple(1) splits 1024 iterations into a tree of 1023 forks.
		if ws.Forks != n-1 {
			t.Fatalf("Forks = %d, want %d", ws.Forks, n-1)
		}
		if !tl.serial() {
			t.Fatal("the measured loop's leaves did not run one after another in index order")
		}
		if err = checkParallelism(t, ws, tl.treeBound(0, n, nil), 300, 1100); err == "" {
			return
		}
		t.Log(err)
	}
	t.Fatal(err)
}

func TestMeasureWorkSpanGroup(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation makes every strand too slow for timed bounds")
	}
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	const n = 16
	tl := newTimeline(n)
	var err string
	for range 3 {
		_, ws := core.MeasureWorkSpan(p, func(w *core.Worker) int {
			tl.begin()
			g := par.NewGroup(par.WithPool(p))
			for i := range n {
				g.Go(func() error { tl.leaf(i, time.Millisecond); return nil })
			}
			if err := g.Wait(); err != nil {
				t.Fatal(err)
			}
			tl.done()
			return 0
		})
		if ws.Forks != n {
			t.Fatalf("Forks = %d, want %d", ws.Forks, n)
		}
		if !tl.serial() {
			t.Fatal("the measured group's tasks did not run one after another in the order they were started")
		}
		if err = checkParallelism(t, ws, tl.spawnBound(), 12, 17); err == "" {
			return
		}
		t.Log(err)
	}
	t.Fatal(err)
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
