//go:build linux

package core

import "sync"

// topoCurrent reads this machine's topology from /sys once, on first use.
// The cached value is not hidden tuning state: it describes the hardware,
// which does not change while the process runs (CPU hotplug after the first
// call is not seen).
var topoCurrent = sync.OnceValues(func() (*Topology, error) {
	return ReadTopology("/sys")
})

// CurrentTopology returns the topology of this machine. On Linux it reads
// /sys (see ReadTopology) the first time it is called and returns the same
// *Topology ever after; if /sys is missing or malformed (some containers and
// sandboxes) the result is flat, and currentTopology reports why. On other
// systems it is FlatTopology(runtime.NumCPU()).
func CurrentTopology() *Topology {
	t, _ := topoCurrent()
	return t
}

// currentTopology is CurrentTopology plus the error, if any, that made it
// fall back to a flat topology (for Stats or an error from New).
func currentTopology() (*Topology, error) { return topoCurrent() }
