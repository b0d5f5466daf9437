//go:build linux

package topology

import "sync"

// current reads this machine's topology from /sys once, on first use. The
// cached value is not hidden tuning state: it describes the hardware, which
// does not change while the process runs (CPU hotplug after the first call
// is not seen).
var current = sync.OnceValue(func() *Machine {
	m, _ := Read("/sys")
	return m
})

// Current returns the topology of this machine. On Linux it reads /sys (see
// Read) the first time it is called and returns the same *Machine ever
// after; if /sys is missing or malformed (some containers and sandboxes) the
// result is flat. On other systems it is Flat(runtime.NumCPU()).
func Current() *Machine { return current() }
