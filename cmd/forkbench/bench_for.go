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
		baseline: "P goroutines+WaitGroup",
		cutoff:   "par.ForRange's Auto partitioner; the baseline P equal chunks",
		setup:    setupFor,
	})
}

func daxpy(a float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += a * v
	}
}

// forX and forY0 give the inputs by formula, so no copy of them is kept.
func forX(i int) float64  { return float64(i%1000) / 7 }
func forY0(i int) float64 { return float64(i%17) - 8 }

func setupFor(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, forN, forNQuick)
	x := make([]float64, n)
	for i := range x {
		x[i] = forX(i)
	}
	y := make([]float64, n)
	j := &job{
		reset: func() {
			for i := range y {
				y[i] = forY0(i)
			}
		},
		// Each element is updated by the same operations in the same order
		// in every variant, so y must match a recomputation bit for bit.
		verify: func() error {
			for i := range y {
				want := forY0(i)
				for range forSweeps {
					want += forA * x[i]
				}
				if y[i] != want {
					return fmt.Errorf("for: y[%d] = %v, want %v", i, y[i], want)
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
		j.pool = pool
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
