package core

import (
	"sync"
	"testing"
)

// TestCurg checks, for curg and for the portable curgStack, what a pool's
// table of workers relies on: one goroutine always gets the same value,
// goroutines alive at the same time get different ones, no value is 0 or 1
// (a free and a dead entry of the table), and a call allocates nothing.
func TestCurg(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func() uintptr
	}{{"curg", curg}, {"curgStack", curgStack}} {
		t.Run(c.name, func(t *testing.T) {
			const n = 64
			first, second := make([]uintptr, n+1), make([]uintptr, n+1)
			var read, wg sync.WaitGroup
			release := make(chan struct{})
			read.Add(n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					first[i] = c.f()
					read.Done()
					<-release // alive until every goroutine has its value
					second[i] = c.f()
				}()
			}
			read.Wait()
			first[n] = c.f()
			close(release)
			wg.Wait()
			second[n] = c.f()
			seen := make(map[uintptr]int)
			for i, v := range first {
				if v != second[i] {
					t.Errorf("goroutine %d: %#x, then %#x", i, v, second[i])
				}
				if v <= 1 {
					t.Errorf("goroutine %d: %#x, a value the table of workers reserves", i, v)
				}
				if j, ok := seen[v]; ok {
					t.Errorf("goroutines %d and %d, both alive, share %#x", j, i, v)
				}
				seen[v] = i
			}
			if raceEnabled {
				return // the race detector allocates
			}
			if a := testing.AllocsPerRun(100, func() { c.f() }); a > 0.1 {
				t.Errorf("allocates %.2f times per call; want 0", a)
			}
		})
	}
}
