package gofork_test

import (
	"cmp"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// fuzzAffine is x -> a*x + b modulo 2^64: an associative, non-commutative
// op, so that any combination out of order shows.
type fuzzAffine struct{ a, b uint64 }

func fuzzThen(f, g fuzzAffine) fuzzAffine { return fuzzAffine{g.a * f.a, g.a*f.b + g.b} }

// FuzzPrimitives checks reduce.Scan and ScanInclusive, par.Filter and
// sortpar.Merge and MergeFunc against their serial loops on inputs decoded
// from data: little-endian int16s, stretched to up to 64 times their
// length (so that the scans leave their serial cutoff), on a pool of 1 to
// 4 workers, with a partitioner, a filter rule and a merge split picked by
// the other arguments.
func FuzzPrimitives(f *testing.F) {
	f.Add([]byte("\x05\x00\xff\xff\x03\x00\x00\x80\x10\x27"), uint8(3), uint8(1), uint8(7))
	f.Add([]byte("\x01\x00\x01\x00\x01\x00\x02\x00"), uint8(63), uint8(2), uint8(0))
	f.Add([]byte{}, uint8(0), uint8(0), uint8(0))
	pools := map[int]*core.Pool{}
	defer func() {
		for _, p := range pools {
			p.Close()
		}
	}()
	f.Fuzz(func(t *testing.T, data []byte, stretch, workers, knobs uint8) {
		w := int(workers%4) + 1
		pool := pools[w]
		if pool == nil {
			pool = core.New(core.WithWorkers(w))
			pools[w] = pool
		}
		base := make([]int16, len(data)/2)
		for i := range base {
			base[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
		}
		x := make([]int64, len(base)*(int(stretch%64)+1))
		for i := range x {
			x[i] = int64(base[i%len(base)]) + int64(i/len(base))
		}
		part := []par.Option{par.Auto(), par.Simple(int(knobs%16) + 1), par.Static(), par.Grain(int(knobs) + 1)}[knobs%4]
		opts := []par.Option{part, par.WithPool(pool)}

		// Scan, ScanInclusive, into dst and in place.
		fs := make([]fuzzAffine, len(x))
		for i, v := range x {
			fs[i] = fuzzAffine{uint64(v)*2 + 1, uint64(v)}
		}
		excl, incl := make([]fuzzAffine, len(fs)), make([]fuzzAffine, len(fs))
		acc := fuzzAffine{1, 0}
		for i, v := range fs {
			excl[i] = acc
			acc = fuzzThen(acc, v)
			incl[i] = acc
		}
		dst := make([]fuzzAffine, len(fs))
		if got := reduce.Scan(dst, fs, fuzzAffine{1, 0}, fuzzThen, par.WithPool(pool)); got != acc || !slices.Equal(dst, excl) {
			t.Fatalf("Scan of %d elements differs from the serial loop", len(fs))
		}
		reduce.ScanInclusive(fs, fs, fuzzThen, par.WithPool(pool))
		if !slices.Equal(fs, incl) {
			t.Fatalf("in-place ScanInclusive of %d elements differs from the serial loop", len(fs))
		}

		// Filter.
		m := int64(knobs%5) + 1
		keep := func(v int64) bool { return v%m == 0 }
		var want []int64
		for _, v := range x {
			if keep(v) {
				want = append(want, v)
			}
		}
		if got := par.Filter(x, keep, opts...); !slices.Equal(got, want) {
			t.Fatalf("Filter(%d elements, %%%d) kept %d, want %d", len(x), m, len(got), len(want))
		}

		// Merge and MergeFunc of two sorted parts, split where knobs says.
		cut := 0
		if len(x) > 0 {
			cut = int(knobs) * len(x) / 255
		}
		a, b := slices.Clone(x[:cut]), slices.Clone(x[cut:])
		slices.Sort(a)
		slices.Sort(b)
		sorted := slices.Concat(a, b)
		slices.Sort(sorted)
		sopts := []par.Option{par.WithPool(pool), par.Grain(int(stretch%32) + 2)}
		merged := make([]int64, len(x))
		sortpar.Merge(merged, a, b, sopts...)
		if !slices.Equal(merged, sorted) {
			t.Fatalf("Merge of %d and %d elements is not sorted", len(a), len(b))
		}
		// (value/4, origin) pairs: ties must take a's first.
		type tagged struct{ k, i int64 }
		ta, tb := make([]tagged, len(a)), make([]tagged, len(b))
		for i, v := range a {
			ta[i] = tagged{v / 4, int64(i)}
		}
		for i, v := range b {
			tb[i] = tagged{v / 4, int64(len(a) + i)}
		}
		byK := func(p, q tagged) int { return cmp.Compare(p.k, q.k) }
		wantT := slices.Concat(ta, tb)
		slices.SortStableFunc(wantT, byK)
		gotT := make([]tagged, len(wantT))
		sortpar.MergeFunc(gotT, ta, tb, byK, sopts...)
		if !slices.Equal(gotT, wantT) {
			t.Fatalf("MergeFunc of %d and %d elements is not the stable merge", len(ta), len(tb))
		}
	})
}
