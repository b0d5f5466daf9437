package main

import (
	"fmt"
	"math"
	"sync"

	"github.com/gofork/gofork/core"
)

// integrate: libfork's recursive adaptive trapezoid quadrature of
// f(x) = (x²+1)·x over [0, n], splitting an interval in two (a fork) until
// the two halves agree with the whole to within eps, in two rows:
// "integrate" forks at every split (libfork's setting), "integrate-cutoff"
// is integrate as a user writes it, serial below depth integrateCutDepth of
// the split tree. The function and eps = 1e-9 are libfork's; libfork's
// n = 1e4 takes ~1.7 s serially in Go, so n = 1e3 (15 M intervals, ~85 ms)
// is used. Every variant sums in the same order, so each result must equal
// the serial one bit for bit and match the closed form ¼x²(x²+2) to a
// relative 1e-9.
const (
	integrateN      = 1000
	integrateNQuick = 200
	integrateEps    = 1e-9
	// integrateCutDepth: intervals this deep in the split tree are
	// integrated serially. Its 2^9 = 512 leaves average ~80 µs at n=1000
	// and ~10 µs at the -quick n=200 on the 2-core EPYC VM.
	integrateCutDepth = 9
)

func init() {
	size := func(q bool) string {
		return fmt.Sprintf("n=%d eps=%g", pick(q, integrateN, integrateNQuick), integrateEps)
	}
	register(&benchmark{
		name:     "integrate-cutoff",
		suite:    suiteMain,
		order:    20,
		about:    "adaptive quadrature, serial below the cutoff on both sides; baseline: goroutine+WaitGroup per split above it",
		size:     size,
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "goroutines+WaitGroup",
		cutoff:   fmt.Sprintf("serial below depth %d (%d subintervals)", integrateCutDepth, 1<<integrateCutDepth),
		setup: func(variant string, p int, quick bool) (*job, error) {
			return setupIntegrate(variant, p, quick, true)
		},
	})
	register(&benchmark{
		name:  "integrate",
		suite: suiteMain,
		order: 21,
		kind:  kindForkEverywhere,
		note: "no goroutine baseline: a goroutine at every split (7.5 M of them) takes ~8 s a run; " +
			"fib shows what a goroutine per fork costs, integrate-cutoff compares the two at a cutoff",
		about:    "fine-grained irregular recursion: Join per interval split; no baseline",
		size:     size,
		variants: []string{variantSerial, variantGofork},
		cutoff:   "none: a fork at every split",
		setup: func(variant string, p int, quick bool) (*job, error) {
			return setupIntegrate(variant, p, quick, false)
		},
	})
}

func integrateFn(x float64) float64 { return (x*x + 1) * x }

func integrateExact(a, b float64) float64 {
	f := func(x float64) float64 { return 0.25 * x * x * (x*x + 2) }
	return f(b) - f(a)
}

// integrateArgs is one interval [x1, x2] with f at its ends and its
// trapezoid area, passed by value so a fork allocates nothing.
type integrateArgs struct {
	x1, y1, x2, y2, area float64
}

func integrateRoot(n float64) integrateArgs {
	return integrateArgs{x1: 0, y1: integrateFn(0), x2: n, y2: integrateFn(n), area: 0}
}

// integrateSerial is libfork's serial program.
func integrateSerial(x1, y1, x2, y2, area float64) float64 {
	half := (x2 - x1) / 2
	x0 := x1 + half
	y0 := integrateFn(x0)
	al := (y1 + y0) / 2 * half
	ar := (y0 + y2) / 2 * half
	sum := al + ar
	if sum-area < integrateEps && area-sum < integrateEps {
		return sum
	}
	return integrateSerial(x1, y1, x0, y0, al) + integrateSerial(x0, y0, x2, y2, ar)
}

func integrateGofork(w *core.Worker, a integrateArgs) float64 {
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := integrateFn(x0)
	al := (a.y1 + y0) / 2 * half
	ar := (y0 + a.y2) / 2 * half
	sum := al + ar
	if sum-a.area < integrateEps && a.area-sum < integrateEps {
		return sum
	}
	x, y := core.Join(w, integrateGofork, integrateArgs{a.x1, a.y1, x0, y0, al},
		integrateGofork, integrateArgs{x0, y0, a.x2, a.y2, ar})
	return x + y
}

// integrateSplit halves a. done reports that the halves agree with the
// whole to within eps; sum is then the result.
func integrateSplit(a integrateArgs) (l, r integrateArgs, sum float64, done bool) {
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := integrateFn(x0)
	al := (a.y1 + y0) / 2 * half
	ar := (y0 + a.y2) / 2 * half
	sum = al + ar
	done = sum-a.area < integrateEps && a.area-sum < integrateEps
	return integrateArgs{a.x1, a.y1, x0, y0, al}, integrateArgs{x0, y0, a.x2, a.y2, ar}, sum, done
}

// integrateAt is an interval at its depth in the split tree, for the rows
// with a cutoff.
type integrateAt struct {
	integrateArgs
	depth int
}

// integrateGoforkCutoff is integrateGofork serial below integrateCutDepth.
func integrateGoforkCutoff(w *core.Worker, a integrateAt) float64 {
	if a.depth >= integrateCutDepth {
		return integrateSerial(a.x1, a.y1, a.x2, a.y2, a.area)
	}
	l, r, sum, done := integrateSplit(a.integrateArgs)
	if done {
		return sum
	}
	x, y := core.Join(w, integrateGoforkCutoff, integrateAt{l, a.depth + 1},
		integrateGoforkCutoff, integrateAt{r, a.depth + 1})
	return x + y
}

// integrateGoroutines is what a Go user writes without a fork-join
// library: a goroutine per split, serial below integrateCutDepth.
func integrateGoroutines(a integrateAt) float64 {
	if a.depth >= integrateCutDepth {
		return integrateSerial(a.x1, a.y1, a.x2, a.y2, a.area)
	}
	l, r, sum, done := integrateSplit(a.integrateArgs)
	if done {
		return sum
	}
	var wg sync.WaitGroup
	var x float64
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = integrateGoroutines(integrateAt{l, a.depth + 1})
	}()
	y := integrateGoroutines(integrateAt{r, a.depth + 1})
	wg.Wait()
	return x + y
}

// setupIntegrate prepares the integral for variant, serial below
// integrateCutDepth if cut, else forking at every split.
func setupIntegrate(variant string, p int, quick, cut bool) (*job, error) {
	n := float64(pick(quick, integrateN, integrateNQuick))
	root := integrateRoot(n)
	want := integrateSerial(root.x1, root.y1, root.x2, root.y2, root.area)
	exact := integrateExact(0, n)
	if math.Abs(want-exact) > 1e-9*exact {
		return nil, fmt.Errorf("integrate: serial result %v is not within 1e-9 of the closed form %v", want, exact)
	}
	var got float64
	j := &job{verify: func() error {
		if got != want {
			return fmt.Errorf("integrate(n=%g) = %v, want %v (serial, bit for bit; closed form %v)", n, got, want, exact)
		}
		return nil
	}}
	switch variant {
	case variantSerial:
		j.run = func() { got = integrateSerial(root.x1, root.y1, root.x2, root.y2, root.area) }
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() {
			got = core.RunValue(pool, func(w *core.Worker) float64 {
				if cut {
					return integrateGoforkCutoff(w, integrateAt{root, 0})
				}
				return integrateGofork(w, root)
			})
		}
		j.close = pool.Close
		j.pool = pool
	case variantBaseline:
		if !cut {
			return nil, fmt.Errorf("integrate: no goroutine baseline that forks at every split")
		}
		j.run = func() { got = integrateGoroutines(integrateAt{root, 0}) }
	default:
		return nil, fmt.Errorf("integrate: no variant %q", variant)
	}
	return j, nil
}
