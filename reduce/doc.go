// Package reduce folds an index range or a slice to one value in parallel,
// as fork-join tasks on a core.Pool (core.Default() unless par.WithPool names
// another).
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
// Sum, Min, Max, MinFunc, MaxFunc, Count and MapReduce cover the common
// cases on slices.
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
// # Prefix combinations and histograms
//
// Scan (exclusive, returning the total) and ScanInclusive write the prefix
// combinations of a slice, as a serial loop would: dst[i] combines
// src[0..i-1] (or src[0..i]) in order, so an associative op that is not
// commutative is fine. They are the work-stealing scan of TBB's
// parallel_scan, as one par.Split:
//
//   - a leaf whose range the worker reaches in order, knowing the
//     combination of everything before it, writes its part of dst at once
//     and passes the combination on;
//   - a range a thief takes cannot know that yet: its leaves only fold their
//     subranges and record the results;
//   - when that range is joined to the known range before it, its records'
//     start values are computed in order and the records are written in
//     parallel (a nested par.ForRange).
//
// With one worker nothing is stolen: op runs once per element, like the
// serial loop, with no second pass. With two, the thief folds while the
// owner writes, and both write the thief's half: op runs about 1.5n times,
// 0.75n on each worker, so two workers scan at most about 1.33 times as fast
// as one. Work: n to 2n calls of op. Span: O(log n) per round. The slice is scanned in rounds
// of 2 MiB of elements, one after another, so that what a thief folded is
// still in a cache when it is written and the scan reads memory once;
// slices of at most 4096 elements are scanned on the calling goroutine.
//
// Histogram counts elements per bucket, also as one par.Split: each run of
// leaves on one worker counts into one histogram, a range a thief takes
// counts into a new one, and the join adds the right histogram into the
// left. Work: n calls of bucket plus one histogram's worth of additions per
// steal. Span: O(log n + buckets).
//
// A panic in op or bucket reaches the caller (wrapped as the core wraps
// task panics); dst is then partly written, but nothing else is affected.
// Bad arguments (lengths, overlap, a bucket out of range) panic with a
// message that starts with "reduce: " and names the indices involved,
// before anything is written.
package reduce
