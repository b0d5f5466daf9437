// Package baseline holds the code a Go user writes by hand where gofork
// offers a call, so that the benchmark suite (cmd/forkbench) and the go test
// benchmarks compare gofork with one and the same baseline.
package baseline
