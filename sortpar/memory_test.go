package sortpar

import (
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// TestSortMemory checks that Sort works in place: sorting 10^7 random
// int64 on two workers allocates at most 2 % of the slice (the workspaces,
// a few hundred KiB per worker, and some bookkeeping), counted by the
// runtime's allocation total, which bounds the heap's growth. A spare that
// the pool starts during the sort (for a worker stalled on a busy machine,
// as under an emulator with other tests beside it) is one more worker, and
// may take a workspace of its own: the bound grows by one workspace, and
// 64 KiB for the spare's own records, for each.
func TestSortMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's own allocations would be counted")
	}
	n := 10_000_000
	x := make([]int64, n)
	r := xorshift(5) // cheap enough for the emulated test runs
	for i := range x {
		x[i] = int64(r.Next())
	}
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()
	var before, after runtime.MemStats
	spares := pool.Stats().SparesStarted
	runtime.ReadMemStats(&before)
	Sort(x, par.WithPool(pool))
	runtime.ReadMemStats(&after)
	spares = pool.Stats().SparesStarted - spares
	if !slices.IsSorted(x) {
		t.Fatal("not sorted")
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	workspace := uint64(newScratch[int64](blockLenFor(8)).limit) * 8
	limit := uint64(n)*8/50 + spares*(workspace+64<<10)
	t.Logf("Sort of %d int64 allocated %d bytes (%.2f %% of the slice), %d spares started", n, alloc, 100*float64(alloc)/float64(8*n), spares)
	if alloc > limit {
		t.Fatalf("Sort of %d int64 allocated %d bytes, more than 2 %% of the slice and a workspace (%d bytes) and 64 KiB for each of the %d spares started (%d)",
			n, alloc, workspace, spares, limit)
	}
}

// TestSmallSortsReuseTheirBuffer checks that sorting a short slice (one
// LSD sort, at most a workspace long) again and again, as a server sorts
// one request's data at a time, allocates nothing in proportion to the
// slice: the LSD sort's second array comes back from the previous sort.
func TestSmallSortsReuseTheirBuffer(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's own allocations would be counted, and sync.Pool drops buffers at random under it")
	}
	for _, n := range []int{defaultCutoff, 20_000, 50_000} {
		src := make([]int64, n)
		r := xorshift(uint64(n))
		for i := range src {
			src[i] = int64(r.Next())
		}
		x := slices.Clone(src)
		Sort(x) // the first sort makes the buffer
		const sorts = 40
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range sorts {
			copy(x, src)
			Sort(x)
		}
		runtime.ReadMemStats(&after)
		if !slices.IsSorted(x) {
			t.Fatalf("n = %d: not sorted", n)
		}
		// A collection in the loop may empty the pool once, which costs
		// one buffer in all: 1/5 of the slice a sort.
		per := (after.TotalAlloc - before.TotalAlloc) / sorts
		t.Logf("n = %d: %d bytes a sort", n, per)
		if limit := uint64(8*n) / 2; per > limit {
			t.Errorf("n = %d: a sort allocated %d bytes, more than half the slice (%d bytes): its buffer was not reused", n, per, limit)
		}
	}
}

// TestSortByKeyMemory checks that SortByKey works in place: sorting 10^7
// random 32-byte records by an int64 field on two workers allocates at
// most 2 % of the slice, counted by the runtime's allocation total. The
// 320 MB input is too much for -short and 32-bit runs.
func TestSortByKeyMemory(t *testing.T) {
	if raceEnabled || testing.Short() || unsafe.Sizeof(uintptr(0)) < 8 {
		t.Skip("needs 320 MB and no race detector")
	}
	type rec struct{ id, a, b, c int64 }
	n := 10_000_000
	x := make([]rec, n)
	r := xorshift(7)
	for i := range x {
		v := int64(r.Next())
		x[i] = rec{v, v ^ 1, v ^ 2, v ^ 3}
	}
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	SortByKey(x, func(e rec) int64 { return e.id }, par.WithPool(pool))
	runtime.ReadMemStats(&after)
	for i := 1; i < n; i++ {
		if x[i-1].id > x[i].id || x[i].a != x[i].id^1 || x[i].c != x[i].id^3 {
			t.Fatalf("[%d] = %v after [%d] = %v: not sorted or torn", i, x[i], i-1, x[i-1])
		}
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	size := uint64(n) * uint64(unsafe.Sizeof(rec{}))
	t.Logf("SortByKey of %d 32-byte records allocated %d bytes (%.2f %% of the slice)", n, alloc, 100*float64(alloc)/float64(size))
	if limit := size / 50; alloc > limit {
		t.Fatalf("SortByKey of %d records allocated %d bytes, more than 2 %% of the slice (%d)", n, alloc, limit)
	}
}
