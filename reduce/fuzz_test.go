package reduce_test

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// fuzzPools returns a pool of w workers, made once per fuzzing process,
// and a function that closes them all.
func fuzzPools() (get func(w int) *core.Pool, closeAll func()) {
	pools := map[int]*core.Pool{}
	get = func(w int) *core.Pool {
		if pools[w] == nil {
			pools[w] = core.New(core.WithWorkers(w))
		}
		return pools[w]
	}
	return get, func() {
		for _, p := range pools {
			p.Close()
		}
	}
}

// fuzzInts decodes data as little-endian int16s and stretches them to
// (stretch+1) times their length, adding the copy number, so that short
// inputs still span many blocks; at most 2^18 elements.
func fuzzInts(data []byte, stretch int) []int64 {
	base := make([]int16, len(data)/2)
	for i := range base {
		base[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
	}
	x := make([]int64, min(len(base)*(stretch+1), 1<<18))
	for i := range x {
		x[i] = int64(base[i%len(base)]) + int64(i/len(base))
	}
	return x
}

// FuzzPrefixSum checks PrefixSum, PrefixSumInclusive and ScanBlocks
// against the serial loops on inputs decoded from data, on 1 to 4
// workers, into a fresh dst and in place, PrefixSum on int64 and on int8
// (whose sums wrap), ScanBlocks with a non-commutative op and blocks of 1
// to 64 elements, so that blocks are folded and handed off.
func FuzzPrefixSum(f *testing.F) {
	f.Add([]byte("\x05\x00\xff\xff\x03\x00\x00\x80\x10\x27"), uint8(200), uint8(1), uint8(3))
	f.Add([]byte("\x01\x00\x01\x00\x01\x00\x02\x00"), uint8(255), uint8(3), uint8(0))
	f.Add([]byte{}, uint8(0), uint8(0), uint8(0))
	pool, closeAll := fuzzPools()
	defer closeAll()
	f.Fuzz(func(t *testing.T, data []byte, stretch, workers, block uint8) {
		p := pool(int(workers%4) + 1)
		opt := par.WithPool(p)
		x := fuzzInts(data, int(stretch)*64) // up to 2^14 copies: past a block of int64s
		excl, incl, total := prefixOracle(x)
		dst := make([]int64, len(x))
		if got := reduce.PrefixSum(dst, x, opt); got != total || !slices.Equal(dst, excl) {
			t.Fatalf("PrefixSum of %d int64s differs from the serial loop", len(x))
		}
		in := slices.Clone(x)
		reduce.PrefixSumInclusive(in, in, opt)
		if !slices.Equal(in, incl) {
			t.Fatalf("in-place PrefixSumInclusive of %d int64s differs from the serial loop", len(x))
		}
		b := make([]int8, len(x))
		for i, v := range x {
			b[i] = int8(v)
		}
		bExcl, _, bTotal := prefixOracle(b)
		if got := reduce.PrefixSum(b, b, opt); got != bTotal || !slices.Equal(b, bExcl) {
			t.Fatalf("in-place PrefixSum of %d int8s differs from the serial loop", len(b))
		}

		fs := make([]affine, len(x))
		for i, v := range x {
			fs[i] = affine{uint64(v)*2 + 1, uint64(v)}
		}
		fExcl, _, fTotal := scanOracle(fs, affineID, then)
		fDst := make([]affine, len(fs))
		calls := newBlockCalls(len(fs), int(block%64)+1)
		if got := scanBlocksAffine(fDst, fs, int(block%64)+1, calls, opt); got != fTotal || !slices.Equal(fDst, fExcl) {
			t.Fatalf("ScanBlocks of %d elements in blocks of %d differs from the serial loop", len(fs), block%64+1)
		}
		calls.verify(t, p.Workers() == 1)
	})
}

// FuzzCounts checks Counts against the counting loop on keys decoded from
// data (int16s, stretched, some outside the buckets), on 1 to 4 workers:
// it must give the loop's counts, or panic naming the first bad key when
// run serially and some bad key otherwise.
func FuzzCounts(f *testing.F) {
	f.Add([]byte("\x05\x00\x01\x00\x03\x00\x00\x00\x10\x00"), uint16(17), uint8(200), uint8(1))
	f.Add([]byte("\x01\x00\xff\xff"), uint16(2), uint8(3), uint8(2))
	f.Add([]byte{}, uint16(0), uint8(0), uint8(0))
	pool, closeAll := fuzzPools()
	defer closeAll()
	f.Fuzz(func(t *testing.T, data []byte, buckets uint16, stretch, workers uint8) {
		p := pool(int(workers%4) + 1)
		x := fuzzInts(data, int(stretch)*8)
		keys := make([]int64, len(x))
		bad := map[string]bool{}
		firstBad := ""
		for i, v := range x {
			keys[i] = v % (int64(buckets) + 3) // a few above the range, negative ones from data
			if keys[i] < 0 || keys[i] >= int64(buckets) {
				msg := fmt.Sprintf("reduce: Counts: keys[%d] = %d, outside [0, %d)", i, keys[i], buckets)
				bad[msg] = true
				if firstBad == "" {
					firstBad = msg
				}
			}
		}
		var got []int
		v := catch(func() { got = reduce.Counts(keys, int(buckets), par.WithPool(p)) })
		if len(bad) > 0 {
			if s, ok := v.(string); !ok || !bad[s] || (len(keys) <= reduce.CountsSerialMax || p.Workers() == 1) && s != firstBad {
				t.Fatalf("%d keys, some outside [0, %d): recovered %v, want %q or another bad key's panic", len(keys), buckets, v, firstBad)
			}
			return
		}
		if v != nil {
			t.Fatalf("%d keys in [0, %d): panic %v", len(keys), buckets, v)
		}
		if want := countsOracle(keys, int(buckets)); !slices.Equal(got, want) {
			t.Fatalf("Counts of %d keys into %d buckets differs from the counting loop", len(keys), buckets)
		}
	})
}
