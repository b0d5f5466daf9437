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
	// keyFloat: the IEEE-754 map of radixCtx.toKey, with every NaN below -Inf.
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
// samplesort for strings.
func sortOrdered[E cmp.Ordered](x []E, c *config) {
	kind := kindOf[E]()
	if len(x) < c.cutoff || (kind != keyNone && len(x) < c.radixMin) {
		slices.Sort(x)
		return
	}
	c.pool.Run(func(w *core.Worker) { sortOrderedOn(w, x, kind, c) })
}

// sortOrderedOn is sortOrdered on w, for a slice too long for slices.Sort.
func sortOrderedOn[E cmp.Ordered](w *core.Worker, x []E, kind keyKind, c *config) {
	sorted, reversed := scanOrdered(w, x, false, c)
	switch {
	case sorted:
		return
	case reversed:
		reverse(w, x, c)
		return
	}
	if kind == keyNone {
		// Only ~string is left in cmp.Ordered.
		s := unsafe.Slice((*string)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
		samplesort(w, s, strings.Compare, c.stringLeaf, c)
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(x))
	switch unsafe.Sizeof(x[0]) {
	case 1:
		radixSort(w, unsafe.Slice((*uint8)(p), len(x)), kind, c)
	case 2:
		radixSort(w, unsafe.Slice((*uint16)(p), len(x)), kind, c)
	case 4:
		radixSort(w, unsafe.Slice((*uint32)(p), len(x)), kind, c)
	case 8:
		radixSort(w, unsafe.Slice((*uint64)(p), len(x)), kind, c)
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
