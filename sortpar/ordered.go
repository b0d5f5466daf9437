package sortpar

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/gofork/gofork/core"
)

// keyKind says how the bits of a primitive element map to an unsigned radix
// key that orders like the element.
type keyKind int

const (
	// keyUnsigned: the bits are the key.
	keyUnsigned keyKind = iota
	// keySigned: flipping the sign bit gives the key.
	keySigned
	// keyFloat: the IEEE-754 map in floatKey, with every NaN below -Inf.
	keyFloat
	// keyNone: not a radix type (strings).
	keyNone
)

// kindOf returns the radix key kind of E, decided from its reflect.Kind so
// that named types (type Celsius float64) take the same path as the
// predeclared ones.
func kindOf[E cmp.Ordered]() keyKind {
	switch reflect.TypeFor[E]().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return keySigned
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return keyUnsigned
	case reflect.Float32, reflect.Float64:
		return keyFloat
	}
	return keyNone
}

// sortOrdered is Sort after option handling: radix sort for numbers,
// parallel quicksort for strings.
func sortOrdered[E cmp.Ordered](x []E, c *config) {
	kind := kindOf[E]()
	if len(x) < c.cutoff || (kind != keyNone && len(x) < c.radixMin) {
		slices.Sort(x)
		return
	}
	inOneRun(c, func() { sortOrderedIn(x, kind, c) })
}

func sortOrderedIn[E cmp.Ordered](x []E, kind keyKind, c *config) {
	sorted, reversed := scanOrdered(x, false, c)
	switch {
	case sorted:
		return
	case reversed:
		reverse(x, c)
		return
	}
	if kind == keyNone {
		// Only ~string is left in cmp.Ordered.
		s := unsafe.Slice((*string)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
		if stringsLookRandom(s) {
			sortStrings(s, c)
		} else {
			quicksort(s, strings.Compare, func(s []string) { slices.Sort(s) }, c)
		}
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(x))
	switch unsafe.Sizeof(x[0]) {
	case 1:
		radixSort(unsafe.Slice((*uint8)(p), len(x)), kind, c)
	case 2:
		radixSort(unsafe.Slice((*uint16)(p), len(x)), kind, c)
	case 4:
		radixSort(unsafe.Slice((*uint32)(p), len(x)), kind, c)
	case 8:
		radixSort(unsafe.Slice((*uint64)(p), len(x)), kind, c)
	default:
		panic("sortpar: unexpected element size") // no such cmp.Ordered type
	}
}

// sortStableOrdered is SortStable after option handling.
func sortStableOrdered[E cmp.Ordered](x []E, c *config) {
	if kindOf[E]() == keyFloat {
		// -0 == +0 and NaN == NaN under cmp.Compare yet they differ in bits,
		// so their order must be kept: use the stable comparison sort.
		sortStableFunc(x, cmp.Compare[E], c)
		return
	}
	// Equal integers or strings are indistinguishable: any sort is stable.
	sortOrdered(x, c)
}

// strKey is a string with eight of its bytes cached as a big-endian number
// (zero-padded): the bytes right after the prefix that all strings of the
// slice share, so most comparisons need not load the string bytes at all.
type strKey struct {
	pre uint64
	s   string
}

// strKeyCmp returns the comparison of strKeys whose cached bytes start at
// off. It orders them like their strings: the strings share every byte
// before off; when the cached bytes differ their order is the strings'
// order (a zero pad byte can only be below a real byte where the shorter
// string is a prefix of the longer one, which sorts first too); when they
// are equal and neither string goes past them, the shorter string is a
// prefix of the longer.
func strKeyCmp(off int) func(a, b strKey) int {
	end := off + 8
	return func(a, b strKey) int {
		if a.pre != b.pre {
			if a.pre < b.pre {
				return -1
			}
			return 1
		}
		if len(a.s) <= end && len(b.s) <= end {
			return cmp.Compare(len(a.s), len(b.s))
		}
		return strings.Compare(a.s, b.s)
	}
}

// strPrefix returns the eight bytes of s from off on, big-endian,
// zero-padded.
func strPrefix(s string, off int) uint64 {
	s = s[off:]
	if len(s) >= 8 {
		return uint64(s[0])<<56 | uint64(s[1])<<48 | uint64(s[2])<<40 | uint64(s[3])<<32 |
			uint64(s[4])<<24 | uint64(s[5])<<16 | uint64(s[6])<<8 | uint64(s[7])
	}
	var p uint64
	for i := range 8 {
		p <<= 8
		if i < len(s) {
			p |= uint64(s[i])
		}
	}
	return p
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// sortStrings sorts x by the parallel quicksort on (cached bytes, string)
// pairs: the comparisons of a string sort are dominated by cache misses on
// the string bytes, and the cached bytes decide most of them from the pair
// array alone. A first parallel pass finds the prefix all strings share (no
// string is shorter than it) so that the cached bytes are ones that differ.
// The pairs take 24 bytes per string.
func sortStrings(x []string, c *config) {
	n := len(x)
	keys := make([]strKey, n)
	k := chunks(n, c.grain, c.pool.Workers())
	lcps := make([]int, k)
	lcp := 0
	c.pool.Run(func(w *core.Worker) {
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(n, k, i)
			l := len(x[0])
			for j := lo; j < hi && l > 0; j++ {
				l = min(l, commonPrefix(x[0][:l], x[j]))
			}
			lcps[i] = l
		})
		lcp = slices.Min(lcps)
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(n, k, i)
			for j := lo; j < hi; j++ {
				keys[j] = strKey{strPrefix(x[j], lcp), x[j]}
			}
		})
	})
	cmpKey := strKeyCmp(lcp)
	quicksort(keys, cmpKey, func(s []strKey) { slices.SortFunc(s, cmpKey) }, c)
	c.pool.Run(func(w *core.Worker) {
		parFor(w, k, func(_ *core.Worker, i int) {
			lo, hi := chunkBounds(n, k, i)
			for j := lo; j < hi; j++ {
				x[j] = keys[j].s
			}
		})
	})
}

// stringSamples is how many positions stringsLookRandom looks at.
const stringSamples = 64

// stringsLookRandom decides between the two string sorts from a sample of
// stringSamples pseudo-random positions. The cached-bytes sort pays for
// building and writing back its pairs only where comparisons are expensive:
// when most sampled strings are distinct and few sampled triples are
// monotone (runs, as in sawtooth or organ-pipe inputs, make slices.Sort's
// comparisons cheap and its partitions short). Measured on 1M 16-byte
// strings: 1.5-1.9x faster on random ones, 0.7-0.9x on few-distinct and
// presorted ones, which therefore take the plain quicksort.
func stringsLookRandom(x []string) bool {
	n := len(x)
	if n < 3*stringSamples {
		return false
	}
	r := xorshift(uint64(n)*0x9E3779B97F4A7C15 | 1)
	var sample [stringSamples]string
	monotone := 0
	for k := range sample {
		i := int(r.Next() % uint64(n-2))
		a, b, c := x[i], x[i+1], x[i+2]
		if (a < b && b < c) || (a > b && b > c) {
			monotone++
		}
		sample[k] = a
	}
	slices.Sort(sample[:])
	distinct := len(slices.Compact(sample[:]))
	// Random triples are monotone with probability 1/3.
	return distinct >= stringSamples*3/4 && monotone <= stringSamples/2
}
