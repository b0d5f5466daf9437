package gofork_test

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/sortpar"
)

// Sorting benchmarks (issue 9). Each benchmark sorts one element type for
// every input pattern, with the serial baseline from package slices
// ("serial") and sortpar on pools of 1 and 2 workers in the same run. A
// fresh copy of the input is made before every iteration with the timer
// stopped. Sizes: 10M numbers and structs, 1M strings; -short divides by 100.
//
//	GOMAXPROCS=2 flock /tmp/gofork-bench.lock go test -run '^$' -bench 'Sortpar' -benchtime 3x -count 5 .

// sortparPatterns are the input shapes: a value for index i of n.
var sortparPatterns = []struct {
	name string
	gen  func(rng *rand.Rand, i, n int) int64
}{
	{"random", func(rng *rand.Rand, _, _ int) int64 { return int64(rng.Uint64()) }},
	{"sorted", func(_ *rand.Rand, i, _ int) int64 { return int64(i) }},
	{"reversed", func(_ *rand.Rand, i, n int) int64 { return int64(n - i) }},
	{"equal", func(_ *rand.Rand, _, _ int) int64 { return 42 }},
	{"few16", func(rng *rand.Rand, _, _ int) int64 { return int64(rng.IntN(16)) }},
	{"sawtooth", func(_ *rand.Rand, i, n int) int64 { return int64(i % (n/16 + 1)) }},
	{"organpipe", func(_ *rand.Rand, i, n int) int64 { return int64(min(i, n-i)) }},
}

// sortparN returns the benchmark length: n, or n/100 under -short.
func sortparN(n int) int {
	if testing.Short() {
		return n / 100
	}
	return n
}

// sortparSizeName writes n as 1e7 and the like.
func sortparSizeName(n int) string {
	e := 0
	for m := n; m >= 10 && m%10 == 0; m /= 10 {
		e++
	}
	if n == pow10(e) {
		return fmt.Sprintf("n=1e%d", e)
	}
	return fmt.Sprintf("n=%d", n)
}

func pow10(e int) int {
	r := 1
	for range e {
		r *= 10
	}
	return r
}

// sortparInput returns n values of pattern p mapped through conv.
func sortparInput[E any](p, n int, conv func(rng *rand.Rand, v int64) E) []E {
	rng := rand.New(rand.NewPCG(1, uint64(p)))
	x := make([]E, n)
	for i := range x {
		x[i] = conv(rng, sortparPatterns[p].gen(rng, i, n))
	}
	return x
}

// sortparRun benchmarks sort on fresh copies of in, timing only the sort.
func sortparRun[E any](b *testing.B, in []E, sort func([]E)) {
	x := make([]E, len(in))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(x, in)
		b.StartTimer()
		sort(x)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(in)), "ns/elem")
}

// sortparCase is one contender: a name and a sort given the pool (nil for
// the serial baseline).
type sortparCase[E any] struct {
	name string
	sort func(x []E, pool *core.Pool)
}

// sortparBench runs every pattern × contender; the "serial" contender gets
// no pool, "p=1" and "p=2" get a fresh pool of that many workers, closed
// after the sub-benchmark (so no other pool's workers are around).
func sortparBench[E any](b *testing.B, n int, conv func(rng *rand.Rand, v int64) E, cases []sortparCase[E]) {
	workers := map[string]int{"p=1": 1, "p=2": 2}
	for p := range sortparPatterns {
		in := sortparInput(p, n, conv)
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s/dist=%s/%s", sortparSizeName(n), sortparPatterns[p].name, c.name), func(b *testing.B) {
				var pool *core.Pool
				if w := workers[c.name]; w > 0 {
					pool = core.New(core.WithWorkers(w))
					defer pool.Close()
				}
				sortparRun(b, in, func(x []E) { c.sort(x, pool) })
			})
		}
	}
}

// sortparOrderedCases: slices.Sort against sortpar.SortWith at p=1, p=2.
func sortparOrderedCases[E cmp.Ordered]() []sortparCase[E] {
	return []sortparCase[E]{
		{"serial", func(x []E, _ *core.Pool) { slices.Sort(x) }},
		{"p=1", func(x []E, p *core.Pool) { sortpar.SortWith(x, sortpar.WithPool(p)) }},
		{"p=2", func(x []E, p *core.Pool) { sortpar.SortWith(x, sortpar.WithPool(p)) }},
	}
}

func BenchmarkSortparInt64(b *testing.B) {
	sortparBench(b, sortparN(10_000_000), func(_ *rand.Rand, v int64) int64 { return v }, sortparOrderedCases[int64]())
}

func BenchmarkSortparFloat64(b *testing.B) {
	sortparBench(b, sortparN(10_000_000), func(rng *rand.Rand, v int64) float64 { return float64(v) / 1024 }, sortparOrderedCases[float64]())
}

// BenchmarkSortparString sorts 16-byte strings: 16 random bytes for the
// random pattern, otherwise the pattern value big-endian after a shared
// 8-byte prefix (so the order follows the pattern).
func BenchmarkSortparString(b *testing.B) {
	sortparBench(b, sortparN(1_000_000), func(rng *rand.Rand, v int64) string {
		var s [16]byte
		if v > 1<<32 || v < 0 { // the random pattern
			binary.LittleEndian.PutUint64(s[:8], rng.Uint64())
			binary.LittleEndian.PutUint64(s[8:], rng.Uint64())
		} else {
			copy(s[:8], "sortpar!")
			binary.BigEndian.PutUint64(s[8:], uint64(v))
		}
		return string(s[:])
	}, sortparOrderedCases[string]())
}

// sortparRecord is the struct of the SortFunc benchmarks: sorted by key.
type sortparRecord struct {
	key, payload int64
}

func sortparRecordCmp(a, b sortparRecord) int { return cmp.Compare(a.key, b.key) }

func sortparRecords(_ *rand.Rand, v int64) sortparRecord { return sortparRecord{v, v ^ 0x5bd1e995} }

func BenchmarkSortparStructFunc(b *testing.B) {
	sortparBench(b, sortparN(10_000_000), sortparRecords, []sortparCase[sortparRecord]{
		{"serial", func(x []sortparRecord, _ *core.Pool) { slices.SortFunc(x, sortparRecordCmp) }},
		{"p=1", func(x []sortparRecord, p *core.Pool) { sortpar.SortFuncWith(x, sortparRecordCmp, sortpar.WithPool(p)) }},
		{"p=2", func(x []sortparRecord, p *core.Pool) { sortpar.SortFuncWith(x, sortparRecordCmp, sortpar.WithPool(p)) }},
	})
}

func BenchmarkSortparStructStableFunc(b *testing.B) {
	sortparBench(b, sortparN(10_000_000), sortparRecords, []sortparCase[sortparRecord]{
		{"serial", func(x []sortparRecord, _ *core.Pool) { slices.SortStableFunc(x, sortparRecordCmp) }},
		{"p=1", func(x []sortparRecord, p *core.Pool) {
			sortpar.SortStableFuncWith(x, sortparRecordCmp, sortpar.WithPool(p))
		}},
		{"p=2", func(x []sortparRecord, p *core.Pool) {
			sortpar.SortStableFuncWith(x, sortparRecordCmp, sortpar.WithPool(p))
		}},
	})
}
