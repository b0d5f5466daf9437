package main

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

// sort-key: sortpar.SortByKey of the 32-byte records of sort-func by their
// int64 field, against what a Go user writes, slices.SortFunc with
// cmp.Compare on the field (the serial row). Same records and checks as
// sort-func, so the two rows read side by side.
const (
	sortKeyN      = 2_000_000
	sortKeyNQuick = 200_000
)

func init() {
	register(sortBenchmark("sort-key", 63, "sortpar uses an in-place radix sort on the key",
		"sortpar.SortByKey of 32-byte records by a random int64 field", "slices.SortFunc",
		func(q bool) string { return fmt.Sprintf("n=%d records", pick(q, sortKeyN, sortKeyNQuick)) }, setupSortKey))
}

func sortRecordKey(r sortRecord) int64 { return r.key }

func setupSortKey(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, sortKeyN, sortKeyNQuick)
	keys := newSortKeys(n)
	data := make([]sortRecord, n)
	j := &job{
		reset: func() {
			for i, v := range keys.master {
				data[i] = sortRecord{v, v ^ 1, v ^ 2, v ^ 3}
			}
		},
		verify: func() error { return checkSortRecords("sort-key", data, keys) },
	}
	return bindSort("sort-key", variant, p, j,
		func() { slices.SortFunc(data, func(a, b sortRecord) int { return cmp.Compare(a.key, b.key) }) },
		func(pool *core.Pool) { sortpar.SortByKey(data, sortRecordKey, par.WithPool(pool)) })
}

// checkSortRecords reports an error, prefixed with name, unless data is
// sorted by key, untorn, and holds the keys' multiset.
func checkSortRecords(name string, data []sortRecord, keys sortKeys) error {
	var s, x int64
	for i, r := range data {
		if r.a != r.key^1 || r.b != r.key^2 || r.c != r.key^3 {
			return fmt.Errorf("%s: record %d was torn", name, i)
		}
		if i > 0 && r.key < data[i-1].key {
			return fmt.Errorf("%s: records %d, %d out of order", name, i-1, i)
		}
		s += r.key
		x ^= r.key
	}
	if s != keys.sum || x != keys.xor {
		return fmt.Errorf("%s: result is not a permutation of the input", name)
	}
	return nil
}
