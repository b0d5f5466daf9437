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

func TestFilterBlocksMatchesAppendLoop(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, n := range packSizes() {
				x := packInput(n, uint64(n)+1)
				for _, k := range keepRules {
					if skipLong(n, pt.name, k.name) {
						continue
					}
					var want []uint64
					for _, v := range x {
						if k.f(v) {
							want = append(want, v)
						}
					}
					seen := make([]atomic.Int32, n)
					got := par.FilterBlocks(n, func(lo, hi int, dst []uint64) []uint64 {
						for i, v := range x[lo:hi] {
							seen[lo+i].Add(1)
							if k.f(v) {
								dst = append(dst, v)
							}
						}
						return dst
					}, opts...)
					if !slices.Equal(got, want) || (got == nil) != (len(want) == 0) {
						t.Fatalf("%s n=%d %s: FilterBlocks kept %d elements, the append loop %d, or others (nil: %v)",
							pt.name, n, k.name, len(got), len(want), got == nil)
					}
					for i := range seen {
						if c := seen[i].Load(); c != 1 {
							t.Fatalf("%s n=%d %s: index %d filtered %d times", pt.name, n, k.name, i, c)
						}
					}
				}
				if n > 1<<14 && pt.name != "auto" {
					continue
				}
				// A map and flat map: the output type differs, an index may
				// give several elements.
				var want []string
				for i, v := range x {
					if v%5 == 0 {
						want = append(want, fmt.Sprint(i), fmt.Sprint(v))
					}
				}
				got := par.FilterBlocks(n, func(lo, hi int, dst []string) []string {
					for i := lo; i < hi; i++ {
						if x[i]%5 == 0 {
							dst = append(dst, fmt.Sprint(i), fmt.Sprint(x[i]))
						}
					}
					return dst
				}, opts...)
				if !slices.Equal(got, want) {
					t.Fatalf("%s n=%d: FilterBlocks as a flat map gave %d elements, want %d, or others", pt.name, n, len(got), len(want))
				}
			}
		}
	})
}

func TestFilterBlocksPanics(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, n := range []int{100, 1 << 16} {
			// A block given a dst that is not empty drops what the blocks
			// before it appended. (With one worker or a short range,
			// filter is called once, with an empty dst.)
			var shrinks atomic.Bool
			v := catch(func() {
				par.FilterBlocks(n, func(lo, hi int, dst []int) []int {
					if lo >= n/2 && len(dst) > 0 {
						shrinks.Store(true)
						return dst[:0]
					}
					return append(dst, lo)
				}, par.WithPool(p))
			})
			if s := fmt.Sprint(v); shrinks.Load() != (strings.HasPrefix(s, "par: FilterBlocks: filter(") && strings.Contains(s, "less than the")) {
				t.Errorf("n=%d, filter shrinks dst: recovered %v", n, v)
			}
			v = catch(func() {
				par.FilterBlocks(n, func(lo, hi int, dst []int) []int {
					if lo <= n-1 && n-1 < hi {
						panic("bad block")
					}
					return dst
				}, par.WithPool(p))
			})
			if v != "bad block" {
				t.Errorf("n=%d: recovered %v", n, v)
			}
		}
	})
	if v := catch(func() { par.FilterBlocks(-1, func(lo, hi int, dst []int) []int { return dst }) }); fmt.Sprint(v) != "par: FilterBlocks with n = -1" {
		t.Errorf("negative n: recovered %v", v)
	}
	if v := catch(func() { par.FilterBlocks[int](1, nil) }); fmt.Sprint(v) != "par: FilterBlocks with a nil filter" {
		t.Errorf("nil filter: recovered %v", v)
	}
}

// TestFilterBlocksNear32Bits filters 2^31-1 indices, keeping the last of
// each block: block bounds there pass a 32-bit int's range if taken
// carelessly.
func TestFilterBlocksNear32Bits(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("two million blocks")
	}
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	const n = math.MaxInt32
	got := par.FilterBlocks(n, func(lo, hi int, dst []int32) []int32 {
		if lo < 0 || hi > n || hi <= lo {
			return append(dst, -1)
		}
		return append(dst, int32(hi-1))
	}, par.WithPool(p))
	const block = 1024
	if len(got) != (n+block-1)/block || got[len(got)-1] != n-1 || !slices.IsSorted(got) || got[0] != block-1 {
		t.Errorf("FilterBlocks over [0, 2^31-1): %d elements, first %d, last %d", len(got), got[0], got[len(got)-1])
	}
}
