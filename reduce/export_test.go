package reduce

import "github.com/gofork/gofork/par"

// ScanSerialMax is the threshold the scan tests size their inputs around.
const ScanSerialMax = scanSerialMax

// HistogramLimit is Histogram with limit elements counted in uint32s
// between flushes into ints, so that the tests reach the flushes.
func HistogramLimit[E any](s []E, buckets int, bucket func(E) int, limit uint64, opts ...par.Option) []int {
	return histogram(s, buckets, bucket, limit, opts)
}
