package baseline

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestPoolsRunEveryTaskOnce submits tasks that submit more tasks and checks
// each ran exactly once and Wait returned only after all of them.
func TestPoolsRunEveryTaskOnce(t *testing.T) {
	for _, v := range []string{GlobalQueue, LocalQueues, Goroutines} {
		for _, workers := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s/workers=%d", v, workers), func(t *testing.T) {
				pool := NewTaskPool(v, workers)
				defer pool.Close()
				const n = 2000
				hits := make([]atomic.Int32, 2*n)
				for round := range 3 {
					for i := range hits {
						hits[i].Store(0)
					}
					for i := range n {
						pool.Submit(func() {
							hits[i].Add(1)
							pool.Submit(func() { hits[n+i].Add(1) })
						})
					}
					pool.Wait()
					for i := range hits {
						if h := hits[i].Load(); h != 1 {
							t.Fatalf("round %d: task %d ran %d times", round, i, h)
						}
					}
				}
			})
		}
	}
}
