//go:build !linux

package topology

import (
	"runtime"
	"sync"
)

// current is built once, on first use; see the Linux Current.
var current = sync.OnceValue(func() *Machine { return Flat(runtime.NumCPU()) })

// Current returns the topology of this machine. On Linux it reads /sys once
// (see Read); on this system (no sysfs) it is Flat(runtime.NumCPU()), built
// on first use and shared after.
func Current() *Machine { return current() }
