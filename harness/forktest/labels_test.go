package forktest

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/google/pprof/profile"
	"gonum.org/v1/gonum/mat"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/linalg"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// TestProfileLabelsFollowCallers is the program of core's "Profiler
// labels": three callers, labelled req=a, b and c with pprof.Do, run
// par.For, sortpar.Sort and a par.Group on the Default pool at once under
// the CPU profiler. Each sample is the caller's by the function on its
// stack (labelWorkA, sortpar's, labelWorkC) whoever ran it: at least 95 %
// of each caller's samples must carry its label and none another's.
//
// It needs a few seconds of samples, so it is skipped under -short, and
// under the race detector and emulators, whose sampling is too sparse.
func TestProfileLabelsFollowCallers(t *testing.T) {
	if testing.Short() || raceEnabled || emulated {
		t.Skip("needs seconds of CPU samples; -short, -race or an emulator")
	}
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		t.Skipf("a CPU profile is running already: %v", err)
	}
	const run = 2 * time.Second
	rng := rand.New(rand.NewPCG(2, 38))
	input := make([]int64, 200_000)
	for i := range input {
		input[i] = rng.Int64()
	}
	deadline := time.Now().Add(run)
	// Each runs until the deadline, and past it until it has done its
	// minimum of rounds (about half a second of CPU each), so that each
	// gets samples however the pool shares the processors among them.
	callers := []struct {
		req    string
		rounds int
		work   func()
	}{
		{"a", 500, func() {
			xs := make([]float64, 1<<12)
			par.For(0, len(xs), func(i int) { xs[i] = labelWorkA(i) })
		}},
		{"b", 50, func() {
			sortpar.Sort(slices.Clone(input))
		}},
		{"c", 250, func() {
			var g par.Group
			out := make([]float64, 64)
			for k := range out {
				g.Go(func() error { out[k] = labelWorkC(k); return nil })
			}
			if err := g.Wait(); err != nil {
				t.Error(err)
			}
		}},
	}
	var wg sync.WaitGroup
	for _, c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pprof.Do(context.Background(), pprof.Labels("req", c.req), func(context.Context) {
				n := 0
				for ; n < c.rounds || time.Now().Before(deadline); n++ {
					c.work()
				}
				t.Logf("DEBUG %s rounds %d at %v", c.req, n, time.Until(deadline))
			})
		}()
	}
	wg.Wait()
	pprof.StopCPUProfile()

	prof, err := profile.Parse(&buf)
	if err != nil {
		t.Fatalf("profile.Parse: %v", err)
	}
	type tally struct{ all, own, none, other int }
	tallies := map[string]*tally{"a": {}, "b": {}, "c": {}}
	for _, s := range prof.Sample {
		caller := ""
		for _, loc := range s.Location {
			for _, line := range loc.Line {
				switch name := line.Function.Name; {
				case strings.HasSuffix(name, "forktest.labelWorkA"):
					caller = "a"
				case strings.HasSuffix(name, "forktest.labelWorkC"):
					caller = "c"
				case strings.Contains(name, "gofork/sortpar."):
					caller = "b"
				}
			}
		}
		if caller == "" {
			if l := s.Label["req"]; len(l) > 0 && l[0] == "c" && testing.Verbose() {
				t.Logf("DEBUG c sample: %s", s.Location[0].Line[0].Function.Name)
			}
			continue
		}
		tl := tallies[caller]
		tl.all++
		switch got := s.Label["req"]; {
		case len(got) == 0:
			tl.none++
		case got[0] == caller:
			tl.own++
		default:
			tl.other++
			t.Errorf("a sample of caller %s's work carries req=%s", caller, got[0])
		}
	}
	few := ""
	for _, req := range []string{"a", "b", "c"} {
		tl := tallies[req]
		t.Logf("req=%s: %d samples, %d with its label, %d with none, %d with another's", req, tl.all, tl.own, tl.none, tl.other)
		if tl.all < minSamples {
			few = req
			continue
		}
		if 100*tl.own < 95*tl.all {
			t.Errorf("req=%s: %d of %d samples carry its label, want >= 95 %%", req, tl.own, tl.all)
		}
	}
	if few != "" && !t.Failed() {
		t.Skipf("req=%s: fewer than %d samples (a busy machine, or a profiler that samples little): too few to judge", few, minSamples)
	}
}

// minSamples is the fewest samples of a caller the test judges by. Labels
// either follow the work or they do not: with them, every sample of a
// caller carries its label, so a handful of samples is enough to judge.
// (On some virtual machines the profiler takes a few samples a second of
// CPU, not a hundred.)
const minSamples = 5

// labelWorkA and labelWorkC are the CPU work of callers a and c, named so
// that their samples can be told apart.
//
//go:noinline
func labelWorkA(i int) float64 {
	x := float64(i)
	for range 200 {
		x = x*1.0000001 + 0.5
	}
	return x
}

//go:noinline
func labelWorkC(k int) float64 {
	x := float64(k)
	for range 20_000 {
		x = x*0.9999999 + 0.25
	}
	return x
}

// goroutineLabels reads the calling goroutine's label pointer: the
// runtime's accessor that runtime/pprof itself uses (core's labels.go).
//
//go:linkname goroutineLabels runtime/pprof.runtime_getProfLabel
func goroutineLabels() unsafe.Pointer

// TestLabelsAtEveryEntryPoint: the bodies of every headline call run with
// the labels of the goroutine that called it, on whichever worker runs
// them, with or without a context option. Cheap: no profiler.
func TestLabelsAtEveryEntryPoint(t *testing.T) {
	pool := core.New(core.WithWorkers(3))
	defer pool.Close()
	for _, opt := range []struct {
		name string
		opts []par.Option
	}{
		{"Default", nil},
		{"WithPool", []par.Option{par.WithPool(pool)}},
	} {
		pprof.Do(context.Background(), pprof.Labels("req", opt.name), func(context.Context) {
			want := goroutineLabels()
			bad := map[string]int{}
			var mu sync.Mutex
			check := func(call string) {
				if goroutineLabels() != want {
					mu.Lock()
					bad[call]++
					mu.Unlock()
				}
			}
			opts := append([]par.Option{par.Grain(1)}, opt.opts...)
			par.For(0, 2000, func(int) { check("par.For") }, opts...)
			reduce.Reduce(0, 2000, 0, func(lo, hi, acc int) int { check("reduce.Reduce"); return acc + hi - lo },
				func(x, y int) int { return x + y }, opts...)
			xs := make([]int, 50_000)
			for i := range xs {
				xs[i] = (i * 7919) % len(xs)
			}
			sortpar.SortFunc(xs, func(a, b int) int { check("sortpar.SortFunc"); return a - b }, opt.opts...)
			par.ForEachSeq(slices.Values(xs[:500]), func(int) { check("par.ForEachSeq") }, opt.opts...)
			for range par.MapSeq(slices.Values(xs[:500]), func(x int) int { check("par.MapSeq"); return x }, opt.opts...) {
			}
			g := par.NewGroup(opt.opts...)
			gc, _ := par.WithContext(context.Background(), opt.opts...)
			for range 100 {
				g.Go(func() error { check("par.Group"); return nil })
				gc.Go(func() error { check("par.Group with a context"); return nil })
			}
			if err := errors.Join(g.Wait(), gc.Wait()); err != nil {
				t.Error(err)
			}
			a, b := mat.NewDense(96, 96, nil), mat.NewDense(96, 96, nil)
			var c mat.Dense
			linalg.Mul(&c, a, b, opt.opts...) // its kernels are not ours to instrument: it must not panic or lose labels after
			check("after linalg.Mul")
			for call, n := range bad {
				t.Errorf("%s (%s): %d calls of the body ran without the caller's labels", call, opt.name, n)
			}
		})
	}
}
