//go:build !race

package lockfree

// stressN is the size of the stress tests (see race_on_test.go).
const stressN = 400_000
