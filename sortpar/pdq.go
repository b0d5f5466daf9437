// The serial pdqsort pieces below are adapted from Go's
// src/slices/zsortanyfunc.go (Copyright 2022 The Go Authors, BSD-style
// license in Go's LICENSE file). pdqsort: Orson Peters, "Pattern-defeating
// Quicksort", https://arxiv.org/pdf/2106.05123.pdf.

package sortpar

import "math/bits"

// sortedHint is what choosePivot learnt about the order of its samples.
type sortedHint int

const (
	// unknownHint: the samples were in no particular order.
	unknownHint sortedHint = iota
	// increasingHint: every sample comparison was in order.
	increasingHint
	// decreasingHint: every sample comparison was reversed.
	decreasingHint
)

// xorshift is the tiny RNG breakPatterns uses (Marsaglia 2003).
type xorshift uint64

func (r *xorshift) Next() uint64 {
	*r ^= *r << 13
	*r ^= *r >> 7
	*r ^= *r << 17
	return uint64(*r)
}

func nextPowerOfTwo(length int) uint {
	return 1 << bits.Len(uint(length))
}

// siftDown restores the heap property on data[first+lo : first+hi].
func siftDown[E any](data []E, lo, hi, first int, cmp func(a, b E) int) {
	root := lo
	for {
		child := 2*root + 1
		if child >= hi {
			return
		}
		if child+1 < hi && cmp(data[first+child], data[first+child+1]) < 0 {
			child++
		}
		if !(cmp(data[first+root], data[first+child]) < 0) {
			return
		}
		data[first+root], data[first+child] = data[first+child], data[first+root]
		root = child
	}
}

// heapSort sorts data[a:b]: the O(n log n) fallback once a range has had
// too many bad pivots.
func heapSort[E any](data []E, a, b int, cmp func(a, b E) int) {
	first, hi := a, b-a
	for i := (hi - 1) / 2; i >= 0; i-- {
		siftDown(data, i, hi, first, cmp)
	}
	for i := hi - 1; i >= 0; i-- {
		data[first], data[first+i] = data[first+i], data[first]
		siftDown(data, 0, i, first, cmp)
	}
}

// insertionSort sorts data[a:b] by adjacent swaps (so a panicking cmp
// leaves a permutation).
func insertionSort[E any](data []E, a, b int, cmp func(a, b E) int) {
	for i := a + 1; i < b; i++ {
		for j := i; j > a && cmp(data[j], data[j-1]) < 0; j-- {
			data[j], data[j-1] = data[j-1], data[j]
		}
	}
}

// partitionSerial does one quicksort partition of data[a:b] around
// p = data[pivot]. Afterwards data[i] < p for i < newpivot, data[newpivot]
// = p and data[j] >= p for j > newpivot. alreadyPartitioned reports that no
// element had to move.
func partitionSerial[E any](data []E, a, b, pivot int, cmp func(a, b E) int) (newpivot int, alreadyPartitioned bool) {
	data[a], data[pivot] = data[pivot], data[a]
	i, j := a+1, b-1 // inclusive bounds of what is left to partition
	for i <= j && cmp(data[i], data[a]) < 0 {
		i++
	}
	for i <= j && !(cmp(data[j], data[a]) < 0) {
		j--
	}
	if i > j {
		data[j], data[a] = data[a], data[j]
		return j, true
	}
	data[i], data[j] = data[j], data[i]
	i++
	j--
	for {
		for i <= j && cmp(data[i], data[a]) < 0 {
			i++
		}
		for i <= j && !(cmp(data[j], data[a]) < 0) {
			j--
		}
		if i > j {
			break
		}
		data[i], data[j] = data[j], data[i]
		i++
		j--
	}
	data[j], data[a] = data[a], data[j]
	return j, false
}

// partitionEqual moves the elements of data[a:b] equal to p = data[pivot]
// to the front and returns where the greater ones start. It assumes no
// element of data[a:b] is less than p.
func partitionEqual[E any](data []E, a, b, pivot int, cmp func(a, b E) int) (newpivot int) {
	data[a], data[pivot] = data[pivot], data[a]
	i, j := a+1, b-1
	for {
		for i <= j && !(cmp(data[a], data[i]) < 0) {
			i++
		}
		for i <= j && cmp(data[a], data[j]) < 0 {
			j--
		}
		if i > j {
			break
		}
		data[i], data[j] = data[j], data[i]
		i++
		j--
	}
	return i
}

// partialInsertionSort fixes up to a few out-of-order pairs in data[a:b]
// and reports whether the range is then sorted.
func partialInsertionSort[E any](data []E, a, b int, cmp func(a, b E) int) bool {
	const (
		maxSteps         = 5  // adjacent out-of-order pairs we are willing to shift
		shortestShifting = 50 // don't shift anything in shorter ranges
	)
	i := a + 1
	for range maxSteps {
		for i < b && !(cmp(data[i], data[i-1]) < 0) {
			i++
		}
		if i == b {
			return true
		}
		if b-a < shortestShifting {
			return false
		}
		data[i], data[i-1] = data[i-1], data[i]
		// Shift the smaller one to the left.
		if i-a >= 2 {
			for j := i - 1; j >= a+1; j-- {
				if !(cmp(data[j], data[j-1]) < 0) {
					break
				}
				data[j], data[j-1] = data[j-1], data[j]
			}
		}
		// Shift the greater one to the right.
		if b-i >= 2 {
			for j := i + 1; j < b; j++ {
				if !(cmp(data[j], data[j-1]) < 0) {
					break
				}
				data[j], data[j-1] = data[j-1], data[j]
			}
		}
	}
	return false
}

// breakPatterns swaps three elements near the middle of data[a:b] with
// pseudo-random others, to defeat inputs built against the pivot choice.
func breakPatterns[E any](data []E, a, b int) {
	length := b - a
	if length < 8 {
		return
	}
	random := xorshift(length)
	modulus := nextPowerOfTwo(length)
	for idx := a + (length/4)*2 - 1; idx <= a+(length/4)*2+1; idx++ {
		other := int(uint(random.Next()) & (modulus - 1))
		if other >= length {
			other -= length
		}
		data[idx], data[a+other] = data[a+other], data[idx]
	}
}

// choosePivot picks a pivot index in data[a:b] (a Tukey ninther for ranges
// of 50 or more) and reports what the samples said about the order.
func choosePivot[E any](data []E, a, b int, cmp func(a, b E) int) (pivot int, hint sortedHint) {
	const (
		shortestNinther = 50
		maxSwaps        = 4 * 3
	)
	l := b - a
	var (
		swaps int
		i     = a + l/4*1
		j     = a + l/4*2
		k     = a + l/4*3
	)
	if l >= 8 {
		if l >= shortestNinther {
			i = median(data, i-1, i, i+1, &swaps, cmp)
			j = median(data, j-1, j, j+1, &swaps, cmp)
			k = median(data, k-1, k, k+1, &swaps, cmp)
		}
		j = median(data, i, j, k, &swaps, cmp)
	}
	switch swaps {
	case 0:
		return j, increasingHint
	case maxSwaps:
		return j, decreasingHint
	default:
		return j, unknownHint
	}
}

// order2 returns x, y with data[x] <= data[y], where {x, y} = {a, b}.
func order2[E any](data []E, a, b int, swaps *int, cmp func(a, b E) int) (int, int) {
	if cmp(data[b], data[a]) < 0 {
		*swaps++
		return b, a
	}
	return a, b
}

// median returns the index among a, b, c holding the median value.
func median[E any](data []E, a, b, c int, swaps *int, cmp func(a, b E) int) int {
	a, b = order2(data, a, b, swaps, cmp)
	b, _ = order2(data, b, c, swaps, cmp) // the larger of b, c is not the median
	_, b = order2(data, a, b, swaps, cmp)
	return b
}

// reverseRange reverses data[a:b].
func reverseRange[E any](data []E, a, b int) {
	for i, j := a, b-1; i < j; i, j = i+1, j-1 {
		data[i], data[j] = data[j], data[i]
	}
}
