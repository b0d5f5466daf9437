package pack

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// goRunner runs body over [0, n) in up to k goroutines, so that the race
// detector sees the phases' accesses from different goroutines.
func goRunner(k int) Runner {
	return func(n int, body func(lo, hi int)) {
		var wg sync.WaitGroup
		for i := range k {
			lo, hi := i*n/k, (i+1)*n/k
			if lo == hi {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				body(lo, hi)
			}()
		}
		wg.Wait()
	}
}

// big is an element large enough that a round holds only 2048 of them.
type big struct {
	v   int64
	pad [504]byte
}

// keepPatterns give, for n elements, which to keep.
var keepPatterns = []struct {
	name string
	keep func(rng *rand.Rand, i, n int) bool
}{
	{"all", func(*rand.Rand, int, int) bool { return true }},
	{"none", func(*rand.Rand, int, int) bool { return false }},
	{"odd", func(_ *rand.Rand, i, _ int) bool { return i%2 == 1 }},
	{"random10", func(rng *rand.Rand, _, _ int) bool { return rng.IntN(10) == 0 }},
	{"random90", func(rng *rand.Rand, _, _ int) bool { return rng.IntN(10) != 0 }},
	{"firstgone", func(_ *rand.Rand, i, _ int) bool { return i != 0 }},
	{"lasthalf", func(_ *rand.Rand, i, n int) bool { return i >= n/2 }},
	{"firsthalf", func(_ *rand.Rand, i, n int) bool { return i < n/2 }},
	{"blocks", func(_ *rand.Rand, i, _ int) bool { return (i/BlockLen)%3 != 1 }},
}

func checkInPlace[E comparable](t *testing.T, mk func(int) E, sizes []int) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		for _, p := range keepPatterns {
			s := make([]E, n)
			keep := make([]bool, n)
			var want []E
			for i := range s {
				s[i] = mk(i)
				keep[i] = p.keep(rng, i, n)
				if keep[i] {
					want = append(want, s[i])
				}
			}
			for _, workers := range []int{1, 3} {
				got := slices.Clone(s)
				k := InPlace(got, func(lo, hi int, words []uint64) int {
					if lo%BlockLen != 0 {
						t.Errorf("mark(%d, %d): lo not a block start", lo, hi)
					}
					i := lo
					return MarkFunc(got[lo:hi], words, func(E) bool { i++; return keep[i-1] }, true)
				}, goRunner(workers))
				if k != len(want) || !slices.Equal(got[:k], want) {
					t.Fatalf("n=%d %s workers=%d: kept %d, want %d, or wrong order", n, p.name, workers, k, len(want))
				}
				var zero E
				for i := k; i < n; i++ {
					if got[i] != zero {
						t.Fatalf("n=%d %s: [%d] not zeroed", n, p.name, i)
					}
				}
			}
		}
	}
}

func TestInPlace(t *testing.T) {
	sizes := []int{0, 1, 63, 64, 65, BlockLen - 1, BlockLen + 1, 5000}
	checkInPlace(t, func(i int) int64 { return int64(i + 1) }, append(sizes, roundBytes/8+3*BlockLen+5))
	checkInPlace(t, func(i int) big { return big{v: int64(i + 1)} }, append(sizes, 3*roundBytes/512+7))
	checkInPlace(t, func(i int) string { return fmt.Sprint(i) }, sizes)
}

func TestMarkRunsAndChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 63, 64, 65, 200} {
		s := make([]int, n)
		for i := range s {
			s[i] = rng.IntN(3)
		}
		want := slices.Compact(slices.Clone(s))
		for _, split := range []int{0, 1, 64, n / 2, n - 1} {
			if split < 0 || split >= n {
				continue
			}
			// Mark [0, split) as the first piece and [split, n) after it.
			w1, w2 := make([]uint64, Words(split)), make([]uint64, Words(n-split))
			var k1, k2 int
			if split > 0 {
				k1 = MarkChanges(s[:split], 0, true, w1)
				k2 = MarkChanges(s[split:], s[split-1], false, w2)
			} else {
				k2 = MarkChanges(s, 0, true, w2)
			}
			eq := func(a, b int) bool { return a == b }
			w3, w4 := make([]uint64, len(w1)), make([]uint64, len(w2))
			var k3, k4 int
			if split > 0 {
				k3 = MarkRuns(s[:split], 0, true, w3, eq)
				k4 = MarkRuns(s[split:], s[split-1], false, w4, eq)
			} else {
				k4 = MarkRuns(s, 0, true, w4, eq)
			}
			if k1+k2 != len(want) || k3+k4 != len(want) || !slices.Equal(w1, w3) || !slices.Equal(w2, w4) {
				t.Fatalf("n=%d split=%d: marked %d and %d, want %d", n, split, k1+k2, k3+k4, len(want))
			}
			got := make([]int, n)
			m := Gather(got, s[:split], w1)
			m += Gather(got[m:], s[split:], w2)
			if !slices.Equal(got[:m], want) {
				t.Fatalf("n=%d split=%d: gathered %v, want %v", n, split, got[:m], want)
			}
		}
	}
}
