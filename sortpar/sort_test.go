package sortpar

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// forEachInput runs f on every pattern × size, with a fresh copy per call.
func forEachInput(t *testing.T, f func(t *testing.T, x []int64)) {
	for p := range patterns {
		for _, n := range testSizes(maxTestSize()) {
			f(t, genPattern(p, n, uint64(n)))
		}
	}
}

func TestSortInt64(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		forEachInput(t, func(t *testing.T, x []int64) {
			want := slices.Clone(x)
			slices.Sort(want)
			Sort(x, par.WithPool(pool), par.Grain(testCutoff))
			if !slices.Equal(x, want) {
				t.Fatalf("n=%d: Sort differs from slices.Sort", len(x))
			}
		})
	})
}

// TestSortKinds checks the radix paths of every key width and kind, the
// string samplesort, and named element types, against slices.Sort.
func TestSortKinds(t *testing.T) {
	type celsius float32
	type id uint16
	withPools(t, func(t *testing.T, pool *core.Pool) {
		forEachInput(t, func(t *testing.T, x []int64) {
			opts := []par.Option{par.WithPool(pool), par.Grain(testCutoff)}
			checkOrdered(t, conv[int8](x), opts)
			checkOrdered(t, conv[uint8](x), opts)
			checkOrdered(t, conv[int16](x), opts)
			checkOrdered(t, conv[id](x), opts)
			checkOrdered(t, conv[int32](x), opts)
			checkOrdered(t, conv[uint32](x), opts)
			checkOrdered(t, conv[uint64](x), opts)
			checkOrdered(t, conv[int](x), opts)
			checkOrdered(t, conv[uintptr](x), opts)
			checkOrdered(t, conv[celsius](x), opts)
			s := make([]string, len(x))
			for i, v := range x {
				s[i] = fmt.Sprintf("%x", v) // not numeric order: tests strings
			}
			checkOrdered(t, s, opts)
		})
	})
}

func conv[T int8 | uint8 | int16 | int32 | uint32 | uint64 | int | uintptr | ~float32 | ~uint16](x []int64) []T {
	y := make([]T, len(x))
	for i, v := range x {
		y[i] = T(v)
	}
	return y
}

func checkOrdered[E cmp.Ordered](t *testing.T, x []E, opts []par.Option) {
	t.Helper()
	want := slices.Clone(x)
	slices.Sort(want)
	got := slices.Clone(x)
	Sort(got, opts...)
	if !slices.Equal(got, want) {
		t.Fatalf("%T n=%d: Sort differs from slices.Sort", x, len(x))
	}
	got = slices.Clone(x)
	SortStable(got, opts...)
	if !slices.Equal(got, want) {
		t.Fatalf("%T n=%d: SortStableWith differs from slices.Sort", x, len(x))
	}
}

// specialFloats mixes NaNs (two payloads, both signs), infinities and
// signed zeros into x.
func specialFloats(x []int64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	specials := []float64{
		math.NaN(), -math.NaN(), math.Float64frombits(0x7ff0000000000001),
		math.Float64frombits(0xfff8000000000123), math.Inf(1), math.Inf(-1),
		0, math.Copysign(0, -1), math.SmallestNonzeroFloat64, -math.MaxFloat64,
	}
	f := make([]float64, len(x))
	for i, v := range x {
		if rng.IntN(8) == 0 {
			f[i] = specials[rng.IntN(len(specials))]
		} else {
			f[i] = float64(v) / 3
		}
	}
	return f
}

func TestSortFloatNaN(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		forEachInput(t, func(t *testing.T, x []int64) {
			f := specialFloats(x, uint64(len(x)))
			want := slices.Clone(f)
			slices.Sort(want)
			got := slices.Clone(f)
			Sort(got, par.WithPool(pool), par.Grain(testCutoff))
			// Unstable: equal under cmp.Compare is all we can ask, plus
			// nothing lost (bits multiset).
			if !slices.EqualFunc(got, want, func(a, b float64) bool { return cmp.Compare(a, b) == 0 }) {
				t.Fatalf("n=%d: Sort(float64) differs from slices.Sort", len(f))
			}
			if !sameMultiset(got, f, floatBitsCmp) {
				t.Fatalf("n=%d: Sort(float64) lost or duplicated elements", len(f))
			}
			// Stable: bit-for-bit what slices.SortStableFunc gives.
			want = slices.Clone(f)
			slices.SortStableFunc(want, cmp.Compare[float64])
			got = slices.Clone(f)
			SortStable(got, par.WithPool(pool), par.Grain(testCutoff))
			if !slices.EqualFunc(got, want, func(a, b float64) bool { return floatBitsCmp(a, b) == 0 }) {
				t.Fatalf("n=%d: SortStable(float64) differs bitwise from slices.SortStableFunc", len(f))
			}
			f32 := make([]float32, len(f))
			for i, v := range f {
				f32[i] = float32(v)
			}
			got32 := slices.Clone(f32)
			Sort(got32, par.WithPool(pool), par.Grain(testCutoff))
			want32 := slices.Clone(f32)
			slices.Sort(want32)
			if !slices.EqualFunc(got32, want32, func(a, b float32) bool { return cmp.Compare(a, b) == 0 }) {
				t.Fatalf("n=%d: Sort(float32) differs from slices.Sort", len(f))
			}
		})
	})
}

// pair is a (key, original index) record for the stability tests.
type pair struct{ key, idx int }

func cmpPair(a, b pair) int { return cmp.Compare(a.key, b.key) }

func pairs(x []int64, distinct int) []pair {
	p := make([]pair, len(x))
	for i, v := range x {
		p[i] = pair{int(uint64(v) % uint64(distinct)), i}
	}
	return p
}

func TestSortFunc(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		forEachInput(t, func(t *testing.T, x []int64) {
			p := pairs(x, max(len(x)/4, 1))
			want := slices.Clone(p)
			slices.SortFunc(want, cmpPair)
			got := slices.Clone(p)
			SortFunc(got, cmpPair, par.WithPool(pool), par.Grain(testCutoff))
			if !slices.EqualFunc(got, want, func(a, b pair) bool { return a.key == b.key }) {
				t.Fatalf("n=%d: SortFuncWith keys differ from slices.SortFunc", len(x))
			}
			if !sameMultiset(got, p, func(a, b pair) int { return cmp.Compare(a.idx, b.idx) }) {
				t.Fatalf("n=%d: SortFuncWith lost or duplicated elements", len(x))
			}
		})
	})
}

func TestSortStableFunc(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		forEachInput(t, func(t *testing.T, x []int64) {
			for _, distinct := range []int{3, max(len(x)/4, 1)} {
				p := pairs(x, distinct)
				want := slices.Clone(p)
				slices.SortStableFunc(want, cmpPair)
				got := slices.Clone(p)
				SortStableFunc(got, cmpPair, par.WithPool(pool), par.Grain(testCutoff))
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d distinct=%d: SortStableFuncWith differs from slices.SortStableFunc", len(x), distinct)
				}
			}
		})
	})
}

// TestDefaultEntryPoints runs the option-less API on both sides of the
// default cutoff.
func TestDefaultEntryPoints(t *testing.T) {
	for _, n := range []int{0, 5, defaultCutoff - 1, defaultCutoff, 3 * defaultCutoff, defaultFuncLeaf + 1} {
		for p := range patterns {
			x := genPattern(p, n, 3)
			want := slices.Clone(x)
			slices.Sort(want)
			got := slices.Clone(x)
			Sort(got)
			if !slices.Equal(got, want) || !IsSorted(got) {
				t.Fatalf("%s n=%d: Sort wrong", patterns[p].name, n)
			}
			got = slices.Clone(x)
			SortStable(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s n=%d: SortStable wrong", patterns[p].name, n)
			}
			got = slices.Clone(x)
			SortFunc(got, cmp.Compare[int64])
			if !slices.Equal(got, want) || !IsSortedFunc(got, cmp.Compare[int64]) {
				t.Fatalf("%s n=%d: SortFunc wrong", patterns[p].name, n)
			}
			pp := pairs(x, 10)
			wantp := slices.Clone(pp)
			slices.SortStableFunc(wantp, cmpPair)
			SortStableFunc(pp, cmpPair)
			if !slices.Equal(pp, wantp) {
				t.Fatalf("%s n=%d: SortStableFunc wrong", patterns[p].name, n)
			}
		}
	}
}

func TestIsSorted(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		c := newConfig("test", []par.Option{par.WithPool(pool), par.Grain(testCutoff)})
		for _, n := range testSizes(maxTestSize()) {
			x := genPattern(1, n, 1) // sorted
			for _, at := range []int{-1, 0, n / 2, n - 1} {
				y := slices.Clone(x)
				if at >= 0 && n > 1 {
					y[at] = -1 - y[at] // breaks order at at (or at+1 for at = 0)
				}
				want := slices.IsSorted(y)
				var got1, got2 bool
				c.pool.Run(func(w *core.Worker) {
					got1, _ = scanOrdered(w, y, false, &c)
					got2, _ = scanFunc(w, y, cmp.Compare[int64], false, &c)
				})
				if got := got1; got != want {
					t.Fatalf("n=%d break at %d: scanOrdered says %v, slices.IsSorted %v", n, at, got, want)
				}
				if got := got2; got != want {
					t.Fatalf("n=%d break at %d: scanFunc says %v, slices.IsSorted %v", n, at, got, want)
				}
				if n >= defaultCutoff && IsSorted(y) != want {
					t.Fatalf("n=%d: IsSorted wrong", n)
				}
			}
		}
	})
}

// TestAdversary runs McIlroy's "A Killer Adversary for Quicksort" against
// SortFunc: the comparator decides values lazily so as to make every pivot,
// and every sample, bad. The comparison count must stay O(n log n).
func TestAdversary(t *testing.T) {
	n := 1<<15 + 1
	if testing.Short() || raceEnabled {
		n = 3000
	}
	maxcmp := 4 * n * lg(n)
	for _, workers := range []int{1, 2, 4} {
		// Samplesort leaves of 128 and 8192 elements.
		for _, cutoff := range []int{16, 1024} {
			t.Run(fmt.Sprintf("p=%d/cutoff=%d", workers, cutoff), func(t *testing.T) {
				pool := core.New(core.WithWorkers(workers))
				defer pool.Close()
				adv := newAdversary(n)
				x := make([]int, n)
				for i := range x {
					x[i] = i
				}
				// Call the samplesort itself: SortFunc's opening scan would
				// let the adversary settle on a sorted input at once.
				c := newConfig("test", []par.Option{par.WithPool(pool), par.Grain(cutoff)})
				pool.Run(func(w *core.Worker) { samplesort(w, x, adv.cmp, c.funcLeaf, &c) })
				if adv.ncmp > maxcmp {
					t.Fatalf("%d comparisons for n=%d, want <= 4·n·lg n = %d", adv.ncmp, n, maxcmp)
				}
				for i := 1; i < n; i++ {
					if adv.val[x[i-1]] > adv.val[x[i]] {
						t.Fatalf("adversary input not sorted at %d", i)
					}
				}
				t.Logf("%d comparisons (%.2f·n·lg n)", adv.ncmp, float64(adv.ncmp)/float64(n*lg(n)))
			})
		}
	}
}

// adversary is McIlroy's antiquicksort comparator over item ids. A mutex
// makes it safe for a parallel sort (the answers stay consistent).
type adversary struct {
	mu        sync.Mutex
	val       []int // values, gas until frozen
	gas       int   // the "not yet decided" value, above every solid one
	nsolid    int
	candidate int
	ncmp      int
}

func newAdversary(n int) *adversary {
	a := &adversary{val: make([]int, n), gas: n}
	for i := range a.val {
		a.val[i] = a.gas
	}
	return a
}

func (a *adversary) cmp(x, y int) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ncmp++
	if a.val[x] == a.gas && a.val[y] == a.gas {
		if x == a.candidate {
			a.val[x] = a.nsolid
		} else {
			a.val[y] = a.nsolid
		}
		a.nsolid++
	}
	if a.val[x] == a.gas {
		a.candidate = x
	} else if a.val[y] == a.gas {
		a.candidate = y
	}
	return cmp.Compare(a.val[x], a.val[y])
}

// TestPanickingCmpOnce: the comparator panics once, at a random comparison
// of a sort on several workers, and the other comparisons go on, so a
// thief often still moves its part of the slice while the panic leaves the
// part beside it: a stable sort's merge, or a samplesort's classification
// or block permutation. The panic must reach the caller and the slice must
// be a permutation of the input.
func TestPanickingCmpOnce(t *testing.T) {
	rounds := 200
	if testing.Short() || raceEnabled {
		rounds = 40
	}
	sorts := []struct {
		name string
		n    int // the samplesort takes several stripes from 8192 on
		sort func(x []int64, cmp func(a, b int64) int, opts ...par.Option)
	}{
		{"SortStableFunc", 1 << 12, SortStableFunc[[]int64, int64]},
		{"SortFunc", 1 << 14, SortFunc[[]int64, int64]},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, s := range sorts {
		base := genPattern(0, s.n, 11)
		for _, workers := range []int{2, 3} {
			pool := core.New(core.WithWorkers(workers))
			defer pool.Close()
			opts := []par.Option{par.WithPool(pool), par.Grain(testCutoff)}
			var total atomic.Int64
			s.sort(slices.Clone(base), func(a, b int64) int { total.Add(1); return cmp.Compare(a, b) }, opts...)
			for range rounds {
				x := slices.Clone(base)
				after := 1 + rng.Int64N(total.Load())
				var count atomic.Int64
				r := func() (r any) {
					defer func() { r = recover() }()
					s.sort(x, func(a, b int64) int {
						if count.Add(1) == after {
							panic("boom")
						}
						return cmp.Compare(a, b)
					}, opts...)
					return nil
				}()
				if r == nil {
					continue // fewer comparisons this time
				}
				if v := panicValue(r); v != "boom" {
					t.Fatalf("%s p=%d after %d: recovered %v, want boom", s.name, workers, after, v)
				}
				if !sameMultiset(x, base, cmp.Compare[int64]) {
					t.Fatalf("%s p=%d after %d: slice is not a permutation of the input", s.name, workers, after)
				}
			}
		}
	}
}

// TestPanickingCmp: a comparator that panics after some comparisons; the
// panic must reach the caller and the slice must be a permutation.
func TestPanickingCmp(t *testing.T) {
	n := 1 << 13
	if raceEnabled {
		n = 1 << 11
	}
	base := genPattern(0, n, 9)
	sorts := []struct {
		name string
		sort func(x []int64, cmp func(a, b int64) int, opts ...par.Option)
	}{
		{"SortFunc", SortFunc[[]int64, int64]},
		{"SortStableFunc", SortStableFunc[[]int64, int64]},
	}
	withPools(t, func(t *testing.T, pool *core.Pool) {
		for _, s := range sorts {
			for _, after := range []int64{0, 1, 100, int64(n), int64(5 * n), int64(10 * n)} {
				x := slices.Clone(base)
				var count atomic.Int64
				r := func() (r any) {
					defer func() { r = recover() }()
					s.sort(x, func(a, b int64) int {
						if count.Add(1) > after {
							panic("boom")
						}
						return cmp.Compare(a, b)
					}, par.WithPool(pool), par.Grain(testCutoff))
					return nil
				}()
				if r == nil {
					continue // sorted within the budget
				}
				if v := panicValue(r); v != "boom" {
					t.Fatalf("%s after %d: recovered %v, want boom", s.name, after, v)
				}
				if !sameMultiset(x, base, cmp.Compare[int64]) {
					t.Fatalf("%s after %d: slice is not a permutation of the input", s.name, after)
				}
			}
		}
	})
}

// TestGrainOne checks that par.Grain(1), below the smallest cutoff a sort
// can use, sorts with the cutoff 2.
func TestGrainOne(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		x := genPattern(0, 5000, 9)
		want := slices.Clone(x)
		slices.Sort(want)
		Sort(x, par.WithPool(pool), par.Grain(1))
		if !slices.Equal(x, want) {
			t.Fatal("Sort with par.Grain(1) did not sort")
		}
		if c := newConfig("test", []par.Option{par.Grain(1)}); c.cutoff != 2 {
			t.Fatalf("par.Grain(1) gave the cutoff %d, want 2", c.cutoff)
		}
	})
}

// TestStringsLong sorts strings with shared prefixes through the parallel
// samplesort.
func TestStringsLong(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	n := maxTestSize()
	x := make([]string, n)
	for i := range x {
		x[i] = strings.Repeat("ab", rng.IntN(4)) + fmt.Sprint(rng.IntN(n))
	}
	checkStrings(t, x, "long")
}

// checkStrings sorts x with Sort on every test pool and compares the
// result with slices.Sort's.
func checkStrings(t *testing.T, x []string, what string) {
	t.Helper()
	want := slices.Clone(x)
	slices.Sort(want)
	withPools(t, func(t *testing.T, pool *core.Pool) {
		got := slices.Clone(x)
		Sort(got, par.WithPool(pool), par.Grain(testCutoff))
		if !slices.Equal(got, want) {
			t.Fatalf("%s: strings differ from slices.Sort", what)
		}
	})
}

// TestStringsPrefixes sorts strings that share a prefix, contain zero
// bytes and are prefixes of each other, with many duplicates (equality
// buckets).
func TestStringsPrefixes(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, shared := range []string{"", "common-prefix/"} {
		n := maxTestSize()
		x := make([]string, n)
		for i := range x {
			b := []byte(shared)
			for range rng.IntN(13) {
				b = append(b, "\x00ab"[rng.IntN(3)])
			}
			x[i] = string(b)
		}
		checkStrings(t, x, fmt.Sprintf("shared %q", shared))
	}
}

// TestSortInsideTask calls the sorts from inside a task of the same pool,
// where core.RunValue runs inline on the calling worker, from both sides of a
// Join.
func TestSortInsideTask(t *testing.T) {
	withPools(t, func(t *testing.T, pool *core.Pool) {
		a := genPattern(0, 5000, 1)
		b := pairs(genPattern(4, 5000, 2), 50)
		wantA, wantB := slices.Clone(a), slices.Clone(b)
		slices.Sort(wantA)
		slices.SortStableFunc(wantB, cmpPair)
		core.RunValue(pool, func(w *core.Worker) struct{} {
			core.Join(w, func(*core.Worker, int) struct{} {
				Sort(a, par.WithPool(pool), par.Grain(testCutoff))
				return struct{}{}
			}, 0, func(*core.Worker, int) struct{} {
				SortStableFunc(b, cmpPair, par.WithPool(pool), par.Grain(testCutoff))
				return struct{}{}
			}, 0)
			return struct{}{}
		})
		if !slices.Equal(a, wantA) || !slices.Equal(b, wantB) {
			t.Fatal("sorts inside tasks differ from package slices")
		}
	})
}

// TestForChunksTile checks that forChunks runs every chunk once and that
// the chunks tile [0, n) with pieces of near-equal length, for lengths
// whose i*n does not fit a 32-bit int.
func TestForChunksTile(t *testing.T) {
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	for _, n := range []int{0, 1, 7, 1000, 1 << 26, math.MaxInt32} {
		for _, k := range []int{1, 3, 32, 256} {
			got := make([][2]int, k)
			ran := make([]int, k)
			p.Run(func(w *core.Worker) {
				forChunks(w, n, k, func(i, lo, hi int) { got[i] = [2]int{lo, hi}; ran[i]++ })
			})
			next := 0
			for i := range k {
				lo, hi := got[i][0], got[i][1]
				if d := hi - lo - n/k; ran[i] != 1 || lo != next || d < 0 || d > 1 {
					t.Fatalf("forChunks(%d, %d): chunk %d = [%d, %d) ran %d times, want once, a piece of about n/k from %d", n, k, i, lo, hi, ran[i], next)
				}
				next = hi
			}
			if next != n {
				t.Fatalf("forChunks(%d, %d) ends at %d", n, k, next)
			}
		}
	}
}

// TestStableSerialPasses checks stableSerial on lengths around the merge
// widths, where the last pass merges a full run with a short one or none.
func TestStableSerialPasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{0, 1, stableBlock - 1, stableBlock, stableBlock + 1, 2 * stableBlock, 4*stableBlock - 1, 4*stableBlock + 1, 1000} {
		d := make([]pair, n)
		for i := range d {
			d[i] = pair{rng.IntN(10), i}
		}
		want := slices.Clone(d)
		slices.SortStableFunc(want, cmpPair)
		s := make([]pair, n)
		if stableSerial(d, s, cmpPair) {
			d = s
		}
		if !slices.Equal(d, want) {
			t.Fatalf("n=%d: stableSerial differs from slices.SortStableFunc", n)
		}
	}
}
