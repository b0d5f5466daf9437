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

// FuzzSortByKey sorts records by keys decoded from data (int16s, float64s
// of any bits, and strings cut from data at its zero bytes) with
// SortStableByKey, compared with slices.SortStableFunc on cmp.Compare, and
// with SortByKey, checked to be sorted and to hold the same records.
// cutoff and workers pick the configuration.
func FuzzSortByKey(f *testing.F) {
	f.Add([]byte("\x05\x00\x01\x00\xff\xff\x03\x00\x00\x80ab\x00abc\x00\x00a"), uint8(2), uint8(2))
	f.Add([]byte("\x00\x00\x00\x00\x00\x00\xf8\x7f\x00\x00\x00\x00\x00\x00\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00"), uint8(5), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, cutoff, workers uint8) {
		pool := core.New(core.WithWorkers(int(workers%4) + 1))
		defer pool.Close()
		opts := []par.Option{par.WithPool(pool), par.Grain(int(cutoff%64) + 2)}

		ints := make([]int16, len(data)/2)
		for i := range ints {
			ints[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
		}
		fuzzByKey(t, ints, opts)
		floats := make([]float64, len(data)/8)
		for i := range floats {
			floats[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
		}
		fuzzByKey(t, floats, opts)
		var strs []string
		for i := 0; i < len(data); {
			j := i
			for j < len(data) && data[j] != 0 {
				j++
			}
			strs = append(strs, string(data[i:min(j+int(data[i]%2), len(data))])) // some keep their zero byte
			i = j + 1
		}
		fuzzByKey(t, strs, opts)
	})
}

// fuzzByKey checks SortStableByKey and SortByKey on records with keys.
func fuzzByKey[K cmp.Ordered](t *testing.T, keys []K, opts []par.Option) {
	s := newRecords(keys)
	want := slices.Clone(s)
	slices.SortStableFunc(want, func(a, b record[K]) int { return cmp.Compare(a.key, b.key) })
	SortStableByKey(s, func(r record[K]) K { return r.key }, opts...)
	for i := range s {
		if s[i].idx != want[i].idx {
			t.Fatalf("SortStableByKey(%v): [%d] = %v, want %v", keys, i, s[i], want[i])
		}
	}
	s = newRecords(keys)
	SortByKey(s, func(r record[K]) K { return r.key }, opts...)
	checkRecords(t, "SortByKey", s, keys, func(a, b K) bool { return sameBits(a, b) })
	for i := range s {
		if cmp.Compare(s[i].key, want[i].key) != 0 {
			t.Fatalf("SortByKey(%v): [%d] = %v, want key %v", keys, i, s[i], want[i].key)
		}
	}
}
