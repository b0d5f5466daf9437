//go:build !race

package forktest

const raceEnabled = false
