// Package topology describes the machine a program runs on as a tree: NUMA
// node > package (socket) > shared cache (L3, then L2) > core > CPU (hardware
// thread). gofork's core package uses it to place workers on CPUs (Spread)
// and to steal from near workers before far ones (Distance).
//
// A Machine is built by Read (a sysfs tree: /sys on Linux, or a recorded
// copy), Flat (no structure) or Current (this machine, read once). It is
// immutable, so it may be shared freely between goroutines.
//
// # Glossary
//
//   - CPU: a hardware thread, named by the number the kernel gives it (the
//     N of /sys/devices/system/cpu/cpuN).
//   - level: one layer of the tree (node, package, L3, L2, core); a level
//     the machine does not report (no L3, say) is skipped.
//   - distance: the innermost level two CPUs do not share, on a fixed scale
//     from DistanceSame to DistanceRemote.
package topology
