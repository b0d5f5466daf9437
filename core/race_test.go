package core

import "testing"

// scale returns n, shrunk under -short and under the race detector, whose
// instrumentation makes the stress tests about ten times slower.
func scale(n int) int {
	if raceEnabled {
		n /= 10
	}
	if testing.Short() {
		n /= 10
	}
	if n < 1 {
		n = 1
	}
	return n
}
