// Package gofork is a toolkit of parallel algorithms for Go built on one
// work-stealing fork-join runtime.
//
// The packages:
//
//   - core: the runtime. One worker per core, each with a lock-free
//     work-stealing deque; Join forks work-first (the caller runs the first
//     function at once and thieves may take the second), frames are recycled
//     per worker so a fork allocates nothing, idle workers steal and then sleep.
//   - par: parallel loops (For, ForRange, ForEach, Map) with auto, static,
//     affinity and simple partitioners, and Invoke.
//   - reduce: reductions with split/join, deterministic float sums.
//   - sortpar: parallel sorts with the API of package slices (Sort, SortFunc,
//     SortStable, SortByKey), Merge and Compact.
//   - linalg: cache-oblivious parallel matrix multiply into gonum matrices.
//   - uts: the Unbalanced Tree Search benchmark.
//
// Everything above core is expressed as fork-join tasks on one shared pool:
// the process-wide core.Default() unless an option names another.
//
// A recursive computation reads like its serial form:
//
//	func fib(w *core.Worker, n int) int {
//		if n < 2 {
//			return n
//		}
//		x, y := core.Join(w, fib, n-1, fib, n-2)
//		return x + y
//	}
//
//	n := core.RunValue(core.Default(), func(w *core.Worker) int { return fib(w, 30) })
//
// The benchmarks are the root package's *_bench_test.go files:
// go test -run '^$' -bench . .
package gofork
