// Package baseline holds the code a Go user writes by hand where gofork
// offers a call (a channel pipeline, conc's stream, hand-written thread
// pools), so that every benchmark compares gofork with one and the same
// baseline.
package baseline
