package par

// Thresholds the tests size their inputs around.
const (
	FilterSerialMax = filterSerialMax
	SearchHead      = searchHead
	SearchBlock     = searchBlock
	IndexBlock      = indexBlock
)

// SetShuffleSizes sets Shuffle's serial cutoff and bucket length, so that
// tests reach the parallel path with small slices, and returns a function
// that restores them.
func SetShuffleSizes(serialMax, bucketLen int) (restore func()) {
	m, b := shuffleSerialMax, shuffleBucketLen
	shuffleSerialMax, shuffleBucketLen = serialMax, bucketLen
	return func() { shuffleSerialMax, shuffleBucketLen = m, b }
}
