//go:build !(linux || darwin || freebsd)

package core

// threadCPUTime reports false: no per-thread CPU clock here, so a measured
// run's strands are timed in wall time alone.
func threadCPUTime() (int64, bool) { return 0, false }
