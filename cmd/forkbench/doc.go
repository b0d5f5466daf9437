// Command forkbench runs gofork's benchmark suite and compares it with the
// serial program and with what a Go user would write instead.
//
//	go run -C cmd/forkbench .          # main suite at P = 1, 2, 4, ... GOMAXPROCS
//	go run . -quick -q                 # in cmd/forkbench: ~10% sizes, no progress line
//	go run . -suite pools              # gofork vs hand-written thread pools
//	go run . -suite all                # every suite
//	go run . -out results -compare old/results.json
//	go run . -list                     # suites, benchmarks, sizes, baselines, cutoffs
//	go run . -replot results/results.json -out plots   # plots of a saved run, nothing run
//
// Every configuration (benchmark, variant, P) runs in a child process (a
// re-exec of forkbench with GOMAXPROCS=P), one warm-up and -runs timed runs,
// each checked against an oracle; the parent reads the child's peak RSS from
// getrusage and fits MRSS ≈ a + b·P^n as in the libfork paper, with a pinned
// to the serial program's peak RSS.
//
// # Output
//
// The first line describes the machine, including how many cores its CPUs
// sit on and whether some are SMT siblings (topology.Current): two
// workers on siblings share one core, so T1/T2 stays well below 2.
//
// Each suite prints its benchmarks in tables by kind of row:
//
//   - as a user writes it: a recursive benchmark runs serially below a
//     cutoff (a size or depth whose leaves take ~10-100 µs), the same for
//     gofork and for its Go baseline, so both do the same work; a library
//     call (linalg.Mul, sortpar.Sort, par.ForRange) splits the work its own
//     way. This answers the user's question: what do I gain by writing my
//     code with gofork instead of goroutines?
//   - fork everywhere: a fork at every call and no cutoff, libfork's setting
//     for the cost of the runtime (T1/Ts); a Go baseline there forks at
//     every call too. Each such recursive benchmark X has a twin X-cutoff.
//     The pools suite's light test (a task per item of no work) is of this
//     kind too.
//   - latency and waiting: the time is a latency a run measured (the
//     server and server-seq rows, whose serial row is their Go baseline)
//     or mostly waiting (blocking, whose serial program sleeps item after
//     item). There is no serial program to speed up, so these
//     rows show no speedup, are compared with their Go baseline only, and
//     are left out of the speedup and efficiency plots.
//
// A table gives per benchmark and P the median time, the spread of the runs,
// the speedup Ts/Tp over the serial program, the efficiency speedup/P, the
// one-worker overhead T1/Ts, the peak RSS, the Go baseline's median time and
// base/gofork, the baseline's time over gofork's (above 1x gofork is
// faster). Under it, each benchmark's cutoff and Go baseline are named. A
// benchmark with several baselines (the pools suite's designs) gets a table
// with a column per variant instead.
//
// The verdict block at the end gives, for gofork against the Go baselines
// and then against the serial programs, per kind of row (the latency and
// waiting rows against their Go baselines only), the ratio for each
// benchmark and P, and per P one line with the geometric mean over the
// benchmarks and the slowest case, e.g.
//
//	at P=2 gofork is 1.31x faster than goroutines+WaitGroup over 3 benchmarks as a user writes them (geometric mean); slowest case: integrate-cutoff 0.97x
//
// With -out DIR it also writes results.json (every raw run, a machine
// description, each benchmark's kind, cutoff and baseline, and the verdict
// with its ratios and lines, see Results and Verdict), results.csv and SVG
// plots, one of each per suite: speedup-<suite>.svg (Ts/TP),
// efficiency-<suite>.svg (Ts/(P·TP)) and rss-<suite>.svg (peak RSS), the
// first two without the latency rows; a suite whose benchmarks have a
// column per design (pools) gets speedup-<suite>.svg with a bar or a line
// per design instead. A suite measured at fewer than three values of P is
// drawn as horizontal bars at the largest P, sorted from the largest value
// down, each bar labelled with its value and each row with the benchmark's
// full name; speedups and efficiencies on a log scale from 1, so that
// slower than the serial program points left, with reference lines at 1
// and, where it fits, at the ideal P. From three values of P on, each plot
// draws a line per benchmark against P, the legend in the order of the
// lines' ends. An -out directory that cannot be written is refused before
// anything runs. -replot FILE -out DIR draws the plots of a saved
// results.json again, running nothing. -compare OLD.json
// compares only configurations of the same problem size, and warns when
// one run used -quick sizes and the other did not.
//
// The first Ctrl-C stops after the current run and still prints and writes
// what was measured. Exit status: 0 ok, 1 a verification failure (reported
// loudly) or a crashed child, 2 bad flags (a one-line error; -h prints the
// usage), 130 interrupted.
//
// # Adding a benchmark or a suite
//
// forkbench carries no benchmark of its own: it registers every Kernel of
// harness/kernels, whose package doc says how to add one. A kernel's Suite
// is a -suite name: -suite accepts every name some kernel gives, and -suite
// all, -list and the help include it. The tables, the verdict,
// results.json and the plots pick a new kernel up from the registry.
// register checks that a kernel with a Go baseline names it and says where
// both sides stop forking, and TestForkEverywhereHasCutoffTwin that a
// kernel forking everywhere has a <name>-cutoff row as a user writes it.
package main
