//go:build !purego

package uts

// spawnSHANI is spawnGeneric on the x86 SHA extensions (sha1spawn_amd64.s).
//
//go:noescape
func spawnSHANI(p *state, i uint32, out *state)

func cpuid(leaf, sub uint32) (a, b, c, d uint32)

// hasSHANI reports whether the CPU has the SHA extensions and SSE4.1, which
// spawnSHANI needs (SHA1RNDS4 and friends; PINSRQ, PEXTRD).
var hasSHANI = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	_, b7, _, _ := cpuid(7, 0)
	const sse41 = 1 << 19 // CPUID.1:ECX
	const sha = 1 << 29   // CPUID.(7,0):EBX
	return c1&sse41 != 0 && b7&sha != 0
}()

// spawn sets *c to the state of child i of the node with state p. It
// writes in place because a returned state would be copied with 16-byte
// moves that straddle the kernel's two stores, and a store-forwarding
// stall per node costs more than the copy.
func spawn(p *state, i uint32, c *state) {
	if hasSHANI {
		spawnSHANI(p, i, c)
		return
	}
	*c = spawnGeneric(p, i)
}
