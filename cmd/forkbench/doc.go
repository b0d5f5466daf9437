// Command forkbench runs gofork's benchmark suite and compares it with the
// serial program and with what a Go user would write instead.
//
//	go run ./cmd/forkbench                 # main suite at P = 1, 2, 4, ... GOMAXPROCS
//	go run ./cmd/forkbench -quick -q       # ~10% sizes, no progress line
//	go run ./cmd/forkbench -suite pools    # gofork vs hand-written thread pools
//	go run ./cmd/forkbench -out results -compare old/results.json
//	go run ./cmd/forkbench -list           # benchmarks, sizes, what each measures
//
// Every configuration (benchmark, variant, P) runs in a child process (a
// re-exec of forkbench with GOMAXPROCS=P), one warm-up and -runs timed runs,
// each checked against an oracle; the parent reads the child's peak RSS from
// getrusage and fits MRSS ≈ a + b·P^n as in the libfork paper, with a pinned
// to the serial program's peak RSS.
//
// The table on stdout gives per benchmark and P the median time, the spread
// of the runs, the speedup Ts/Tp over the serial program, the efficiency
// speedup/P, the one-worker overhead T1/Ts, the peak RSS, the Go baseline's
// median time and the gofork/baseline ratio. With -out DIR it also writes
// results.json (every raw run and a machine description), results.csv and
// SVG plots: speedup.svg, efficiency.svg, rss.svg, and pools-<test>.svg.
//
// The first Ctrl-C stops after the current run and still prints and writes
// what was measured. Exit status: 0 ok, 1 a verification failure (reported
// loudly) or a crashed child, 2 bad flags, 130 interrupted.
//
// Each benchmark lives in its own bench_*.go file and registers itself, so a
// benchmark whose package is missing is simply absent.
package main
