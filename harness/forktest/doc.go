// Package forktest is gofork's reliability suite: random fork-join programs
// checked against a serial oracle, fault injection, load, memory bounds and
// odd pool configurations.
//
// # Random programs
//
// Generate builds a random program from a seed: a tree of at most depth 4
// whose inner nodes are core.Join, core.Invoke, par.For, reduce.Reduce (and
// reduce.Deterministic) and sortpar sorts, and whose leaves do a random amount
// of integer hashing. Some leaves panic for some inputs, some sort
// comparators and reduce joins panic. Every node is a pure function of its
// input, so Program.Serial, a plain recursive interpreter, is an oracle for
// Program.Parallel, which runs the same tree as tasks on a core.Pool:
//
//   - a program without faults must give the serial value, after running
//     every leaf exactly as often as the serial interpreter does;
//   - a program with faults must panic with one of the Fault values the
//     serial interpreter found reachable (it records them instead of
//     panicking), and no leaf of it may still run after Parallel returns.
//
// The tests run a few hundred seeds at 1, 2, 4, 8 and 16 workers (more workers
// than the machine has CPUs, on purpose), and on HelpFirst and Busy pools.
// For longer runs:
//
//	go test ./harness/forktest -run 'TestSoak$' -soak=10m -timeout=0 -v
//	go test ./harness/forktest -race -run 'TestSoak$' -soak=10m -timeout=0 -v
//
// run random seeds for ten minutes and print any failure with the command
// that replays it, such as
//
//	go test ./harness/forktest -run 'TestPrograms(Policies)?$' -seed=N -leaves=L -v
//
// (a program depends on its seed and its leaf budget -leaves, nothing else).
//
// # The other tests
//
// faults_test.go injects panics at every level (leaf, root, comparator,
// reduce join) and cancels contexts in the middle of loops; load_test.go runs
// 256 goroutines of mixed parallel calls on the Default pool under a
// watchdog, and an HTTP server whose handler sorts with sortpar;
// memory_test.go bounds the peak footprint (heap objects and goroutine
// stacks) of fib and of a deep UTS tree at P workers by a constant times P
// times the footprint at one worker; config_test.go changes GOMAXPROCS during
// runs, oversubscribes the CPUs, nests pools, recurses 50000 Joins deep and
// closes pools while other goroutines call Run.
//
// FuzzDeque, the model-based fuzz target of the deque, lives in package core
// (it needs the deque's internals).
package forktest
