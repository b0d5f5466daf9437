// Package sortpar sorts slices in parallel on the core fork-join pool. Its
// API mirrors package slices: Sort, SortFunc, SortStable, SortStableFunc,
// IsSorted and IsSortedFunc take the same arguments and give the same
// results, and every function takes options: par.WithPool names the pool
// (without it, the pool of the calling task, or core.Default()), and
// par.Grain sets the cutoff below which work is done serially (see
// "Cutoffs"). Each call enters the pool once: from outside a task it runs
// as one root of the pool, and every phase of it (the sortedness scan, the
// partitions, the merges) forks on the worker that root runs on. No call starts
// goroutines of its own: all parallelism is core.Join on the pool's workers,
// and a sort called from inside a task of the pool runs on the calling
// worker.
//
// # Which algorithm runs when
//
// Every entry point first hands a slice shorter than the cutoff (8192
// elements by default, 2048 for the stable sorts; par.Grain to change) to
// the matching slices function. Longer slices are scanned in parallel once:
// an already sorted slice is returned as it is and a reversed one
// (non-increasing; strictly decreasing for the stable sorts) is reversed in
// parallel. Then:
//
//   - Sort on integers (any width, signed or not, named types too) and on
//     floats: an in-place parallel radix sort in the manner of IPS2Ra
//     (Axtmann, Witt, Ferizovic and Sanders, "Engineering In-place
//     (Shared-memory) Sorting Algorithms", ACM TOPC 2022). Ranges longer
//     than a workspace are split on their most significant byte that
//     varies into 256 buckets by the in-place block partition below (all
//     workers on long ranges), and the buckets are sorted in parallel;
//     shorter ranges are sorted by LSD radix inside the cache, with a
//     workspace as the second array, on the top bytes that separate their
//     keys and an insertion pass for the rest. Bytes that are the same in
//     every element are skipped. Floats are mapped in place to keys so that
//     NaNs come first, exactly as slices.Sort orders them, and mapped back
//     range by range. Slices shorter than 16384 elements use slices.Sort.
//   - SortFunc, and Sort on strings: an in-place parallel samplesort
//     (IPS4o, same paper). Splitters come from a sorted random sample;
//     each element finds its bucket (up to 256) by descending a perfect
//     binary tree of the splitters, using the comparisons' results as
//     numbers rather than branching on them; when the sample holds equal
//     splitters, each gets a bucket of the elements equal to it, which
//     needs no further sorting. Buckets are sorted in parallel, down to
//     leaves sorted by slices.SortFunc (65536 elements for SortFunc, so
//     that leaves fit the cache; 256 for strings, whose comparisons miss
//     the cache on the string bytes, which a classification loads once for
//     all of an element's comparisons). A range whose partitions twice left
//     more than half of it in one bucket (McIlroy's adversary) goes to
//     slices.SortFunc, whose pdqsort falls back to heapsort, so the number
//     of comparisons is O(n log n) on any input.
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
// # The in-place block partition
//
// Both in-place sorts distribute a range into buckets the way IPS4o does.
// The range is cut into stripes of whole blocks of 2 KiB, one per worker
// taking part. Each stripe reads its elements into one buffer block per
// bucket and writes every full buffer back, as a block, over elements it
// already read, so it ends as full blocks, each of one bucket, and free
// space. The bucket counts fix where each bucket goes; the blocks are then
// permuted into place by all workers at once (each takes a block, finds
// its bucket from its first element and swaps it into that bucket's next
// slot, the slots claimed through one atomic word of read and write
// pointers per bucket), and a cleanup moves the buffered elements and the
// ends of blocks that stick out of their bucket. Only block-sized copies
// and whole-block swaps move data, and no step needs memory that grows
// with the range but the blocks' labels, a byte per block.
//
// # Memory
//
//   - Sort (integers, floats, strings) and SortFunc work in place: besides
//     the slice, a sort allocates workspaces of 256 blocks of 2 KiB, three
//     blocks more and some bookkeeping, at most one per worker (a spare
//     that stands in for a blocked or stalled worker counts as one), reused
//     for the whole sort, and a label byte per 2 KiB block of the slice: O(P)
//     workspaces plus n/blockLen bytes, never a second copy of a long
//     slice. The samplesort also keeps its sample and 255 splitters per
//     workspace. Integers and floats short enough for one workspace are
//     sorted with a second array as long as the slice, which the next such
//     sort reuses, so sorting short slices one after another allocates
//     O(P) bookkeeping a sort.
//   - SortStable and SortStableFunc allocate one buffer of len(x) elements
//     (SortStable on integers and strings is Sort, in place).
//   - SortByKey works in place: besides the slice, workspaces of 256
//     blocks of 2 KiB (one block more) and the leaves' arrays, roughly one
//     per worker, and one byte per block of the slice for the labels
//     below. Slices no longer than a leaf are sorted with a buffer of their
//     length.
//   - SortStableByKey allocates 16 bytes plus one element per element
//     (string keys: 48 bytes plus one element).
//   - Merge, MergeFunc, Compact, IsSorted and IsSortedFunc allocate
//     O(workers) bookkeeping only. CompactFunc on more than one worker
//     also allocates a bit per element (len(s)/8 bytes), where it records
//     eq's answers before it moves anything.
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
//     most 8), span O(w·(log n + cutoff)). Integer and float keys take the
//     words of SortByKey (below); string keys are read once with their
//     positions, the pairs sorted by the stable mergesort, and the elements
//     gathered in that order through a buffer.
//
// # Sorting by key
//
// SortByKey sorts records by a field without comparing them: a
// most-significant-digit radix sort on words computed from the keys
// (integers and floats: one 64-bit word that orders as cmp.Compare orders
// the keys, NaNs first and -0 equal to +0; strings: one word per seven
// bytes, with the count of bytes left in the low byte, so that a prefix
// comes first). A scan reads every key once: it returns a sorted slice
// as it is, reverses a non-increasing one, and finds the bits that vary
// (for strings, the prefix every key shares). A range longer than a leaf
// is split into 256 buckets on the eight highest bits of its word that
// vary, by the in-place block partition above (with every worker on long
// ranges), and the buckets are sorted in parallel; the classification
// also ANDs and ORs each bucket's words, so a bucket knows which of its
// bits still vary, or that its keys are all equal, with no pass of its
// own. Ranges of at most a few hundred elements are leaves: their words
// and positions go to a workspace, are sorted there (a counting pass on
// the top byte and an insertion pass, pdqsort if that would move too
// much), and the elements are gathered in that order through a buffer.
//
// The key is called once per element in each pass that reads the
// element's range (the scan, each split, the leaf), never to find the
// bucket of an element already classified: the partition records the
// bucket of every block it writes back in a label, one byte per block of
// the slice, and the permutation moves blocks by their labels. The counts,
// the labels and the permutation therefore always agree, whatever the key
// returns: a key that is not a function of the element (random answers,
// answers that change between calls) yields a permutation of the input in
// some order, and a key that panics leaves a permutation behind (the
// stripes put their buffered elements back, as for a comparator's panic).
//
// # Misuse
//
// A nil function argument (cmp, key, eq), a nil par.Option, an option a
// call does not take, and a pool named by par.WithPool that is closed are
// refused before any work starts: the call panics on the caller's
// goroutine with a string that names the function and the argument (for
// example "sortpar: SortFunc with a nil cmp"), the same string at every
// length of the input, 0 and 1 included, and on every pool, and the input
// is left as it was. Merge and MergeFunc likewise refuse a dst of the
// wrong length or one that overlaps a or b. A panic of the caller's own
// function is not misuse: it is re-raised as "Comparison functions" says.
//
// # Comparison functions
//
// cmp must be a strict weak ordering, as for slices.SortFunc, and must be
// safe to call from several workers at once. If cmp panics, the panic
// reaches the caller of the sort (wrapped by the core runtime as it wraps
// every task panic) and the slice holds a permutation of its original
// elements: nothing is lost or duplicated. The in-place sorts catch the
// panic inside the task that raised it and put every element they hold
// aside (in bucket buffers or swap blocks) back into the free places of
// the slice before the panic is raised again.
//
// A cmp that is not a strict weak ordering (one that answers at random,
// changes its answers between calls, or compares floats with < where NaNs
// occur) gets what package slices gives it: the call returns with the
// slice a permutation of its input, in an unspecified order. Nothing is
// lost or duplicated and no index leaves its range, whatever cmp answers:
// the samplesort classifies each element once per partition and its block
// permutation moves blocks by the labels that classification wrote, so
// every bucket receives exactly the blocks it counted; the mergesort and
// the merges cut their runs once and hand each piece both its inputs; and
// CompactFunc calls eq once per pair and moves elements only by swapping
// them until eq's last call.
//
// # Cutoffs
//
// par.Grain(n) is the option that sets a sort's serial cutoff, in keeping
// with what Grain means everywhere: the smallest piece of work a call
// hands to one worker. A slice shorter than n is handed to package slices
// as a whole, and every other threshold scales from n: samplesort leaves
// of 8·n elements for SortFunc and n/32 (at least 16) for strings,
// partition blocks of at most n/8 elements, the radix sort and the stable
// mergesort from n elements on, parallel loops and merges down to pieces
// of n/2. Without par.Grain the defaults are those named under "Which
// algorithm runs when": the radix sort and the stable mergesort start
// where they beat package slices with two workers, and SortFunc's leaves
// are long because a samplesort's tree classification costs about what a
// pdqsort partition costs per comparison when cmp branches on its operands
// (the branch mispredicts either way).
package sortpar
