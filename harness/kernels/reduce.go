package kernels

import (
	"fmt"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// reduce: the sum of ReduceN float64 with reduce.Sum, against the plain
// one-accumulator loop and P goroutines summing a chunk each. The values
// are multiples of 1/4 below 250, so every partial sum is exact and any
// summation order must give the closed-form total.
const (
	ReduceN      = 100_000_000
	ReduceNQuick = 10_000_000
)

func init() {
	add(&Kernel{
		Name:  "reduce",
		Suite: SuiteMain,
		Order: 80,
		Note:  "Ts is a plain one-accumulator loop; reduce.Sum's leaves are faster than it even at P=1",
		About: "parallel reduction: reduce.Sum of float64; baseline: one goroutine per chunk, P partial sums",
		Size: func(s Scale) string {
			return fmt.Sprintf("n=%d", pick(s, ReduceN, ReduceNQuick))
		},
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "P goroutines+WaitGroup",
		Cutoff:   "reduce.Sum's Auto partitioner; the baseline P equal chunks",
		Setup:    setupReduce,
	})
}

// ReduceInput returns x[i] = (i mod 1000)/4 and its sum.
func ReduceInput(n int) (x []float64, sum float64) {
	x = make([]float64, n)
	for i := range x {
		x[i] = float64(i%1000) * 0.25
	}
	full, rest := n/1000, n%1000
	return x, float64(full)*(999*1000/2)/4 + float64(rest*(rest-1)/2)/4
}

// SumSerial is the one-accumulator loop.
func SumSerial(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func setupReduce(variant string, p int, s Scale) (*Job, error) {
	n := pick(s, ReduceN, ReduceNQuick)
	x, want := ReduceInput(n)
	var got float64
	j := &Job{
		Reset: func() { got = -1 },
		Verify: func() error {
			if got != want {
				return fmt.Errorf("reduce: sum = %v, want %v", got, want)
			}
			return nil
		},
	}
	switch variant {
	case Serial:
		j.Run = func() { got = SumSerial(x) }
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		j.Run = func() { got = reduce.Sum(x, par.WithPool(pool)) }
		j.Close = pool.Close
		j.Pool = pool
	case Baseline:
		partial := make([]float64, p)
		j.Run = func() {
			GoChunks(n, p, func(c, lo, hi int) { partial[c] = SumSerial(x[lo:hi]) })
			got = SumSerial(partial)
		}
	default:
		return nil, fmt.Errorf("reduce: no variant %q", variant)
	}
	return j, nil
}
