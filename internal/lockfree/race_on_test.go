//go:build race

package lockfree

// stressN shrinks the stress tests under the race detector, whose
// instrumentation makes them about ten times slower.
const stressN = 40_000
