package kernels

import (
	"fmt"
	"math"
	"sync"

	"github.com/gofork/gofork/core"
)

// integrate: libfork's recursive adaptive trapezoid quadrature of
// f(x) = (x²+1)·x over [0, n], splitting an interval in two (a fork) until
// the two halves agree with the whole to within IntEps. Integrate forks at
// every split (libfork's setting); IntegrateGrain is integrate as a user
// writes it, serial once an interval is IntLeaves times narrower than
// [0, n]. The function and eps = 1e-9 are libfork's; libfork's n = 10^4 is
// scaled down to IntN, where the serial program takes about a second (the
// node count grows about as n²). Each result is checked against the closed
// form n⁴/4 + n²/2.
const (
	IntN      = 4000 // n of the Full scale
	IntNQuick = 200  // of the Quick scale
	IntEps    = 1e-9
	// IntLeaves: IntegrateGrain forks until an interval is this many times
	// narrower than the whole, 2^12 top-level intervals: plenty of
	// parallel slack for 2..16 workers, each task then a few thousand
	// nodes of work.
	IntLeaves = 4096
)

func init() {
	size := func(s Scale) string {
		return fmt.Sprintf("n=%d eps=%g", pick(s, IntN, IntNQuick), IntEps)
	}
	add(&Kernel{
		Name:     "integrate-cutoff",
		Suite:    SuiteMain,
		Order:    20,
		About:    "adaptive quadrature, serial below the cutoff on both sides; baseline: goroutine+WaitGroup per split above it",
		Size:     size,
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "goroutines+WaitGroup",
		Cutoff:   fmt.Sprintf("serial below width n/%d (depth 12)", IntLeaves),
		Setup: func(variant string, p int, s Scale) (*Job, error) {
			return setupIntegrate(variant, p, s, true)
		},
	})
	add(&Kernel{
		Name:  "integrate",
		Suite: SuiteMain,
		Order: 21,
		Kind:  ForkEverywhere,
		Note: "no goroutine baseline: a goroutine at every split takes seconds a run; " +
			"fib shows what a goroutine per fork costs, integrate-cutoff compares the two at a cutoff",
		About:    "fine-grained irregular recursion: Join per interval split; no baseline",
		Size:     size,
		Variants: []string{Serial, Gofork},
		Cutoff:   "none: a fork at every split",
		Setup: func(variant string, p int, s Scale) (*Job, error) {
			return setupIntegrate(variant, p, s, false)
		},
	})
}

func intFn(x float64) float64 { return (x*x + 1.0) * x }

// IntArg is one interval [x1, x2] with f at its ends and its trapezoid
// area, passed by value so a fork allocates nothing.
type IntArg struct{ x1, y1, x2, y2, area float64 }

// IntegrateRoot is the whole interval [0, n].
func IntegrateRoot(n float64) IntArg {
	return IntArg{0, intFn(0), n, intFn(n), (intFn(0) + intFn(n)) / 2 * n}
}

// IntegrateCheck reports an error unless got is the integral over [0, n]
// to a relative 1e-9.
func IntegrateCheck(n, got float64) error {
	want := n*n*n*n/4 + n*n/2
	if math.Abs(got-want) > 1e-9*want {
		return fmt.Errorf("integrate(n=%g) = %v, want %v", n, got, want)
	}
	return nil
}

// The quadrature step is written out in each version below rather than
// shared: a helper returning both halves (twelve values) spills through
// memory and made the serial program six times slower.

// IntegrateSerial is libfork's serial program.
func IntegrateSerial(a IntArg) float64 {
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := intFn(x0)
	l := (a.y1 + y0) / 2 * half
	r := (y0 + a.y2) / 2 * half
	if math.Abs(l+r-a.area) < IntEps {
		return l + r
	}
	return IntegrateSerial(IntArg{a.x1, a.y1, x0, y0, l}) + IntegrateSerial(IntArg{x0, y0, a.x2, a.y2, r})
}

// Integrate forks at every split.
func Integrate(w *core.Worker, a IntArg) float64 {
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := intFn(x0)
	l := (a.y1 + y0) / 2 * half
	r := (y0 + a.y2) / 2 * half
	if math.Abs(l+r-a.area) < IntEps {
		return l + r
	}
	x, y := core.Join(w, Integrate, IntArg{a.x1, a.y1, x0, y0, l}, Integrate, IntArg{x0, y0, a.x2, a.y2, r})
	return x + y
}

// IntGrainArg is an interval and the width below which it is integrated
// serially.
type IntGrainArg struct {
	IntArg
	grain float64
}

// IntegrateGrainRoot is [0, n] with the grain n/IntLeaves.
func IntegrateGrainRoot(n float64) IntGrainArg {
	return IntGrainArg{IntegrateRoot(n), n / IntLeaves}
}

// IntegrateGrain forks only while the interval is wider than a.grain: the
// cutoff every practical fork-join program uses, so that the fork cost is
// paid per few thousand nodes rather than per node.
func IntegrateGrain(w *core.Worker, a IntGrainArg) float64 {
	if a.x2-a.x1 <= a.grain {
		return IntegrateSerial(a.IntArg)
	}
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := intFn(x0)
	l := (a.y1 + y0) / 2 * half
	r := (y0 + a.y2) / 2 * half
	if math.Abs(l+r-a.area) < IntEps {
		return l + r
	}
	x, y := core.Join(w, IntegrateGrain, IntGrainArg{IntArg{a.x1, a.y1, x0, y0, l}, a.grain},
		IntegrateGrain, IntGrainArg{IntArg{x0, y0, a.x2, a.y2, r}, a.grain})
	return x + y
}

// IntegrateGoroutines is what a Go user writes without a fork-join
// library: IntegrateGrain with a goroutine and a WaitGroup per split.
func IntegrateGoroutines(a IntGrainArg) float64 {
	if a.x2-a.x1 <= a.grain {
		return IntegrateSerial(a.IntArg)
	}
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := intFn(x0)
	l := (a.y1 + y0) / 2 * half
	r := (y0 + a.y2) / 2 * half
	if math.Abs(l+r-a.area) < IntEps {
		return l + r
	}
	var x float64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = IntegrateGoroutines(IntGrainArg{IntArg{a.x1, a.y1, x0, y0, l}, a.grain})
	}()
	y := IntegrateGoroutines(IntGrainArg{IntArg{x0, y0, a.x2, a.y2, r}, a.grain})
	wg.Wait()
	return x + y
}

// setupIntegrate prepares the integral for variant, serial below the
// grain if cut, else forking at every split.
func setupIntegrate(variant string, p int, s Scale, cut bool) (*Job, error) {
	n := float64(pick(s, IntN, IntNQuick))
	root, groot := IntegrateRoot(n), IntegrateGrainRoot(n)
	var got float64
	j := &Job{Verify: func() error { return IntegrateCheck(n, got) }}
	switch variant {
	case Serial:
		j.Run = func() { got = IntegrateSerial(root) }
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		f := func(w *core.Worker) float64 { return Integrate(w, root) }
		if cut {
			f = func(w *core.Worker) float64 { return IntegrateGrain(w, groot) }
		}
		j.Run = func() { got = core.RunValue(pool, f) }
		j.Close = pool.Close
		j.Pool = pool
	case Baseline:
		if !cut {
			return nil, fmt.Errorf("integrate: no goroutine baseline that forks at every split")
		}
		j.Run = func() { got = IntegrateGoroutines(groot) }
	default:
		return nil, fmt.Errorf("integrate: no variant %q", variant)
	}
	return j, nil
}
