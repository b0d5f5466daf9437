// Package lockfree holds the lock-free building blocks gofork's runtime
// passes work through, each with its invariants and stress tests beside it:
//
//   - Deque, the Chase-Lev work-stealing deque of a worker's Scope tasks,
//     with the values in its ring and batch steals (deque.go);
//   - Queue, the segmented queue that any goroutine pushes a value to and
//     one taker at a time empties in batches: a pool's tasks forked from
//     outside (queue.go);
//   - Stack, a Treiber stack that many goroutines push to and one takes
//     whole: a worker's inbox of roots (stack.go);
//   - the Dekker stores: the store half of a store-then-load pair, written
//     as a Swap (dekker.go).
//
// Go's sync/atomic operations are sequentially consistent, so every atomic
// here is documented by the happens-before edge it provides (which
// operation it pairs with), not by a memory order. Go has no benign races:
// a value slot is plain memory only where an atomic orders every write to
// it before every read of it (the invariants say which), and the tests run
// under -race.
package lockfree

// cacheLinePad separates fields written by different goroutines so that they
// do not share a cache line (128 bytes covers adjacent-line prefetching).
const cacheLinePad = 128
