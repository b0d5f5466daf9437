// Command uts runs the Unbalanced Tree Search benchmark on the gofork
// runtime and prints the tree's size, depth and leaves, the time and the
// rate, like the reference program.
//
// Usage:
//
//	uts [-tree NAME] [-workers N] [-serial] [tree flags]
//
// The tree flags are the reference's: -t -a -d -b -r -q -m -f -g (see
// uts.Parse). -tree starts from a named tree (default, T1, T1L, T1XXL, T2,
// T2L, T3, T3L, T3XXL, T4, T5), and tree flags, wherever they stand,
// override its parameters. -workers sets the pool size (default GOMAXPROCS); -serial
// runs uts.SearchSerial instead. For a named tree with published counts the
// command checks them and exits with status 1 on a mismatch.
//
// Examples:
//
//	go run ./cmd/uts -t 1 -a 3 -d 10 -b 4 -r 19
//	go run ./cmd/uts -tree T1L -workers 2
//	go run ./cmd/uts -tree T3 -serial
package main
