//go:build !linux

package core

import (
	"fmt"
	"runtime"
	"sync"
)

// topoCurrent is built once, on first use; see the Linux CurrentTopology.
var topoCurrent = sync.OnceValue(func() *Topology { return FlatTopology(runtime.NumCPU()) })

// CurrentTopology returns the topology of this machine. On Linux it reads
// /sys once (see ReadTopology); on this system (no sysfs) it is
// FlatTopology(runtime.NumCPU()), built on first use and shared after.
func CurrentTopology() *Topology { return topoCurrent() }

// currentTopology is CurrentTopology plus the reason the topology is flat.
func currentTopology() (*Topology, error) {
	return topoCurrent(), fmt.Errorf("core: topology: not read on %s: no sysfs; using a flat topology", runtime.GOOS)
}
