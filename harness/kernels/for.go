package kernels

import (
	"fmt"
	"sync"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// for: daxpy, y = a·x + y, over ForN float64 with par.ForRange, against a
// serial loop and one goroutine per chunk. Memory-bound (24 bytes move per
// element): two cores rarely double it. forkbench sweeps ForSweeps times
// per run so that a run lasts long enough to time.
const (
	ForN      = 10_000_000
	ForNQuick = 1_000_000
	ForA      = 1.5 // a
	ForSweeps = 10
)

func init() {
	add(&Kernel{
		Name:  "for",
		Suite: SuiteMain,
		Order: 70,
		About: "parallel loop: daxpy with par.ForRange (Auto partitioner); baseline: one goroutine per chunk, P chunks",
		Size: func(s Scale) string {
			return fmt.Sprintf("n=%d x %d sweeps", pick(s, ForN, ForNQuick), ForSweeps)
		},
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "P goroutines+WaitGroup",
		Cutoff:   "par.ForRange's Auto partitioner; the baseline P equal chunks",
		Setup:    setupFor,
	})
}

// ForInput returns daxpy's x, x[i] = i, and y, all ones.
func ForInput(n int) (x, y []float64) {
	x, y = make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(i), 1
	}
	return x, y
}

// Daxpy is y[lo:hi] += a*x[lo:hi].
func Daxpy(a float64, x, y []float64, lo, hi int) {
	x, y = x[lo:hi], y[lo:hi]
	for i := range y {
		y[i] += a * x[i]
	}
}

// GoChunks is the loop a Go user writes: one goroutine for each of chunks
// equal chunks of [0, n), and a WaitGroup; body gets the chunk's index c.
func GoChunks(n, chunks int, body func(c, lo, hi int)) {
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

func setupFor(variant string, p int, s Scale) (*Job, error) {
	n := pick(s, ForN, ForNQuick)
	x, y := ForInput(n)
	j := &Job{
		Reset: func() {
			for i := range y {
				y[i] = 1
			}
		},
		// Each element is updated by the same operations in the same order
		// in every variant, so y must match a recomputation bit for bit.
		Verify: func() error {
			for i := range y {
				want := 1.0
				for range ForSweeps {
					want += ForA * x[i]
				}
				if y[i] != want {
					return fmt.Errorf("for: y[%d] = %v, want %v", i, y[i], want)
				}
			}
			return nil
		},
	}
	body := func(lo, hi int) { Daxpy(ForA, x, y, lo, hi) }
	switch variant {
	case Serial:
		j.Run = func() {
			for range ForSweeps {
				Daxpy(ForA, x, y, 0, n)
			}
		}
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		j.Run = func() {
			for range ForSweeps {
				par.ForRange(0, n, body, par.WithPool(pool))
			}
		}
		j.Close = pool.Close
		j.Pool = pool
	case Baseline:
		j.Run = func() {
			for range ForSweeps {
				GoChunks(n, p, func(_, lo, hi int) { body(lo, hi) })
			}
		}
	default:
		return nil, fmt.Errorf("for: no variant %q", variant)
	}
	return j, nil
}
