//go:build !amd64 || purego

package uts

// hasSHANI is false: no SHA-extension kernel on this platform.
const hasSHANI = false

// spawn returns the state of child i of the node with state p.
func spawn(p *state, i uint32) state { return spawnGeneric(p, i) }
