//go:build !race

package uts

// raceEnabled scales the big searches down under the race detector.
const raceEnabled = false
