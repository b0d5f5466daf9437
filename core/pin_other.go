//go:build !linux

package core

import (
	"fmt"
	"runtime"
)

// pinCurrentThread is the Linux thread-pinning call; on this system it does
// nothing and returns an error saying pinning is not supported.
func pinCurrentThread(cpu int) error {
	return fmt.Errorf("core: pin to cpu %d: pinning not supported on %s", cpu, runtime.GOOS)
}

// pinAllowedCPUs reports 0..runtime.NumCPU()-1 with an error: the affinity
// mask cannot be read on this system.
func pinAllowedCPUs() ([]int, error) {
	cpus := make([]int, runtime.NumCPU())
	for i := range cpus {
		cpus[i] = i
	}
	return cpus, fmt.Errorf("core: CPU affinity not supported on %s", runtime.GOOS)
}
