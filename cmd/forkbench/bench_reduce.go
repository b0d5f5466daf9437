package main

import (
	"fmt"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// reduce: the sum of 10 M float64 with reduce.Sum, reduceSweeps times per
// run. The values are multiples of 1/8 below 125, so every partial sum is
// exact and any summation order must give the closed-form total.
const (
	reduceN      = 10_000_000
	reduceNQuick = 1_000_000
	reduceSweeps = 10
)

func init() {
	register(&benchmark{
		name:  "reduce",
		suite: suiteMain,
		order: 80,
		note:  "Ts is a plain one-accumulator loop; reduce.Sum's leaves are faster than it even at P=1",
		about: "parallel reduction: reduce.Sum of float64; baseline: one goroutine per chunk, P partial sums",
		size: func(q bool) string {
			return fmt.Sprintf("n=%d x %d sums", pick(q, reduceN, reduceNQuick), reduceSweeps)
		},
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "P goroutines+WaitGroup",
		cutoff:   "reduce.Sum's Auto partitioner; the baseline P equal chunks",
		setup:    setupReduce,
	})
}

func sumSerial(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func setupReduce(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, reduceN, reduceNQuick)
	x := make([]float64, n)
	var want float64
	for i := range x {
		x[i] = float64(i%1000) / 8
	}
	full, rest := n/1000, n%1000
	want = float64(full)*(999*1000/2)/8 + float64(rest*(rest-1)/2)/8
	var got [reduceSweeps]float64
	j := &job{
		verify: func() error {
			for _, g := range got {
				if g != want {
					return fmt.Errorf("reduce: sum = %v, want %v", g, want)
				}
			}
			return nil
		},
	}
	switch variant {
	case variantSerial:
		j.run = func() {
			for k := range got {
				got[k] = sumSerial(x)
			}
		}
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() {
			for k := range got {
				got[k] = reduce.Sum(x, par.WithPool(pool))
			}
		}
		j.close = pool.Close
		j.pool = pool
	case variantBaseline:
		partial := make([]float64, p)
		j.run = func() {
			for k := range got {
				goChunks(n, p, func(c, lo, hi int) { partial[c] = sumSerial(x[lo:hi]) })
				got[k] = sumSerial(partial)
			}
		}
	default:
		return nil, fmt.Errorf("reduce: no variant %q", variant)
	}
	return j, nil
}
