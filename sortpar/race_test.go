//go:build race

package sortpar

const raceEnabled = true
