package sortpar

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// FuzzSort compares Sort, SortFunc and SortStableFunc (with options) with
// package slices on inputs decoded from data: int16s, float64s (any bit
// pattern, NaNs included) and (key, index) pairs. cutoff and workers pick
// the configuration. Seeds are in testdata/fuzz/FuzzSort.
func FuzzSort(f *testing.F) {
	f.Add([]byte("\x05\x00\x01\x00\xff\xff\x03\x00\x00\x80"), uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, cutoff, workers uint8) {
		pool := core.New(core.WithWorkers(int(workers%4) + 1))
		defer pool.Close()
		opts := []par.Option{par.WithPool(pool), par.Grain(int(cutoff%64) + 2)}

		ints := make([]int16, len(data)/2)
		for i := range ints {
			ints[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
		}
		want := slices.Clone(ints)
		slices.Sort(want)
		got := slices.Clone(ints)
		Sort(got, opts...)
		if !slices.Equal(got, want) {
			t.Fatalf("Sort(%v) = %v, want %v", ints, got, want)
		}
		got = slices.Clone(ints)
		SortFunc(got, cmp.Compare[int16], opts...)
		if !slices.Equal(got, want) {
			t.Fatalf("SortFunc(%v) = %v, want %v", ints, got, want)
		}

		floats := make([]float64, len(data)/8)
		for i := range floats {
			floats[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
		}
		wantf := slices.Clone(floats)
		slices.Sort(wantf)
		gotf := slices.Clone(floats)
		Sort(gotf, opts...)
		if !slices.EqualFunc(gotf, wantf, func(a, b float64) bool { return cmp.Compare(a, b) == 0 }) ||
			!sameMultiset(gotf, floats, floatBitsCmp) {
			t.Fatalf("Sort(%v) = %v, want %v", floats, gotf, wantf)
		}

		p := make([]pair, len(data))
		for i, b := range data {
			p[i] = pair{int(b % 7), i}
		}
		wantp := slices.Clone(p)
		slices.SortStableFunc(wantp, cmpPair)
		SortStableFunc(p, cmpPair, opts...)
		if !slices.Equal(p, wantp) {
			t.Fatalf("SortStableFuncWith = %v, want %v", p, wantp)
		}
	})
}
