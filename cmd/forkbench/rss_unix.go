//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS returns the child's maximum resident set size in bytes, from the
// rusage that wait4 returned for it.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) * 1024 // KiB elsewhere
}
