// Package sortpar sorts slices in parallel on the core fork-join pool. Its
// API mirrors package slices: Sort, SortFunc, SortStable, SortStableFunc,
// IsSorted and IsSortedFunc take the same arguments and give the same
// results, and every function takes options: par.WithPool names the pool
// (without it, the pool of the calling task, or core.Default()), and
// par.Grain sets the cutoff below which work is done serially. No call starts
// goroutines of its own: all parallelism is core.Join on the pool's workers,
// and a sort called from inside a task of the pool runs on the calling
// worker.
//
// # Which algorithm runs when
//
// Every entry point first hands a slice shorter than the cutoff (8192
// elements by default, 2048 for the stable sorts; par.Grain to change) to
// the matching slices function. Longer slices are scanned in parallel once:
// an already sorted
// slice is returned as it is and a reversed one (non-increasing; strictly
// decreasing for the stable sorts) is reversed in parallel. Then:
//
//   - Sort on integers (any width, signed or not, named types too) and on
//     floats: a parallel LSD radix sort, one byte per pass, passes whose byte
//     is the same in every element skipped. Floats are mapped to
//     keys so that NaNs come first, exactly as slices.Sort orders them. It
//     allocates one buffer of len(x) elements. Slices shorter than 16384
//     elements use slices.Sort.
//   - Sort on strings: the quicksort below on (eight cached bytes, string)
//     pairs, the cached bytes being those right after the prefix every
//     string shares, so that most comparisons never load string bytes
//     . It allocates 24 bytes per string.
//   - SortFunc: a parallel pattern-defeating quicksort. It is pdqsort (Peters 2021) with both sides of each
//     partition forked: Tukey-ninther pivots (the median of 31 pseudo-random
//     samples for ranges of 16384 or more, which periodic inputs cannot
//     defeat), pattern breaking after
//     unbalanced partitions, a partial insertion sort for nearly sorted
//     ranges, grouping of elements equal to the pivot, and heapsort when a
//     range has seen too many bad pivots (so O(n log n) comparisons even
//     against McIlroy's adversary). Ranges of 65536 or more elements are
//     partitioned by all workers together, the grouping of pivot copies
//     too; ranges shorter
//     than the cutoff go to slices.SortFunc, which insertion-sorts tiny
//     parts. It sorts in place.
//   - SortStableFunc, and SortStable on floats: a parallel mergesort with
//     one buffer of len(x) elements. Halves are sorted in
//     parallel, ping-ponging between the slice and the buffer, and merged by
//     a parallel merge that cuts the two runs by binary search. Segments up
//     to the cutoff are sorted serially by insertion-sorted blocks and
//     buffered merges.
//   - SortStable on integers and strings is Sort: equal elements of those
//     types cannot be told apart, so any correct sort is stable.
//   - IsSorted and IsSortedFunc: the parallel scan, stopping early.
//
// # Merging, compacting and sorting by key
//
// Merge, MergeFunc, Compact, CompactFunc and SortStableByKey follow the same
// rules: the slices functions below the
// cutoff or with one worker, fork-join phases on the pool otherwise.
//
//   - Merge and MergeFunc: the parallel merge of the stable mergesort (the
//     longer run cut at its middle, the other by binary search, both halves
//     forked) down to pieces of half the cutoff, merged serially; Merge's
//     serial merge has no branch on the comparison and merges from both
//     ends at once (two independent chains of loads). Work O(n), span
//     O(log² n). dst must not overlap the inputs; that and the lengths are
//     checked before anything is written.
//   - Compact and CompactFunc: packed in place round by round, as
//     par.DeleteFunc packs (package internal/pack): each block of a round of
//     4 MiB keeps, at its own front, the elements that differ from the one
//     before them; the counts are summed; the kept elements are copied to
//     their place. Work O(n), span O(n/R · (log R + R/1024)) for rounds of R
//     elements. Compact stores every element at the next free place and
//     advances past a change, with no branch on the comparison.
//   - SortStableByKey: key is called once per element (in parallel) and
//     mapped to an unsigned 64-bit key that orders the same way; then an MSD
//     radix sort on the highest byte that varies, keys and elements moved
//     together between the slice and one buffer: long ranges count and
//     scatter in chunks, in parallel (each chunk stably into its own slots),
//     the 256 buckets are sorted in parallel, ranges of at most 32 elements
//     are insertion sorted. Work O(w·n) for the w key bytes that vary (at
//     most 8), span O(w·(log n + cutoff)).
//
// # Comparison functions
//
// cmp must be a strict weak ordering, as for slices.SortFunc, and must be
// safe to call from several workers at once. If cmp panics, the panic
// reaches the caller of the sort (wrapped by the core runtime as it wraps
// every task panic) and the slice holds a permutation of its original
// elements: nothing is lost or duplicated.
//
// # Cutoffs
//
// The default thresholds were measured on a
// 2-core machine against package slices with two workers: random 16-byte
// records by SortFunc break even near 4096 elements and gain 1.3x at
// 8192-16384; int64 radix loses at 8192 and gains 1.3x at 16384; the
// buffered mergesort is 1.5x faster than slices.SortStableFunc from 2048
// elements on, even on one worker.
package sortpar
