// Package reduce folds an index range or a slice to one value in parallel,
// as fork-join tasks on a core.Pool. Every function takes ...par.Option, as
// package par's loops do (the scans take par.WithPool only, ScanBlocks
// also par.Grain).
//
// # Forms
//
// Reduce is the functional form: body folds a subrange into an accumulator
// that starts at the identity, and join merges the results of neighbouring
// subranges. ReduceBody is TBB's imperative form: a Body accumulates
// subranges into itself, is split only when a thief takes the right half of
// its range, and joins the thief's body back afterwards. Deterministic is
// Reduce on a fixed split tree, for results that must not depend on the
// scheduling.
//
// Sum, Min, Max, MinFunc, MaxFunc, CountFunc and MapReduce cover the common
// cases on slices.
//
// # Built-in ops and block forms
//
// A callback (op, bucket, mapf, pred) is a func value, and a call through
// a func value is not inlined: it costs about a nanosecond, more than a
// plain loop spends on an element. Two kinds of function have no call per
// element:
//
//   - built-in ops: PrefixSum and PrefixSumInclusive (running sums), Counts
//     (the histogram of integer keys), Sum, Min and Max;
//   - block forms, whose callback is the caller's own loop over a block
//     [lo, hi) of an index range, so that the op compiles into that loop
//     and the call is paid once per block: ScanBlocks for Scan and
//     ScanInclusive, HistogramBlocks for Histogram, Reduce for MapReduce
//     and CountFunc.
//
// They run as fast as the loop a caller would write by hand; the
// per-element forms stay the shortest to call.
//
// # Order and associativity
//
// Results are joined left to right in range order: join(x, y) always has x
// from the subrange just before y's. An associative join therefore gives the
// serial answer even when it is not commutative (string concatenation, matrix
// products). Floating-point addition is not associative, so a float sum from
// Reduce can differ in the last bits from run to run and between worker
// counts; Deterministic and Sum give the same bits on every run and every
// worker count.
//
// Partitioners (par.Auto, par.Simple, par.Static, par.Affinity, par.Grain)
// work as they do for par.For.
//
// # Prefix combinations
//
// Scan (exclusive, returning the total) and ScanInclusive write the prefix
// combinations of a slice, as a serial loop would: dst[i] combines
// src[0..i-1] (or src[0..i]) in order, so an associative op that is not
// commutative is fine. On p workers the slice is cut into p+1 equal
// segments and scanned in two fork-join phases of p tasks:
//
//   - segment 0 is written, its start being known, while segments 1..p-1
//     are only folded (op over the segment, nothing written);
//   - the start of each segment follows, in order, from the folds (p-1
//     calls of op, on the calling task);
//   - segments 1..p are written, in parallel.
//
// Work: n calls of op on one worker (a single serial pass), n + (p-1)n/(p+1)
// on p. Span: two segments, 2n/(p+1): a speedup of (p+1)/2, which on two
// workers (1.5) is the most any scan can reach (a prefix circuit's size
// plus depth is at least 2n-2: Snir 1986). Slices of at most 4096 elements
// are scanned on the calling goroutine.
//
// PrefixSum, PrefixSumInclusive and ScanBlocks scan in one pass over
// memory. The range is cut into blocks (256 KiB of elements for the prefix
// sums, par.Grain elements for ScanBlocks), which one task per worker
// claims in increasing order, and each block is resolved one of three ways:
//
//   - its predecessor's inclusive prefix is known when it is claimed: it is
//     scanned at once, in one pass (with one worker, every block);
//   - otherwise it is folded to its aggregate, which brings it into the
//     worker's cache, and looks back over the blocks before it to the
//     nearest one with a prefix, combining their aggregates on the way
//     (decoupled look-back: Merrill and Garland, "Single-pass Parallel
//     Prefix Scan with Decoupled Look-back", 2016); it publishes its own
//     prefix, then scans the block again, from the cache;
//   - if the look-back meets a block that has published nothing yet, the
//     block is published as partial (its aggregate and that of the run of
//     blocks back to that one) and handed off: the task that publishes the
//     prefix of the block before it takes it over and scans it.
//
// Two workers that claim blocks in turn fold nearly every block. On a scan
// of at most 64 blocks, which the cache holds, two workers start apart: the
// first scans the first fifth of the blocks directly while the second
// folds the blocks after them; the first takes those over and scans them,
// and the second, its carry then known, scans the rest directly. That is
// the schedule of a two-phase scan cut in three, with about two fifths of
// the blocks folded instead of nearly all.
//
// No task waits for another, so a slow worker, a nested loop in a callback
// or a panic holds up no other task; a task that hands off many blocks in
// a row (the one they wait for is held by a worker that does not run)
// stops claiming. Each element is read from memory once and written once. Work: one scan of every block and one fold of each
// block whose carry was not known when it was claimed (none with one
// worker, at most all of them), plus O(1) atomic operations and calls of op
// per block.
//
// The scans' phases and blocks are cut by the number of workers and the
// block length, so partitioner options do not apply to them (they panic).
//
// # Histograms
//
// Histogram counts elements per bucket as one split/join loop: each run of
// leaves on one worker counts into one histogram, a range a thief takes
// counts into a new one, and the join adds the right histogram into the
// left. Work: n calls of bucket plus one histogram's worth of additions per
// steal. Span: O(log n + buckets).
//
// Counts and HistogramBlocks count into one table per worker instead,
// whatever the partitioner does (a block nested in another on the same
// worker, under a parallel loop its callback ran, gets a table of its
// own), and add the tables up at the end in parallel over the buckets:
// work n plus p tables' worth of additions for p workers taking part.
//
// # Callbacks and PGO
//
// Scan and Histogram pay a call through a func value per element, which a
// hand-written loop does not; the built-in ops and block forms above do
// not pay it either. A program
// built with profile-guided optimization (go build -pgo, or a default.pgo
// beside its main package) gets a hot callback that is a named function
// devirtualized and inlined into the per-element kernels, which then run
// close to the hand-written loops; the benchmarks document has the
// figures.
//
// A panic in op or bucket reaches the caller (wrapped as the core wraps
// task panics); dst is then partly written, but nothing else is affected.
// Bad arguments (a nil function, lengths, overlap) panic on the caller's
// goroutine with a message that starts with "reduce: ", names the function
// and the indices involved, before anything is written. A key or bucket out
// of range is found while counting: the call finishes its running leaves
// and then panics on the caller's goroutine, naming the first such index,
// with the same message at every input size and worker count.
//
// # Block forms
//
// The block forms share one shape: n, the form's own parameters, then the
// callbacks, each taking (lo, hi, ...) for the block [lo, hi) first:
// HistogramBlocks(n, buckets, count(lo, hi, counts)), ScanBlocks(n,
// identity, op, fold(lo, hi), scan(lo, hi, carry)), and par's
// IndexBlocks(n, find(lo, hi)) and FilterBlocks(n, filter(lo, hi, dst)).
package reduce
