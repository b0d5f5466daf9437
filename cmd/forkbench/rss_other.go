//go:build !unix

package main

import "os"

// peakRSS is not available on this platform; the RSS column stays empty.
func peakRSS(*os.ProcessState) int64 { return 0 }
