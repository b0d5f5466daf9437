package main

import (
	"fmt"
	"math"
	"sync"

	"github.com/gofork/gofork/core"
)

// integrate: libfork's recursive adaptive trapezoid quadrature of
// f(x) = (x²+1)·x over [0, n], splitting an interval in two (a fork) until
// the two halves agree with the whole to within eps. The function and
// eps = 1e-9 are libfork's; libfork's n = 1e4 takes ~1.7 s serially in Go, so
// n = 1e3 (15 M intervals, ~85 ms) is used. Every variant sums in the same
// order, so each result must equal the serial one bit for bit and match
// the closed form ¼x²(x²+2) to a relative 1e-9.
const (
	integrateN      = 1000
	integrateNQuick = 200
	integrateEps    = 1e-9
	// integrateGoDepth is where the goroutine baseline stops spawning: a
	// goroutine per interval (7.5 M of them) would take ~8 s, so it forks
	// down to 2^12 subintervals and runs the rest serially, as a Go user would.
	integrateGoDepth = 12
)

func init() {
	register(&benchmark{
		name:  "integrate",
		suite: suiteMain,
		order: 20,
		note:  "gofork forks at every split (15 M intervals); the goroutine baseline stops forking at depth 12",
		about: "fine-grained irregular recursion: Join per interval split; baseline: goroutine+WaitGroup per split to depth 12",
		size: func(q bool) string {
			return fmt.Sprintf("n=%d eps=%g", pick(q, integrateN, integrateNQuick), integrateEps)
		},
		variants: []string{variantSerial, variantGofork, variantBaseline},
		setup:    setupIntegrate,
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

func integrateGoroutines(a integrateArgs, depth int) float64 {
	if depth >= integrateGoDepth {
		return integrateSerial(a.x1, a.y1, a.x2, a.y2, a.area)
	}
	half := (a.x2 - a.x1) / 2
	x0 := a.x1 + half
	y0 := integrateFn(x0)
	al := (a.y1 + y0) / 2 * half
	ar := (y0 + a.y2) / 2 * half
	sum := al + ar
	if sum-a.area < integrateEps && a.area-sum < integrateEps {
		return sum
	}
	l, r := integrateArgs{a.x1, a.y1, x0, y0, al}, integrateArgs{x0, y0, a.x2, a.y2, ar}
	var wg sync.WaitGroup
	var x float64
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = integrateGoroutines(l, depth+1)
	}()
	y := integrateGoroutines(r, depth+1)
	wg.Wait()
	return x + y
}

func setupIntegrate(variant string, p int, quick bool) (*job, error) {
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
			got = core.Run(pool, func(w *core.Worker) float64 { return integrateGofork(w, root) })
		}
		j.close = pool.Close
	case variantBaseline:
		j.run = func() { got = integrateGoroutines(root, 0) }
	default:
		return nil, fmt.Errorf("integrate: no variant %q", variant)
	}
	return j, nil
}
