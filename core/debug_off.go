//go:build !gofork_debug

package core

// debugChecks turns the runtime's invariants into checks that panic; it is
// on in builds tagged gofork_debug (see debug_on.go).
const debugChecks = false

func (p *Pool) checkCounts(c uint64, node int32, sleepingChanged bool) {}
func (p *Pool) checkEnterIdle(w *Worker, why waitReason)               {}
func (d *deque) checkShared()                                          {}
func (w *Worker) checkJobs()                                           {}
func (p *Pool) checkFreeGuest(g *Worker)                               {}
func checkUnregistered(t *gTable, g uintptr, w *Worker)                {}
func (p *Pool) checkPlaces()                                           {}
func (w *Worker) checkMaySearch()                                      {}
