package lockfree

import "sync/atomic"

// The Dekker stores. A store-then-load pair (Dekker's pattern: a goroutine
// stores its flag, then loads the other's; the other does the same the other
// way round, and at least one of them sees the other's store) needs each
// store ordered before the load that follows it. Go's atomics are
// sequentially consistent, which promises that order, but a
// read-modify-write is what every implementation keeps in that order
// without help: an emulated arm64 has been seen to let the load pass a
// plain Store (STLR), never a Swap (SWPAL); docs/BENCHMARKS.md, "core
// constants", records the run. On amd64 a Store is already an XCHG, so a
// Swap costs nothing more there.
//
// Each function stores v in a with a Swap. The caller names, next to the
// call, the load that follows it and the pair it is half of.

// DekkerStoreBool stores v in a as the store half of a store-then-load pair.
func DekkerStoreBool(a *atomic.Bool, v bool) { a.Swap(v) }

// DekkerStoreInt64 stores v in a as the store half of a store-then-load pair.
func DekkerStoreInt64(a *atomic.Int64, v int64) { a.Swap(v) }

// DekkerStoreUint32 stores v in a as the store half of a store-then-load
// pair.
func DekkerStoreUint32(a *atomic.Uint32, v uint32) { a.Swap(v) }
