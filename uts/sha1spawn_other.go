//go:build !amd64 || purego

package uts

// hasSHANI is false: no SHA-extension kernel on this platform.
const hasSHANI = false

// spawn sets *c to the state of child i of the node with state p.
func spawn(p *state, i uint32, c *state) { *c = spawnGeneric(p, i) }
