//go:build unix

package core

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPUTime returns the CPU time the process has used, user and
// system, and true; the governor's fallback estimate of how many of its
// goroutines run when the runtime reports no goroutine states (before Go
// 1.26).
func processCPUTime() (time.Duration, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
