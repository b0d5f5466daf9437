package pack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
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

// big is an element large enough that a round holds only 8192 of them.
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

// checkInPlace packs slices of n elements made by mk, keeping by every
// pattern (idx tells an element's index), and compares with a filter loop.
func checkInPlace[E comparable](t *testing.T, mk func(int) E, idx func(E) int, sizes []int) {
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
				k := InPlace(got, Func[E]{Keep: func(e E) bool { return keep[idx(e)] }, Want: true}, goRunner(workers))
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
	checkInPlace(t, func(i int) int64 { return int64(i + 1) }, func(v int64) int { return int(v - 1) },
		append(sizes, roundBytes/8+3*BlockLen+5))
	checkInPlace(t, func(i int) big { return big{v: int64(i + 1), pad: [504]byte{byte(i)}} }, func(b big) int { return int(b.v - 1) },
		append(sizes, 3*roundBytes/512+7))
	checkInPlace(t, func(i int) string { return fmt.Sprint(i) }, func(v string) int {
		i, _ := strconv.Atoi(v)
		return i
	}, sizes)
}

func TestInPlaceRuns(t *testing.T) {
	// Changes and Runs against slices.Compact, over several rounds of big.
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 100, BlockLen + 1, 3*roundBytes/512 + 7} {
		for _, runLen := range []int{1, 3, 1000, 1 << 30} {
			s := make([]big, n)
			v := int64(0)
			for i := range s {
				if rng.IntN(runLen) == 0 {
					v++
				}
				s[i] = big{v: v, pad: [504]byte{byte(v)}}
			}
			want := slices.Compact(slices.Clone(s))
			for _, p := range []Packer[big]{Changes[big]{}, Runs[big]{Eq: func(a, b big) bool { return a.v == b.v }}} {
				got := slices.Clone(s)
				k := InPlace(got, p, goRunner(3))
				if !slices.Equal(got[:k], want) || slices.ContainsFunc(got[k:], func(b big) bool { return b != big{} }) {
					t.Fatalf("n=%d runs of ~%d, %T: differs from slices.Compact", n, runLen, p)
				}
			}
		}
	}
}

// TestInPlaceMarked marks runs by MarkRuns, block by block on goroutines,
// with an eq that is not an equivalence, and packs by InPlaceMarked: the
// result is the first element of every pair where eq said no, on the
// original elements, in order, and the rest is zeroed.
func TestInPlaceMarked(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	eq := func(a, b big) bool { return (a.v+b.v)%3 != 0 } // not transitive
	for _, n := range []int{0, 1, 2, 63, 64, 65, BlockLen - 1, BlockLen + 1, 3*roundBytes/512 + 7} {
		for _, spread := range []int{1, 3, 1000} {
			s := make([]big, n)
			for i := range s {
				v := int64(rng.IntN(spread))
				s[i] = big{v: v, pad: [504]byte{byte(i)}}
			}
			var want []big
			for j := range s {
				if j == 0 || !eq(s[j], s[j-1]) {
					want = append(want, s[j])
				}
			}
			got := slices.Clone(s)
			words := make([]uint64, Words(n))
			run := goRunner(3)
			run(Blocks(n), func(b0, b1 int) { MarkRuns(got, words, b0*BlockLen, min(b1*BlockLen, n), eq) })
			k := InPlaceMarked(got, words, run)
			if k != len(want) || !slices.Equal(got[:k], want) || slices.ContainsFunc(got[k:], func(b big) bool { return b != big{} }) {
				t.Fatalf("n=%d spread %d: kept %d, want %d, or the kept differ or the rest is not zero", n, spread, k, len(want))
			}
		}
	}
}

// TestMarkRunsPanicMovesNothing checks that a panicking eq leaves the slice
// as it was: MarkRuns only reads.
func TestMarkRunsPanicMovesNothing(t *testing.T) {
	n := 3 * BlockLen
	s := make([]int64, n)
	for i := range s {
		s[i] = int64(i / 3)
	}
	orig := slices.Clone(s)
	words := make([]uint64, Words(n))
	func() {
		defer func() { _ = recover() }()
		MarkRuns(s, words, 0, BlockLen, func(a, b int64) bool {
			if a == 100 {
				panic("eq")
			}
			return a == b
		})
	}()
	if !slices.Equal(s, orig) {
		t.Fatal("a panicking eq changed the slice")
	}
}

// TestClearRest clears tails below, at and above the streaming size, in
// pieces and by blocks, and checks that every element, and nothing before
// the tail, was zeroed.
func TestClearRest(t *testing.T) {
	const stream = 64 * 8 // 64 int64s
	for _, n := range []int{0, 1, BlockLen + 1, 63, 64, 65, 2*64 + 7, 5*BlockLen + 3} {
		for _, workers := range []int{1, 3} {
			s := make([]int64, n+2)
			for i := range s {
				s[i] = int64(i + 1)
			}
			clearRest(s[1:n+1], goRunner(workers), stream)
			if s[0] != 1 || s[n+1] != int64(n+2) {
				t.Fatalf("n=%d workers=%d: cleared outside the tail", n, workers)
			}
			if i := slices.IndexFunc(s[1:n+1], func(v int64) bool { return v != 0 }); i >= 0 {
				t.Fatalf("n=%d workers=%d: [%d] not zeroed", n, workers, i)
			}
		}
	}
}

func TestMarkFuncAndGather(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 63, 64, 65, 200} {
		s := make([]int, n)
		for i := range s {
			s[i] = rng.IntN(3)
		}
		keep := func(v int) bool { return v != 1 }
		want := slices.DeleteFunc(slices.Clone(s), func(v int) bool { return !keep(v) })
		words := make([]uint64, Words(n))
		k := MarkFunc(s, words, keep)
		got := make([]int, n)
		m := Gather(got, s, words)
		if k != len(want) || m != k || !slices.Equal(got[:m], want) {
			t.Fatalf("n=%d: marked %d, gathered %v, want %v", n, k, got[:m], want)
		}
	}
}

// TestBlocks checks the block count, near the top of int too, where
// n+BlockLen-1 would wrap around.
func TestBlocks(t *testing.T) {
	for _, n := range []int{0, 1, BlockLen - 1, BlockLen, BlockLen + 1, math.MaxInt32, math.MaxInt} {
		want := uint64(n) / BlockLen
		if uint64(n)%BlockLen != 0 {
			want++
		}
		if got := Blocks(n); uint64(got) != want {
			t.Errorf("Blocks(%d) = %d, want %d", n, got, want)
		}
	}
}
