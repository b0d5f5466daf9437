package baseline

import concstream "github.com/sourcegraph/conc/stream"

// ConcStream is the ordered parallel map a Go user writes with
// sourcegraph/conc's stream: a task per item on at most workers
// goroutines, and each(fn(item)) called in the items' order, from conc's
// callback goroutine. It returns once every item is done.
func ConcStream(items func(func(int) bool), fn func(int) uint64, workers int, each func(uint64)) {
	s := concstream.New().WithMaxGoroutines(workers)
	for i := range items {
		s.Go(func() concstream.Callback {
			r := fn(i)
			return func() { each(r) }
		})
	}
	s.Wait()
}
