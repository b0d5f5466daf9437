package reduce

// Thresholds the tests size their inputs around.
const (
	ScanSerialMax  = scanSerialMax
	ScanRoundBytes = scanRoundBytes
)
