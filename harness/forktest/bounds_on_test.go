//go:build gofork_bounds

package forktest

// checkBounds is true under the gofork_bounds build tag: the fairness and
// latency tests then also assert their latency bounds.
const checkBounds = true
