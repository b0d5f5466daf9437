//go:build linux || darwin || freebsd

package core

import "golang.org/x/sys/unix"

// threadCPUTime returns the CPU time the calling thread has used, in
// nanoseconds, and true; a measured run (workspan.go) takes it off the
// strands during which its thread did not run.
func threadCPUTime() (int64, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return ts.Nano(), true
}
