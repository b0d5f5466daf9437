//go:build !linux

package graph_test

import "time"

// threadTimes is not available here: the benchmarks report no CPU metrics.
func threadTimes() (onCPU, waiting time.Duration, ok bool) { return 0, 0, false }
