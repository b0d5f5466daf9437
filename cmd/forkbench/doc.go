// Command forkbench runs gofork's benchmark suites and compares gofork
// with the serial program and with what a Go user would write instead.
//
//	go run -C cmd/forkbench .          # main suite at P = 1, 2, 4, ... GOMAXPROCS
//	go run . -quick -q                 # in cmd/forkbench: ~10% sizes, no progress line
//	go run . -suite all                # every suite (-list names them)
//	go run . -replot results/results.json -out plots   # plots of a saved run, nothing run
//
// Every configuration (benchmark, variant, P) runs in a child process with
// GOMAXPROCS=P: one warm-up and -runs timed runs, each checked against the
// kernel's oracle. Per benchmark and P it prints the median time, the
// spread, the speedup Ts/Tp, the efficiency, T1/Ts, the child's peak RSS
// (with the libfork paper's fit MRSS ≈ a + b·P^n, a the serial program's)
// and the Go baseline's time over gofork's; then a verdict per kind of row
// with geometric means and the slowest case. With -out DIR it writes
// results.json (every raw run), results.csv and SVG bar charts per suite.
//
// The first Ctrl-C stops after the current run and still reports what was
// measured. Exit status: 0 ok, 1 a verification failure or a crashed child,
// 2 bad flags, 130 interrupted.
//
// forkbench carries no benchmark of its own: it registers every Kernel of
// package harness/kernels, and a kernel's Suite is a -suite name.
package main
