//go:build !race

package sortpar

const raceEnabled = false
