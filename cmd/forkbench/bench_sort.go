package main

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

// sort: sortpar.Sort of random int64 keys against slices.Sort, which is both
// the serial program and the baseline a Go user has. The anchor figure is
// 10 M keys; 5 M keeps a run under half a second serially. sort-func and
// sort-string do the same for sortpar.SortFunc on 32-byte records and for
// sortpar.Sort on strings. Every sortpar sort works in place: the peak RSS
// column shows it beside slices'.
const (
	sortN            = 5_000_000
	sortNQuick       = 500_000
	sortFuncN        = 2_000_000
	sortFuncNQuick   = 200_000
	sortStringN      = 1_000_000
	sortStringNQuick = 100_000
)

func init() {
	register(sortBenchmark("sort", 60, "sortpar uses a radix sort on integers",
		"sortpar.Sort of random int64 keys", "slices.Sort",
		func(q bool) string { return fmt.Sprintf("n=%d int64", pick(q, sortN, sortNQuick)) }, setupSort))
	register(sortBenchmark("sort-func", 61, "sortpar uses an in-place samplesort",
		"sortpar.SortFunc of 32-byte records by a random int64 key", "slices.SortFunc",
		func(q bool) string { return fmt.Sprintf("n=%d records", pick(q, sortFuncN, sortFuncNQuick)) }, setupSortFunc))
	register(sortBenchmark("sort-string", 62, "sortpar uses an in-place samplesort",
		"sortpar.Sort of random 16-byte strings", "slices.Sort",
		func(q bool) string { return fmt.Sprintf("n=%d strings", pick(q, sortStringN, sortStringNQuick)) }, setupSortString))
}

// sortBenchmark describes a sort benchmark of the main suite, whose serial
// program is also the Go baseline.
func sortBenchmark(name string, order int, how, what, baseline string, size func(bool) string,
	setup func(variant string, p int, quick bool) (*job, error)) *benchmark {
	return &benchmark{
		name:            name,
		suite:           suiteMain,
		order:           order,
		note:            fmt.Sprintf("Ts and the baseline are both %s; %s", baseline, how),
		about:           fmt.Sprintf("%s; baseline: %s (= the serial row)", what, baseline),
		size:            size,
		variants:        []string{variantSerial, variantGofork},
		baselineVariant: variantSerial,
		baseline:        baseline,
		cutoff:          fmt.Sprintf("%s's own leaves; %s is serial", strings.Fields(what)[0], baseline),
		setup:           setup,
	}
}

// bindSort sets j.run, and j.close, for the variant: serial runs serial,
// gofork runs gofork on a new pool of p workers.
func bindSort(name, variant string, p int, j *job, serial func(), gofork func(*core.Pool)) (*job, error) {
	switch variant {
	case variantSerial:
		j.run = serial
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() { gofork(pool) }
		j.close = pool.Close
		j.pool = pool
	default:
		return nil, fmt.Errorf("%s: no variant %q", name, variant)
	}
	return j, nil
}

// sortRecord is what sort-func sorts: 32 bytes, ordered by key; the other
// fields follow the key, so a sorted result is checked by key alone and
// by the checksums of the keys.
type sortRecord struct {
	key, a, b, c int64
}

func sortRecordCmp(x, y sortRecord) int { return cmp.Compare(x.key, y.key) }

func setupSortFunc(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, sortFuncN, sortFuncNQuick)
	keys := newSortKeys(n)
	data := make([]sortRecord, n)
	j := &job{
		reset: func() {
			for i, v := range keys.master {
				data[i] = sortRecord{v, v ^ 1, v ^ 2, v ^ 3}
			}
		},
		verify: func() error {
			var s, x int64
			for i, r := range data {
				if r.a != r.key^1 || r.b != r.key^2 || r.c != r.key^3 {
					return fmt.Errorf("sort-func: record %d was torn", i)
				}
				if i > 0 && r.key < data[i-1].key {
					return fmt.Errorf("sort-func: records %d, %d out of order", i-1, i)
				}
				s += r.key
				x ^= r.key
			}
			if s != keys.sum || x != keys.xor {
				return fmt.Errorf("sort-func: result is not a permutation of the input")
			}
			return nil
		},
	}
	return bindSort("sort-func", variant, p, j, func() { slices.SortFunc(data, sortRecordCmp) },
		func(pool *core.Pool) { sortpar.SortFunc(data, sortRecordCmp, par.WithPool(pool)) })
}

func setupSortString(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, sortStringN, sortStringNQuick)
	rng := rand.New(rand.NewPCG(2, 2))
	master := make([]string, n)
	var b [16]byte
	for i := range master {
		binary.LittleEndian.PutUint64(b[:8], rng.Uint64())
		binary.LittleEndian.PutUint64(b[8:], rng.Uint64())
		master[i] = string(b[:])
	}
	sum := stringsSum(master)
	data := make([]string, n)
	j := &job{
		reset: func() { copy(data, master) },
		verify: func() error {
			if !slices.IsSorted(data) {
				return fmt.Errorf("sort-string: result of %d strings is not sorted", n)
			}
			if stringsSum(data) != sum {
				return fmt.Errorf("sort-string: result is not a permutation of the input")
			}
			return nil
		},
	}
	return bindSort("sort-string", variant, p, j, func() { slices.Sort(data) },
		func(pool *core.Pool) { sortpar.Sort(data, par.WithPool(pool)) })
}

func setupSort(variant string, p int, quick bool) (*job, error) {
	n := pick(quick, sortN, sortNQuick)
	keys := newSortKeys(n)
	data := make([]int64, n)
	j := &job{
		reset:  func() { copy(data, keys.master) },
		verify: func() error { return keys.check("sort", data) },
	}
	return bindSort("sort", variant, p, j, func() { slices.Sort(data) },
		func(pool *core.Pool) { sortpar.Sort(data, par.WithPool(pool)) })
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

// stringsSum is a checksum of a multiset of strings that orders do not
// change: the sum of a hash of each.
func stringsSum(s []string) uint64 {
	var sum uint64
	for _, v := range s {
		h := uint64(14695981039346656037) // FNV-1a
		for i := range len(v) {
			h ^= uint64(v[i])
			h *= 1099511628211
		}
		sum += h
	}
	return sum
}
