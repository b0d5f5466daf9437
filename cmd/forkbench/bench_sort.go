package main

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
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
		name:            "sort",
		suite:           suiteMain,
		order:           60,
		note:            "Ts and the baseline are both slices.Sort (pdqsort); sortpar uses a radix sort on integers",
		about:           "sortpar.Sort of random int64 keys; baseline: slices.Sort (= the serial row)",
		size:            func(q bool) string { return fmt.Sprintf("n=%d int64", pick(q, sortN, sortNQuick)) },
		variants:        []string{variantSerial, variantGofork},
		baselineVariant: variantSerial,
		baseline:        "slices.Sort",
		cutoff:          "sortpar.Sort's own leaves; slices.Sort is serial",
		setup:           setupSort,
	})
}

func setupSort(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, sortN, sortNQuick)
	keys := newSortKeys(n)
	data := make([]int64, n)
	j := &job{
		reset:  func() { copy(data, keys.master) },
		verify: func() error { return keys.check("sort", data) },
	}
	switch variant {
	case variantSerial:
		j.run = func() { slices.Sort(data) }
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() { sortpar.Sort(data, par.WithPool(pool)) }
		j.close = pool.Close
	default:
		return nil, fmt.Errorf("sort: no variant %q", variant)
	}
	return j, nil
}

// sortKeys are the random keys a sorting benchmark sorts, with their sum and
// xor: a sorted result whose checksums match is the same multiset, with no
// third copy of the keys to compare with, which would weigh on the peak RSS.
type sortKeys struct {
	master   []int64
	sum, xor int64
}

func newSortKeys(n int) sortKeys {
	rng := rand.New(rand.NewPCG(1, 1))
	k := sortKeys{master: make([]int64, n)}
	for i := range k.master {
		k.master[i] = rng.Int64()
		k.sum += k.master[i]
		k.xor ^= k.master[i]
	}
	return k
}

// check reports an error, prefixed with name, unless data is sorted and a
// permutation of the keys.
func (k sortKeys) check(name string, data []int64) error {
	if !slices.IsSorted(data) {
		return fmt.Errorf("%s: result of %d keys is not sorted", name, len(data))
	}
	var s, x int64
	for _, v := range data {
		s += v
		x ^= v
	}
	if s != k.sum || x != k.xor {
		return fmt.Errorf("%s: result is not a permutation of the input", name)
	}
	return nil
}
