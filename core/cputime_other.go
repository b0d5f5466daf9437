//go:build !unix

package core

import "time"

// processCPUTime reports false: this platform gives no cheap process CPU
// time, and without Go 1.26's goroutine-state metrics the governor then
// starts no spares for detected stalls (Blocking still does).
func processCPUTime() (time.Duration, bool) { return 0, false }
