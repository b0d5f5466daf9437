package par_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
)

// matchPositions returns where the tests put the first match in a slice of
// n: at both ends, around the serial head and the doubling ranges' ends,
// and nowhere (-1).
func matchPositions(n int) []int {
	h := par.SearchHead
	s := []int{-1, 0, 1, h - 1, h, h + 1, 2*h - 1, 2 * h, 3*h + 5, 4*h + 1, n / 2, n - 2, n - 1}
	for k := 14; 1<<k < n && !raceEnabled; k += 3 {
		s = append(s, 1<<k-1, 1<<k+1)
	}
	s = slices.DeleteFunc(s, func(i int) bool { return i >= n })
	slices.Sort(s)
	return slices.Compact(s)
}

// placeMatches clears x and puts 1 at at, the first match, and at a few
// places after it (nowhere if at is -1).
func placeMatches(x []int32, at int) {
	clear(x)
	if at < 0 {
		return
	}
	for _, i := range []int{at, at + 1, at + 700, len(x) - 1} {
		if i < len(x) {
			x[i] = 1
		}
	}
}

// searchLimit is the most elements a search of n elements with p workers
// and blocks of b may check when the first match is at at: O(i + p·b).
// Every range before the one holding the match is at most i long, that
// range too, and once the match is known each worker ends its block.
func searchLimit(at, n, p, b int) int64 {
	if at < 0 {
		return int64(n)
	}
	return int64(par.SearchHead + 3*(at+1) + 2*p*b)
}

func TestIndexFunc(t *testing.T) {
	n := 300_001
	if testing.Short() || raceEnabled {
		n = 40_001
	}
	x := make([]int32, n)
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, at := range matchPositions(n) {
				placeMatches(x, at)
				var calls atomic.Int64
				hit := func(v int32) bool { calls.Add(1); return v == 1 }
				if got := par.IndexFunc(x, hit, opts...); got != at {
					t.Fatalf("%s: first match at %d: IndexFunc = %d", pt.name, at, got)
				}
				if c, limit := calls.Load(), searchLimit(at, n, p.Workers(), par.SearchBlock); c > limit {
					t.Errorf("%s: first match at %d: f called %d times, more than %d", pt.name, at, c, limit)
				}
				if got := par.ContainsFunc(x, hit, opts...); got != (at >= 0) {
					t.Fatalf("%s: match at %d: ContainsFunc = %v", pt.name, at, got)
				}
			}
		}
	})
}

func TestIndexFuncPanic(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		x := make([]int, 100_000)
		x[90_000] = 1
		v := catch(func() {
			par.IndexFunc(x, func(v int) bool {
				if v == 1 {
					panic("found it")
				}
				return false
			}, par.WithPool(p))
		})
		if v != "found it" {
			t.Errorf("recovered %v", v)
		}
	})
	if v := catch(func() { par.IndexFunc([]int{1}, nil) }); v != "par: IndexFunc with a nil f" {
		t.Errorf("nil f: %v", v)
	}
	if v := catch(func() { par.ContainsFunc([]int{1}, nil) }); v != "par: ContainsFunc with a nil f" {
		t.Errorf("ContainsFunc, nil f: %v", v)
	}
}

func TestIndexAndIndexBlocks(t *testing.T) {
	n := 300_001
	if testing.Short() || raceEnabled {
		n = 40_001
	}
	x := make([]int32, n)
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			if raceEnabled && pt.name != "auto" && pt.name != "static" {
				continue // IndexFunc's test runs the shared search under every partitioner
			}
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, at := range matchPositions(n) {
				placeMatches(x, at)
				if got := par.Index(x, 1, opts...); got != at {
					t.Fatalf("%s: first match at %d: Index = %d", pt.name, at, got)
				}
				if got := par.Contains(x, 1, opts...); got != (at >= 0) {
					t.Fatalf("%s: first match at %d: Contains = %v", pt.name, at, got)
				}
				var searched atomic.Int64
				blocks := par.IndexBlocks(n, func(lo, hi int) int {
					searched.Add(int64(hi - lo))
					for i := lo; i < hi; i++ {
						if x[i] == 1 {
							return i
						}
					}
					return -1
				}, opts...)
				if blocks != at {
					t.Fatalf("%s: first match at %d: IndexBlocks = %d", pt.name, at, blocks)
				}
				if c, limit := searched.Load(), searchLimit(at, n, p.Workers(), par.IndexBlock); c > limit {
					t.Errorf("%s: first match at %d: %d indices searched, more than %d", pt.name, at, c, limit)
				}
			}
		}
	})
	// Elements that are not plain words: strings, structs with padding.
	words := make([]string, 10_000)
	for i := range words {
		words[i] = fmt.Sprint("w", i)
	}
	if got := par.Index(words, "w7777"); got != 7777 {
		t.Errorf("Index of a string: %d, want 7777", got)
	}
	type pair struct {
		a int8
		b int64
	}
	pairs := make([]pair, 5000)
	pairs[4321] = pair{1, 2}
	if got := par.Index(pairs, pair{1, 2}); got != 4321 {
		t.Errorf("Index of a struct: %d, want 4321", got)
	}
	if par.Index([]int(nil), 0) != -1 || par.Contains([]int(nil), 0) || par.IndexBlocks(0, func(int, int) int { return 0 }) != -1 {
		t.Errorf("an empty search found something")
	}
}

func TestIndexBlocksPanics(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, n := range []int{100, 100_000} {
			want := fmt.Sprintf("par: IndexBlocks: find(%d, %d) returned %d, neither -1 nor in [%[1]d, %[2]d)", 0, min(n, par.SearchHead), n)
			if v := catch(func() { par.IndexBlocks(n, func(lo, hi int) int { return n }, par.WithPool(p)) }); fmt.Sprint(v) != want {
				t.Errorf("n=%d, find returns n: recovered %v, want %q", n, v, want)
			}
		}
		// Past the head, on a worker: the panic reaches the caller.
		v := catch(func() {
			par.IndexBlocks(100_000, func(lo, hi int) int {
				if lo > 50_000 {
					return -2
				}
				return -1
			}, par.WithPool(p))
		})
		if s := fmt.Sprint(v); !strings.HasPrefix(s, "par: IndexBlocks: find(") || !strings.Contains(s, "returned -2") {
			t.Errorf("find returns -2: recovered %v", v)
		}
	})
	if v := catch(func() { par.IndexBlocks(-1, func(int, int) int { return -1 }) }); fmt.Sprint(v) != "par: IndexBlocks with n = -1" {
		t.Errorf("negative n: recovered %v", v)
	}
	if v := catch(func() { par.IndexBlocks(1, nil) }); fmt.Sprint(v) != "par: IndexBlocks with a nil find" {
		t.Errorf("nil find: recovered %v", v)
	}
}

// TestIndexBlocksNear32Bits searches 2^31-1 indices with the match at the
// last: block bounds there pass a 32-bit int's range if taken carelessly.
func TestIndexBlocksNear32Bits(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("millions of blocks")
	}
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	const n = math.MaxInt32
	var bad atomic.Int64
	got := par.IndexBlocks(n, func(lo, hi int) int {
		if lo < 0 || hi > n || hi <= lo {
			bad.Store(int64(lo))
		}
		if hi == n {
			return n - 1
		}
		return -1
	}, par.WithPool(p))
	if got != n-1 || bad.Load() != 0 {
		t.Errorf("IndexBlocks over [0, 2^31-1): %d, want %d (a bad block at %d)", got, n-1, bad.Load())
	}
}
