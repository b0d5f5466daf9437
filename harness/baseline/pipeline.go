package baseline

import "sync"

// Pipeline is the channel pipeline a Go user writes for an ordered
// parallel map: a feeder numbers the items, `workers` goroutines compute,
// and a reorder buffer hands results back in order, with at most window
// items in flight (a semaphore). Breaking out of the range loop stops the
// feeder and drains the workers, so no goroutine is left behind.
func Pipeline(items func(func(int) bool), fn func(int) uint64, workers, window int) func(func(uint64) bool) {
	return func(yield func(uint64) bool) {
		type item struct {
			seq int
			v   int
		}
		type result struct {
			seq int
			r   uint64
		}
		in := make(chan item, window)
		out := make(chan result, window)
		slots := make(chan struct{}, window)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for it := range in {
					out <- result{it.seq, fn(it.v)}
				}
			}()
		}
		go func() {
			defer close(in)
			seq := 0
			for v := range items {
				select {
				case slots <- struct{}{}:
				case <-stop:
					return
				}
				in <- item{seq, v}
				seq++
			}
		}()
		go func() { wg.Wait(); close(out) }()
		pending := map[int]uint64{}
		next := 0
		defer func() {
			close(stop)
			for range out { // let the workers finish
				select {
				case <-slots:
				default:
				}
			}
		}()
		for res := range out {
			pending[res.seq] = res.r
			for {
				r, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				<-slots
				if !yield(r) {
					return
				}
			}
		}
	}
}
