// Package par runs loops in parallel as fork-join tasks on a core.Pool.
//
// # Overview
//
// For, ForRange, ForEach and Map split an index range into chunks and run the
// chunks as tasks on a pool; Invoke runs a few functions in parallel; Group runs a dynamic set of
// functions with errors; MapSeq and ForEachSeq process a stream. Nothing
// here starts goroutines of its own, and a loop called from inside a task of the same pool (a nested
// loop, a loop inside a parallel sort) runs on the current worker: it never
// blocks a worker and never needs a second pool.
//
//	par.For(0, len(y), func(i int) { y[i] += a * x[i] })
//
// ForRange hands out whole subranges and is the cheapest form for fine
// loops: the body's serial inner loop is compiled like any other loop.
//
// # Options
//
// Option is the one option type of gofork: par, reduce, sortpar, linalg and
// uts all take ...par.Option. WithPool names the pool; without it a call
// made from inside a task runs on that task's pool (on its current worker),
// and any other call on core.Default(). Grain, the partitioners and InFlight
// tune loops and streams. Grain means the same everywhere, the smallest
// piece of work a call hands to one worker: a loop's minimum chunk, a
// sort's serial cutoff, ScanBlocks' block; one knob, whatever the algorithm
// calls its pieces. Each function's doc lists the options it takes;
// one it does not take makes it panic, naming the option and the function.
//
//	par.For(0, n, body, par.WithPool(p), par.Grain(256))
//	sortpar.Sort(xs, par.WithPool(p))
//
// # Partitioners
//
// How a range is cut is chosen by an Option, as in TBB:
//
//   - Auto (the default) cuts a few chunks per worker, then splits a chunk
//     again only where another worker stole it, never below Grain.
//   - Simple(g) splits recursively until chunks have at most g iterations.
//   - Static cuts one contiguous chunk per worker; worker w runs chunk w.
//   - Affinity(&state) cuts a fixed set of chunks and replays, on the next
//     call with the same state, which worker ran each one, so that repeated
//     sweeps over the same data hit warm caches.
//
// Static and Affinity place chunks without help from the core: each of their
// tasks picks its chunk by the ID of the worker it runs on. A
// worker that never takes part in a call (it was busy or asleep) gets nothing
// in that call. core's Pool.RunOn parks its caller until the root is done, so
// it cannot place chunks from inside a task; a fork that only a named worker
// may take, joined while the caller keeps working, would let every worker be
// given its chunks by name.
//
// # Iteration spaces
//
// Indices may be of any integer type. The iteration count and midpoints are
// computed in the unsigned 64-bit domain, so ranges with a negative lo or
// ending near the maximum of an unsigned type are exact. An empty range
// (hi <= lo) does nothing.
//
// # Failure
//
// A panic in a body stops the loop from starting new chunks and reaches the
// caller (wrapped as the core wraps task panics). ForCtx and ForRangeCtx stop
// starting chunks once their context is done and return its error.
//
// # Blocking bodies
//
// Before a leaf runs the body, the worker makes the rest of the loop
// stealable (core.Worker.Share), and an Auto leaf splits into its blocks as
// forks; so a body that blocks (on I/O, a lock, or another iteration) never
// holds back iterations that have not started: idle workers, or spares the
// pool starts for blocked workers, take them. A body that knows it blocks
// can say so with core.Blocking, and the pool stands a spare in at once:
//
//	par.ForEach(urls, func(i int, u *string) {
//		core.Blocking(func() { pages[i] = fetch(*u) })
//	})
//
// # Dynamic tasks
//
// Group has the shape of golang.org/x/sync/errgroup (Go, TryGo, SetLimit,
// Wait, WithContext), so switching is an import change, but its functions
// are tasks of the pool, not goroutines: Go from inside a task pushes the
// function on the worker's deque and allocates nothing; Wait inside a task
// runs the group's functions and other work instead of blocking. Groups
// nest, inside loops and around them, on the same workers. A panic in a
// function does not kill the process: Wait re-raises it.
//
// # Streams
//
// MapSeq and ForEachSeq run a function over an iter.Seq of unknown length
// (lines of a file, rows of a query) in parallel. One goroutine ranges over
// the sequence (the caller's for ForEachSeq called from outside a task, a
// goroutine of the stream's own otherwise, so that a sequence that blocks
// never holds a worker) and hands each item to the workers as soon as the
// sequence yields it: an item never waits for more items to come, so a
// sequence that blocks after an item (a reader waiting for input, a
// request/response exchange waiting for fn's answer) holds nothing back,
// and with MapSeq that item's result reaches the consumer. The workers take
// the items waiting in batches, one at a time while the sequence is slower
// than they are, more while it keeps ahead. MapSeq yields the results in
// the sequence's order, on the goroutine that ranges, through a reorder
// window of InFlight slots: at most InFlight items are between being taken
// from the sequence and being consumed, so an endless sequence runs in
// bounded memory and a slow item holds the window instead of letting it
// grow. The consumer sleeps until a batch of results is ready (or every
// item taken so far is), not once per item. If fn panics, the results
// before that item are still yielded, then the panic. ForEachSeq keeps at
// most InFlight calls between being taken and returning. Workers poll
// between batches, so other roots submitted to the pool get in during a
// long stream.
//
// # Slice primitives
//
// Filter, DeleteFunc, IndexFunc, ContainsFunc, Index, Contains and Shuffle
// mirror their serial twins in package slices (and math/rand for Shuffle),
// with the same results, and run as a few fork-join phases of loops over blocks of the
// slice (1024 elements; a Grain or Simple size is rounded up to whole
// blocks). The callbacks are called once per element (IndexFunc: until the
// match), from several workers at once, so they must be safe for that.
//
//   - Filter: mark and count each block's kept elements in a bit mask; sum
//     the counts in block order (serial, one add per block); allocate the
//     result at its exact length; copy each block's kept elements to its
//     place. Work O(n), span O(log n + n/1024).
//   - DeleteFunc: packed in place, round by round (rounds of 4 MiB): each
//     block of the round packs its kept elements to its own front, counting
//     them; the counts are summed; the kept elements are copied to their
//     final place, in parallel when every such place lies before the round
//     (else block after block); the tail is zeroed. Work O(n), span
//     O(n/R · (log R + R/1024)) for rounds of R elements, or more while the
//     first rounds drop few elements. sortpar.Compact packs the same way
//     (package internal/pack).
//   - IndexFunc, Index and IndexBlocks: the first 2048 elements serially,
//     then ranges that double in length, each one parallel phase whose
//     leaves search blocks of b elements (256 for IndexFunc, 16384 for the
//     others) and stop at a known earlier match. For a first match at i:
//     work O(i + p·b), span O(log² i + b).
//   - Shuffle: every element draws a bucket from a hash of (seed, index);
//     count per block and bucket; sum bucket by bucket; scatter stably into
//     a buffer; shuffle each bucket (16384 elements on average) in its
//     cache by Fisher-Yates. Work O(n), span O(log n + n/16384 · blocks).
//
// With one worker, or below a few thousand elements, DeleteFunc is
// slices.DeleteFunc and Filter runs its phases on the calling goroutine;
// Shuffle's permutation never depends on the pool. A panic in a callback
// reaches the caller, and a slice written in place (DeleteFunc) then holds a
// mix of old and moved elements.
//
// # Built-in ops and block forms
//
// A callback is a call through a func value, which Go does not inline: it
// costs a call per element, which slices.IndexFunc, whose callback is
// inlined at the call site, does not pay: on one worker IndexFunc is
// slower than it. Two kinds of function have no
// call per element:
//
//   - built-in ops: Index and Contains search by ==, compiled into the
//     search's own loop;
//   - block forms, whose callback is the caller's own loop over a block
//     [lo, hi) of an index range, so that the test or body compiles into
//     that loop and the call is paid once per block: ForRange for For,
//     ForEach and Map; IndexBlocks for IndexFunc and ContainsFunc;
//     FilterBlocks for Filter. Package reduce has the others (ScanBlocks,
//     HistogramBlocks, and Reduce for MapReduce).
//
// FilterBlocks appends each block's output to a buffer per run of blocks
// on one worker (a range a thief takes starts a new one); the counts,
// summed in block order, place each block's output in one result of the
// exact length, where the buffers are copied in parallel. Work O(n + k) for
// k elements kept, span O(log n + n/1024 + k/p).
//
// A program built with profile-guided optimization (go build -pgo) gets a
// hot callback that is a named function devirtualized and inlined into
// gofork's per-element loops (the benchmarks document measures it).
package par
