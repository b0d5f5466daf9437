//go:build linux

package core

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pinSetSize is the number of CPUs a unix.CPUSet can name (1024, glibc's
// CPU_SETSIZE); larger CPU numbers cannot be pinned to.
const pinSetSize = 8 * int(unsafe.Sizeof(unix.CPUSet{}))

// pinCurrentThread locks the calling goroutine to its OS thread
// (runtime.LockOSThread) and restricts that thread to the single CPU cpu
// (sched_setaffinity). On failure (a CPU number out of range, a CPU outside
// the process's cpuset in a container, a seccomp filter) it unlocks the thread
// again and returns an error with the reason; it never panics.
//
// On success the goroutine stays locked. A pinned worker must never call
// runtime.UnlockOSThread: it should exit while still locked, so the runtime
// destroys the pinned thread instead of handing it, with its one-CPU affinity,
// to other goroutines.
func pinCurrentThread(cpu int) error {
	if cpu < 0 || cpu >= pinSetSize {
		return fmt.Errorf("core: pin to cpu %d: CPU number out of range [0, %d)", cpu, pinSetSize)
	}
	runtime.LockOSThread()
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		runtime.UnlockOSThread()
		why := ""
		switch {
		case errors.Is(err, unix.EINVAL):
			why = " (the CPU is offline, absent, or outside this process's cpuset/taskset mask)"
		case errors.Is(err, unix.EPERM):
			why = " (not permitted, e.g. by a seccomp or security policy)"
		}
		return fmt.Errorf("core: pin to cpu %d: sched_setaffinity: %w%s", cpu, err, why)
	}
	return nil
}

// pinAllowedCPUs returns the CPUs the calling thread may run on
// (sched_getaffinity), ascending. Called from an unpinned goroutine (before
// starting pinned workers) that is the process's mask, so the spread order of
// topology.Current().Restrict(allowed) only picks CPUs that pinning can use
// under taskset or a container cpuset. From a pinned thread it is that one CPU.
func pinAllowedCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("core: sched_getaffinity: %w", err)
	}
	var cpus []int
	for c := 0; c < pinSetSize; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}
