package main

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/sortpar"
)

// sort: sortpar.Sort of random int64 keys against slices.Sort, which is both
// the serial program and the baseline a Go user has. The anchor figure is
// 10 M keys; 5 M keeps a run under half a second serially.
const (
	sortN      = 5_000_000
	sortNQuick = 500_000
)

func init() {
	register(&benchmark{
		name:             "sort",
		suite:            suiteMain,
		order:            60,
		about:            "sortpar.Sort of random int64 keys; baseline: slices.Sort (= the serial row)",
		size:             func(q bool) string { return fmt.Sprintf("n=%d int64", pick(q, sortN, sortNQuick)) },
		variants:         []string{variantSerial, variantGofork},
		baselineIsSerial: true,
		setup:            setupSort,
	})
}

func setupSort(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, sortN, sortNQuick)
	rng := rand.New(rand.NewPCG(1, 1))
	master := make([]int64, n)
	for i := range master {
		master[i] = rng.Int64()
	}
	want := slices.Clone(master)
	slices.Sort(want)
	data := make([]int64, n)
	j := &job{
		reset: func() { copy(data, master) },
		verify: func() error {
			if !slices.Equal(data, want) {
				return fmt.Errorf("sort: result of %d keys differs from slices.Sort", n)
			}
			return nil
		},
	}
	switch variant {
	case variantSerial:
		j.run = func() { slices.Sort(data) }
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() { sortpar.SortWith(data, sortpar.WithPool(pool)) }
		j.close = pool.Close
	default:
		return nil, fmt.Errorf("sort: no variant %q", variant)
	}
	return j, nil
}
