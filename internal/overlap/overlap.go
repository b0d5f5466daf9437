// Package overlap tells whether two slices share memory. The primitives that
// write one slice while reading others (reduce.Scan, sortpar.Merge) use it to
// refuse overlapping arguments before they write anything.
package overlap

import "unsafe"

// Find reports whether x and y share an element and, if they do, the index in
// x and the index in y of the first shared one. Slices of zero-size elements
// never overlap.
func Find[E any](x, y []E) (i, j int, ok bool) {
	size := unsafe.Sizeof(*new(E))
	if len(x) == 0 || len(y) == 0 || size == 0 {
		return 0, 0, false
	}
	px := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	py := uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	if px >= py+uintptr(len(y))*size || py >= px+uintptr(len(x))*size {
		return 0, 0, false
	}
	first := max(px, py)
	return int((first - px) / size), int((first - py) / size), true
}

// Same reports whether x and y are the same slice: same first element and
// same length (the only overlap an in-place operation accepts).
func Same[E any](x, y []E) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}
