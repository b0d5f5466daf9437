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
package reduce
