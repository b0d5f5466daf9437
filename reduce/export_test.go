package reduce

// ScanSerialMax is the threshold the scan tests size their inputs around.
const ScanSerialMax = scanSerialMax
