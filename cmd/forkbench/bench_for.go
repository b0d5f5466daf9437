package main

import (
	"fmt"
	"sync"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// for: daxpy, y = a·x + y, over 10 M float64 with par.ForRange, swept
// forSweeps times per run so a run lasts long enough to time (one sweep is
// ~15 ms serially). Memory-bound: two cores rarely double it.
const (
	forN      = 10_000_000
	forNQuick = 1_000_000
	forSweeps = 10
	forA      = 0.5
)

func init() {
	register(&benchmark{
		name:  "for",
		suite: suiteMain,
		order: 70,
		about: "parallel loop: daxpy with par.ForRange (Auto partitioner); baseline: one goroutine per chunk, P chunks",
		size: func(q bool) string {
			return fmt.Sprintf("n=%d x %d sweeps", pick(q, forN, forNQuick), forSweeps)
		},
		variants: []string{variantSerial, variantGofork, variantBaseline},
		setup:    setupFor,
	})
}

func daxpy(a float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += a * v
	}
}

func setupFor(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, forN, forNQuick)
	x := make([]float64, n)
	y0 := make([]float64, n)
	for i := range x {
		x[i] = float64(i%1000) / 7
		y0[i] = float64(i%17) - 8
	}
	// Each element is updated by the same operations in the same order in
	// every variant, so the result must match bit for bit.
	want := make([]float64, n)
	copy(want, y0)
	for range forSweeps {
		daxpy(forA, x, want)
	}
	y := make([]float64, n)
	j := &job{
		reset: func() { copy(y, y0) },
		verify: func() error {
			for i := range y {
				if y[i] != want[i] {
					return fmt.Errorf("for: y[%d] = %v, want %v", i, y[i], want[i])
				}
			}
			return nil
		},
	}
	switch variant {
	case variantSerial:
		j.run = func() {
			for range forSweeps {
				daxpy(forA, x, y)
			}
		}
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		body := func(lo, hi int) { daxpy(forA, x[lo:hi], y[lo:hi]) }
		j.run = func() {
			for range forSweeps {
				par.ForRange(0, n, body, par.WithPool(pool))
			}
		}
		j.close = pool.Close
	case variantBaseline:
		j.run = func() {
			for range forSweeps {
				goChunks(n, p, func(_, lo, hi int) { daxpy(forA, x[lo:hi], y[lo:hi]) })
			}
		}
	default:
		return nil, fmt.Errorf("for: no variant %q", variant)
	}
	return j, nil
}

// goChunks is the loop a Go user writes: one goroutine for each of chunks
// equal chunks, and a WaitGroup; body gets the chunk index c too.
func goChunks(n, chunks int, body func(c, lo, hi int)) {
	var wg sync.WaitGroup
	for c := range chunks {
		lo, hi := c*n/chunks, (c+1)*n/chunks
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(c, lo, hi)
		}()
	}
	wg.Wait()
}
