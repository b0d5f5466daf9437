//go:build !gofork_bounds

package forktest

// checkBounds is false in a plain go test: no test asserts a latency or a
// speed there. Build with -tags gofork_bounds (CI's benchmark step does) to
// check the latency bounds of the fairness and latency tests too.
const checkBounds = false
