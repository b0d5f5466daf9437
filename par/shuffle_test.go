package par_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
)

// iota returns 0, 1, ..., n-1.
func iota(n int) []int {
	x := make([]int, n)
	for i := range x {
		x[i] = i
	}
	return x
}

func TestShuffleSameAtEveryP(t *testing.T) {
	// Small cutoffs, so that short slices take the parallel path.
	defer par.SetShuffleSizes(64, 16)()
	sizes := []int{0, 1, 2, 63, 64, 65, 1000, 4097}
	ref := core.New(core.WithWorkers(1))
	want := map[[2]int][]int{} // (n, seed) -> permutation
	for _, n := range sizes {
		for seed := range 3 {
			x := iota(n)
			par.Shuffle(x, uint64(seed), par.WithPool(ref))
			if !slices.Equal(slices.Sorted(slices.Values(x)), iota(n)) {
				t.Fatalf("n=%d: not a permutation", n)
			}
			want[[2]int{n, seed}] = x
		}
	}
	ref.Close()
	if a, b := want[[2]int{4097, 0}], want[[2]int{4097, 1}]; slices.Equal(a, b) {
		t.Errorf("seeds 0 and 1 give the same permutation")
	}
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			for _, n := range sizes {
				for seed := range 3 {
					x := iota(n)
					par.Shuffle(x, uint64(seed), pt.opt, par.WithPool(p))
					if !slices.Equal(x, want[[2]int{n, seed}]) {
						t.Fatalf("%s n=%d seed=%d: another permutation than with one worker", pt.name, n, seed)
					}
					// Another element type, permuted alike.
					s := make([]string, n)
					for i := range s {
						s[i] = strconv.Itoa(i)
					}
					par.Shuffle(s, uint64(seed), pt.opt, par.WithPool(p))
					for i, v := range s {
						if v != strconv.Itoa(x[i]) {
							t.Fatalf("%s n=%d: strings permuted unlike ints", pt.name, n)
						}
					}
				}
			}
		}
	})
}

// chiSquare returns the chi-square statistic of counts against a uniform
// expectation.
func chiSquare(counts []int, total int) float64 {
	e := float64(total) / float64(len(counts))
	x := 0.0
	for _, c := range counts {
		d := float64(c) - e
		x += d * d / e
	}
	return x
}

func TestShuffleUniform(t *testing.T) {
	const n = 120
	seeds := 24_000 // 200 expected per cell
	if testing.Short() || raceEnabled {
		seeds = 6_000
	}
	for _, path := range []struct {
		name      string
		serialMax int
		bucketLen int
	}{
		{"serial", n, 16},
		{"buckets", 16, 8}, // 15 buckets of 8 on average
		{"twobuckets", 16, 70},
	} {
		t.Run(path.name, func(t *testing.T) {
			defer par.SetShuffleSizes(path.serialMax, path.bucketLen)()
			p := core.New(core.WithWorkers(2))
			defer p.Close()
			tracked := []int{0, 1, n / 2, n - 1}
			counts := make([][]int, len(tracked)) // counts[k][pos]: tracked[k] ended at pos
			for k := range counts {
				counts[k] = make([]int, n)
			}
			pairs := make([]int, n) // where element 1 lands relative to element 0
			x := make([]int, n)
			rng := rand.New(rand.NewPCG(11, 12))
			for range seeds {
				copy(x, iota(n))
				par.Shuffle(x, rng.Uint64(), par.WithPool(p))
				var pos0, pos1 int
				for pos, v := range x {
					for k, e := range tracked {
						if v == e {
							counts[k][pos]++
						}
					}
					switch v {
					case 0:
						pos0 = pos
					case 1:
						pos1 = pos
					}
				}
				pairs[(pos1-pos0+n)%n]++
			}
			// n-1 degrees of freedom; mean n-1, standard deviation about
			// sqrt(2(n-1)) = 15.4: 6 deviations above the mean fail.
			limit := float64(n-1) + 6*15.4
			for k, e := range tracked {
				if x2 := chiSquare(counts[k], seeds); x2 > limit {
					t.Errorf("element %d: chi-square %.1f over %d positions, more than %.1f", e, x2, n, limit)
				}
			}
			if pairs[0] != 0 {
				t.Fatalf("two elements at the same position")
			}
			if x2 := chiSquare(pairs[1:], seeds); x2 > float64(n-2)+6*15.4 {
				t.Errorf("distance from element 0 to element 1: chi-square %.1f", x2)
			}
		})
	}
}

func TestShuffleLarge(t *testing.T) {
	// The default sizes: above 32768 elements the parallel path.
	n := 200_003
	if raceEnabled {
		n = 40_003
	}
	var want []int
	for _, workers := range []int{1, 2, 5} {
		p := core.New(core.WithWorkers(workers))
		x := iota(n)
		par.Shuffle(x, 42, par.WithPool(p))
		p.Close()
		if want == nil {
			if !slices.Equal(slices.Sorted(slices.Values(x)), iota(n)) {
				t.Fatalf("not a permutation")
			}
			want = x
		} else if !slices.Equal(x, want) {
			t.Fatalf("%d workers: another permutation than with one", workers)
		}
	}
	fixed := 0
	for i, v := range want {
		if i == v {
			fixed++
		}
	}
	if fixed > 20 { // a uniform permutation has one fixed point on average
		t.Errorf("%d fixed points", fixed)
	}
}
