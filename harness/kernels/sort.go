package kernels

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/jfcg/sorty/v2"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

// sort: sortpar's sorts against slices', which are both the serial
// program and the baseline a Go user has, and against the in-place Go peer
// github.com/jfcg/sorty/v2. Inputs are made by pattern (SortPatterns) and
// element type; forkbench runs the random pattern. Sizes: SortN numbers and
// records, SortStringN strings; the Quick scale divides by 10. Every
// sortpar sort works in place: forkbench's peak RSS column shows it beside
// slices'.
const (
	SortN       = 10_000_000
	SortStringN = 1_000_000
)

// SortSize returns n at the Full scale, n/10 at the Quick scale.
func SortSize(s Scale, n int) int { return pick(s, n, n/10) }

func init() {
	size := func(n int, what string) func(Scale) string {
		return func(s Scale) string { return fmt.Sprintf("n=%d %s", SortSize(s, n), what) }
	}
	add(sortKernel("sort", 60, "sortpar uses a radix sort on integers",
		"sortpar.Sort of random int64 keys", "slices.Sort", size(SortN, "int64"), setupSort))
	add(sortKernel("sort-func", 61, "sortpar uses an in-place samplesort",
		"sortpar.SortFunc of 32-byte records by a random int64 key", "slices.SortFunc", size(SortN, "records"), setupSortFunc))
	add(sortKernel("sort-string", 62, "sortpar uses an in-place samplesort",
		"sortpar.Sort of random 16-byte strings", "slices.Sort", size(SortStringN, "strings"), setupSortString))
	add(sortKernel("sort-key", 63, "sortpar uses an in-place radix sort on the key",
		"sortpar.SortByKey of 32-byte records by a random int64 field", "slices.SortFunc", size(SortN, "records"), setupSortKey))
}

// sortKernel describes a sort of the main suite, whose serial program is
// also the Go baseline.
func sortKernel(name string, order int, how, what, baseline string, size func(Scale) string,
	setup func(variant string, p int, s Scale) (*Job, error)) *Kernel {
	return &Kernel{
		Name:            name,
		Suite:           SuiteMain,
		Order:           order,
		Note:            fmt.Sprintf("Ts and the baseline are both %s; %s", baseline, how),
		About:           fmt.Sprintf("%s; baseline: %s (= the serial row)", what, baseline),
		Size:            size,
		Variants:        []string{Serial, Gofork},
		BaselineVariant: Serial,
		Baseline:        baseline,
		Cutoff:          fmt.Sprintf("%s's own leaves; %s is serial", strings.Fields(what)[0], baseline),
		Setup:           setup,
	}
}

// SortPatterns are the input shapes: a value for index i of n.
var SortPatterns = []struct {
	Name string
	Gen  func(rng *rand.Rand, i, n int) int64
}{
	{"random", func(rng *rand.Rand, _, _ int) int64 { return int64(rng.Uint64()) }},
	{"sorted", func(_ *rand.Rand, i, _ int) int64 { return int64(i) }},
	{"reversed", func(_ *rand.Rand, i, n int) int64 { return int64(n - i) }},
	{"equal", func(_ *rand.Rand, _, _ int) int64 { return 42 }},
	{"few16", func(rng *rand.Rand, _, _ int) int64 { return int64(rng.IntN(16)) }},
	{"sawtooth", func(_ *rand.Rand, i, n int) int64 { return int64(i % (n/16 + 1)) }},
	{"organpipe", func(_ *rand.Rand, i, n int) int64 { return int64(min(i, n-i)) }},
}

// SortRandom is the index of the random pattern in SortPatterns.
const SortRandom = 0

// SortInput returns n values of pattern p mapped through conv.
func SortInput[E any](p, n int, conv func(rng *rand.Rand, v int64) E) []E {
	rng := rand.New(rand.NewPCG(1, uint64(p)))
	x := make([]E, n)
	for i := range x {
		x[i] = conv(rng, SortPatterns[p].Gen(rng, i, n))
	}
	return x
}

// Int64s is SortInput's conv for int64.
func Int64s(_ *rand.Rand, v int64) int64 { return v }

// Float64s is SortInput's conv for float64.
func Float64s(_ *rand.Rand, v int64) float64 { return float64(v) / 1024 }

// Strings is SortInput's conv for 16-byte strings: 16 random bytes for the
// random pattern, otherwise the pattern value big-endian after a shared
// 8-byte prefix (so the order follows the pattern).
func Strings(rng *rand.Rand, v int64) string {
	var s [16]byte
	if v > 1<<32 || v < 0 { // the random pattern
		binary.LittleEndian.PutUint64(s[:8], rng.Uint64())
		binary.LittleEndian.PutUint64(s[8:], rng.Uint64())
	} else {
		copy(s[:8], "sortpar!")
		binary.BigEndian.PutUint64(s[8:], uint64(v))
	}
	return string(s[:])
}

// Record is the 16-byte struct of the stable sorts: sorted by Key.
type Record struct {
	Key, Payload int64
}

// RecordCmp orders Records by Key.
func RecordCmp(a, b Record) int { return cmp.Compare(a.Key, b.Key) }

// Records is SortInput's conv for Record.
func Records(_ *rand.Rand, v int64) Record { return Record{v, v ^ 0x5bd1e995} }

// Wide is the 32-byte struct of the SortFunc sorts: sorted by Key; the
// other fields follow the key, so a torn record shows.
type Wide struct {
	Key, A, B, C int64
}

// WideCmp orders Wides by Key.
func WideCmp(a, b Wide) int { return cmp.Compare(a.Key, b.Key) }

// Wides is SortInput's conv for Wide.
func Wides(_ *rand.Rand, v int64) Wide { return Wide{v, v ^ 0x5bd1e995, v >> 3, v << 5} }

// whole reports whether w's fields follow its key.
func (w Wide) whole() bool { return w == Wides(nil, w.Key) }

// SortyFunc sorts x by cmp with sorty, through the same comparison
// function the other contenders call.
func SortyFunc[E any](x []E, cmp func(a, b E) int) {
	sorty.Sort(len(x), func(i, k, r, s int) bool {
		if cmp(x[i], x[k]) < 0 {
			if r != s {
				x[r], x[s] = x[s], x[r]
			}
			return true
		}
		return false
	})
}

// SortKiller runs McIlroy's adversary ("A Killer Adversary for Quicksort",
// 1999) against slices.SortFunc on n items and returns, for each position
// of the input, the value the adversary gave the item there.
func SortKiller(n int) []int {
	val := make([]int, n)
	gas := n
	for i := range val {
		val[i] = gas
	}
	nsolid, candidate := 0, 0
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	slices.SortFunc(ids, func(x, y int) int {
		if val[x] == gas && val[y] == gas {
			if x == candidate {
				val[x] = nsolid
			} else {
				val[y] = nsolid
			}
			nsolid++
		}
		if val[x] == gas {
			candidate = x
		} else if val[y] == gas {
			candidate = y
		}
		return cmp.Compare(val[x], val[y])
	})
	for i := range val {
		if val[i] == gas {
			val[i] = nsolid
			nsolid++
		}
	}
	return val
}

// bindSort sets j.Run, and j.Close, for the variant: serial runs serial,
// gofork runs gofork on a new pool of p workers.
func bindSort(name, variant string, p int, j *Job, serial func(), gofork func(*core.Pool)) (*Job, error) {
	switch variant {
	case Serial:
		j.Run = serial
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		j.Run = func() { gofork(pool) }
		j.Close = pool.Close
		j.Pool = pool
	default:
		return nil, fmt.Errorf("%s: no variant %q", name, variant)
	}
	return j, nil
}

// sortedSame reports an error, prefixed with name, unless got is sorted by
// cmp, its elements pass ok (when set), and it holds the multiset whose
// hash sum is want: no third copy of the input weighs on the peak RSS.
func sortedSame[E any](name string, got []E, cmp func(a, b E) int, ok func(E) bool, hash func(E) uint64, want uint64) error {
	var sum uint64
	for i, v := range got {
		if ok != nil && !ok(v) {
			return fmt.Errorf("%s: element %d was torn", name, i)
		}
		if i > 0 && cmp(got[i-1], v) > 0 {
			return fmt.Errorf("%s: elements %d, %d out of order", name, i-1, i)
		}
		sum += hash(v)
	}
	if sum != want {
		return fmt.Errorf("%s: result is not a permutation of the input", name)
	}
	return nil
}

// hashSum is the sum of hash over s: a checksum of a multiset.
func hashSum[E any](s []E, hash func(E) uint64) uint64 {
	var sum uint64
	for _, v := range s {
		sum += hash(v)
	}
	return sum
}

// mix64 is SplitMix64's finalizer: a hash of an int64.
func mix64(v int64) uint64 {
	x := uint64(v)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// fnv is FNV-1a of a string.
func fnv(v string) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(v) {
		h ^= uint64(v[i])
		h *= 1099511628211
	}
	return h
}

// setupSorted is the job of a sort of a fresh copy of in.
func setupSorted[E any](name, variant string, p int, in []E, cmp func(a, b E) int, ok func(E) bool,
	hash func(E) uint64, serial func([]E), gofork func([]E, *core.Pool)) (*Job, error) {
	want := hashSum(in, hash)
	data := make([]E, len(in))
	j := &Job{
		Reset:  func() { copy(data, in) },
		Verify: func() error { return sortedSame(name, data, cmp, ok, hash, want) },
	}
	return bindSort(name, variant, p, j, func() { serial(data) }, func(pool *core.Pool) { gofork(data, pool) })
}

func setupSort(variant string, p int, s Scale) (*Job, error) {
	in := SortInput(SortRandom, SortSize(s, SortN), Int64s)
	return setupSorted("sort", variant, p, in, cmp.Compare[int64], nil, mix64, slices.Sort[[]int64],
		func(x []int64, pool *core.Pool) { sortpar.Sort(x, par.WithPool(pool)) })
}

func setupSortFunc(variant string, p int, s Scale) (*Job, error) {
	in := SortInput(SortRandom, SortSize(s, SortN), Wides)
	return setupSorted("sort-func", variant, p, in, WideCmp, Wide.whole, func(w Wide) uint64 { return mix64(w.Key) },
		func(x []Wide) { slices.SortFunc(x, WideCmp) },
		func(x []Wide, pool *core.Pool) { sortpar.SortFunc(x, WideCmp, par.WithPool(pool)) })
}

func setupSortString(variant string, p int, s Scale) (*Job, error) {
	in := SortInput(SortRandom, SortSize(s, SortStringN), Strings)
	return setupSorted("sort-string", variant, p, in, strings.Compare, nil, fnv, slices.Sort[[]string],
		func(x []string, pool *core.Pool) { sortpar.Sort(x, par.WithPool(pool)) })
}

// ByKeyInt is a 32-byte record sorted by an int64 field.
type ByKeyInt struct {
	ID      int64
	A, B, C int64
}

// ByKeyIntInput returns n ByKeyInt records with random ids.
func ByKeyIntInput(n int) []ByKeyInt {
	rng := rand.New(rand.NewPCG(1, 7))
	in := make([]ByKeyInt, n)
	for i := range in {
		v := int64(rng.Uint64())
		in[i] = ByKeyInt{v, v ^ 1, v ^ 2, v ^ 3}
	}
	return in
}

// ByKeyFloat is a 32-byte record sorted by a float64 field.
type ByKeyFloat struct {
	Score   float64
	A, B, C int64
}

// ByKeyFloatInput returns n ByKeyFloat records with normal random scores.
func ByKeyFloatInput(n int) []ByKeyFloat {
	rng := rand.New(rand.NewPCG(2, 7))
	in := make([]ByKeyFloat, n)
	for i := range in {
		in[i] = ByKeyFloat{rng.NormFloat64() * 1e6, int64(i), 0, 0}
	}
	return in
}

// ByKeyString is a 32-byte record sorted by a string field.
type ByKeyString struct {
	Name string
	A, B int64
}

// ByKeyStringInput returns n ByKeyString records with random 16-character
// names.
func ByKeyStringInput(n int) []ByKeyString {
	rng := rand.New(rand.NewPCG(3, 7))
	in := make([]ByKeyString, n)
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	var s [16]byte
	for i := range in {
		for j := range s {
			s[j] = letters[rng.IntN(len(letters))]
		}
		in[i] = ByKeyString{string(s[:]), int64(i), int64(binary.LittleEndian.Uint64(s[:]))}
	}
	return in
}

// setupSortKey: sortpar.SortByKey against what a Go user writes,
// slices.SortFunc with cmp.Compare on the field.
func setupSortKey(variant string, p int, s Scale) (*Job, error) {
	in := ByKeyIntInput(SortSize(s, SortN))
	key := func(r ByKeyInt) int64 { return r.ID }
	byKey := func(a, b ByKeyInt) int { return cmp.Compare(a.ID, b.ID) }
	whole := func(r ByKeyInt) bool { return r.A == r.ID^1 && r.B == r.ID^2 && r.C == r.ID^3 }
	return setupSorted("sort-key", variant, p, in, byKey, whole, func(r ByKeyInt) uint64 { return mix64(r.ID) },
		func(x []ByKeyInt) { slices.SortFunc(x, byKey) },
		func(x []ByKeyInt, pool *core.Pool) { sortpar.SortByKey(x, key, par.WithPool(pool)) })
}
