package reduce

import "sync"

// badKey is the first out-of-range key a Counts or Histogram call met: the
// smallest index at which one of its leaves found a key outside [0,
// buckets), and that key. A leaf that meets one records it and stops; the
// caller panics after the run, on its own goroutine, with the message the
// serial loop gives for that index. The first bad index of the input is the
// smallest of the first bad indices of the leaves, so the panic is the same
// value at every input size and every worker count, and never a
// *core.PanicError from inside a task.
type badKey struct {
	mu    sync.Mutex // guards the fields below; taken only on the error path
	found bool
	index int
	key   int
}

// note records that the key at index i is k, outside the table, if no
// smaller index was recorded. Leaves call it from any worker.
func (b *badKey) note(i int, k int) {
	b.mu.Lock()
	if !b.found || i < b.index {
		b.found, b.index, b.key = true, i, k
	}
	b.mu.Unlock()
}

// get returns the recorded index and key, and whether there is one. The
// caller reads it after the run has returned.
func (b *badKey) get() (i int, k int, found bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.index, b.key, b.found
}
