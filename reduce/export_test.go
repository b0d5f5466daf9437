package reduce

import "github.com/gofork/gofork/par"

// ScanSerialMax is the threshold the scan tests size their inputs around.
const ScanSerialMax = scanSerialMax

// HistogramLimit is Histogram with limit elements counted in uint32s
// between flushes into ints, so that the tests reach the flushes.
func HistogramLimit[E any](s []E, buckets int, bucket func(E) int, limit uint64, opts ...par.Option) []int {
	return histogram(s, buckets, bucket, limit, opts)
}

// PrefixBlockLen is the block length of a prefix sum of E, which the tests
// size their inputs around.
func PrefixBlockLen[E any]() int { return prefixBlock[E]() }

// ScanBlockLen is ScanBlocks' default block length.
const ScanBlockLen = scanBlockLen

// BlockBounds is the block arithmetic of the block scans, for the 32-bit
// overflow tests.
func BlockBounds(i, block, n int) (lo, hi int) { return blockBounds(i, block, n) }

// CountsSerialMax is the length up to which Counts runs serially.
const CountsSerialMax = countsSerialMax
