// Command forkbench runs gofork's benchmark suites and compares gofork
// with the serial program and with what a Go user would write instead.
//
//	go run -C cmd/forkbench .          # main suite at P = 1, 2, 4, ... GOMAXPROCS
//	go run . -quick -q                 # in cmd/forkbench: ~10% sizes, no progress line
//	go run . -suite all                # every suite (-list names them)
//	go run . -replot results/results.json -out plots   # plots of a saved run, nothing run
//
// Every configuration (benchmark, variant, P) runs in a child process (a
// re-exec of forkbench with GOMAXPROCS=P), one warm-up and -runs timed runs,
// each checked against the kernel's oracle; the parent reads the child's
// peak RSS from getrusage and fits MRSS ≈ a + b·P^n as in the libfork
// paper, with a pinned to the serial program's peak RSS.
//
// # Output
//
// The first line describes the machine, with how many cores its CPUs sit
// on and whether some are SMT siblings (two workers on siblings share a
// core, so T1/T2 stays well below 2). Each suite prints its benchmarks in a
// table per kind of row: as a user writes it (serial below a cutoff, the
// same for gofork and its Go baseline, or a library call that splits the
// work its own way), fork everywhere (a fork at every call, the runtime's
// cost T1/Ts; each such recursive benchmark X has a twin X-cutoff), and
// latency and waiting (a latency a run measured, or mostly sleeping: no
// speedup, compared with the Go baseline only). A table gives per
// benchmark and P the median time, the spread of the runs, the speedup
// Ts/Tp, the efficiency speedup/P, T1/Ts, the peak RSS and the Go
// baseline's time over gofork's; under it each benchmark's cutoff and Go
// baseline. A benchmark with several baselines (the pools suite's designs)
// gets a column per design instead.
//
// The verdict block gives, against the Go baselines and then against the
// serial programs, per kind of row, the ratio for each benchmark and P and
// per P the geometric mean over the benchmarks and the slowest case:
//
//	at P=2 gofork is 1.31x faster than goroutines+WaitGroup over 3 benchmarks as a user writes them (geometric mean); slowest case: integrate-cutoff 0.97x
//
// With -out DIR it writes results.json (every raw run, the machine, each
// benchmark's kind, cutoff and baseline, the verdict; see Results),
// results.csv and, per suite, SVG bar charts at the largest P measured:
// speedup-<suite>.svg (Ts/TP) and rss-<suite>.svg, or a bar per design for
// the pools suite. Bars are sorted from the largest value down, labelled
// with their value, speedups on a log scale from 1 with reference lines at
// 1 and, where it fits, at the ideal P. An -out directory that cannot be written is refused before anything
// runs.
//
// The first Ctrl-C stops after the current run and still prints and writes
// what was measured. Exit status: 0 ok, 1 a verification failure or a
// crashed child, 2 bad flags, 130 interrupted.
//
// # Adding a benchmark or a suite
//
// forkbench carries no benchmark of its own: it registers every Kernel of
// harness/kernels, whose package doc says how to add one. A kernel's Suite
// is a -suite name; -suite all, -list and the help include it, and the
// tables, the verdict, results.json and the plots pick it up. register
// checks that a kernel with a Go baseline names it and says where both
// sides stop forking.
package main
