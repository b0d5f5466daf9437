package core_test

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

func fib(w *core.Worker, n int) int {
	if n < 2 {
		return n
	}
	x, y := core.Join(w, fib, n-1, fib, n-2)
	return x + y
}

func ExampleJoin() {
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	fmt.Println(core.RunValue(p, func(w *core.Worker) int { return fib(w, 30) }))
	// Output: 832040
}

func ExampleRunValue() {
	// Run may be called from any goroutine; from inside a task of the same
	// pool it runs inline on the current worker.
	p := core.New()
	defer p.Close()
	sum := core.RunValue(p, func(w *core.Worker) int {
		a, b := core.Join(w,
			func(w *core.Worker, n int) int { return core.RunValue(p, func(*core.Worker) int { return n * n }) }, 3,
			func(w *core.Worker, n int) int { return n * n }, 4)
		return a + b
	})
	fmt.Println(sum)
	// Output: 25
}

func ExampleInvoke() {
	p := core.New()
	defer p.Close()
	var count atomic.Int64
	p.Run(func(w *core.Worker) {
		core.Invoke(w,
			func(*core.Worker) { count.Add(1) },
			func(*core.Worker) { count.Add(10) },
			func(*core.Worker) { count.Add(100) },
		)
	})
	fmt.Println(count.Load())
	// Output: 111
}

func ExamplePool_Run() {
	// A root with no result writes where its caller reads once Run has
	// returned.
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	fibs := make([]int, 10)
	p.Run(func(w *core.Worker) {
		for i := range fibs {
			fibs[i] = fib(w, i)
		}
	})
	fmt.Println(fibs)
	// Output: [0 1 1 2 3 5 8 13 21 34]
}

func ExamplePanicError() {
	p := core.New()
	defer p.Close()
	defer func() {
		pe := recover().(*core.PanicError)
		fmt.Println("recovered:", pe.Value)
	}()
	core.RunValue(p, func(w *core.Worker) int {
		x, _ := core.Join(w, func(*core.Worker, int) int { panic("bad input") }, 0, fib, 10)
		return x
	})
	// Output: recovered: bad input
}

// sumSquares adds i*i over [lo, hi), forking only while few of this worker's
// forks wait for thieves or when some worker is out of work; otherwise it
// recurses serially, so one worker runs at the serial loop's speed. The sum
// is an int64, which holds it where int has 32 bits.
func sumSquares(w *core.Worker, r [2]int) int64 {
	lo, hi := r[0], r[1]
	if hi-lo <= 1024 {
		var s int64
		for i := lo; i < hi; i++ {
			s += int64(i) * int64(i)
		}
		return s
	}
	mid := lo + (hi-lo)/2
	if w.Pending() < 4 || w.Hungry() {
		a, b := core.Join(w, sumSquares, [2]int{lo, mid}, sumSquares, [2]int{mid, hi})
		return a + b
	}
	w.Poll() // not forking: let a thief in if it asked
	return sumSquares(w, [2]int{lo, mid}) + sumSquares(w, [2]int{mid, hi})
}

// Fork on demand: Pending and Hungry let a fine-grained recursion fork only
// where it helps.
func ExampleWorker_Pending() {
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	fmt.Println(core.RunValue(p, func(w *core.Worker) int64 { return sumSquares(w, [2]int{0, 1 << 20}) }))
	// Output: 384306618446643200
}

// sumLazy adds xs in order, a block at a time, and whenever some worker is
// out of work hands it the upper half of what is left. The halves are
// spawned in the middle of the loop and synced after it, newest first.
func sumLazy(w *core.Worker, xs []int64) int64 {
	var upper []core.Spawned[[]int64, int64]
	var s int64
	for len(xs) > 0 {
		if len(xs) >= 2048 && w.Hungry() {
			h := len(xs) / 2
			upper = append(upper, core.Spawn(w, sumLazy, xs[h:]))
			xs = xs[:h]
		}
		n := min(len(xs), 1024)
		for _, x := range xs[:n] {
			s += x
		}
		xs = xs[n:]
	}
	for i := len(upper) - 1; i >= 0; i-- {
		s += upper[i].Sync(w)
	}
	return s
}

func ExampleSpawn() {
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	xs := make([]int64, 1_000_000)
	for i := range xs {
		xs[i] = int64(i) + 1
	}
	fmt.Println(core.RunValue(p, func(w *core.Worker) int64 { return sumLazy(w, xs) }))
	// Output: 500000500000
}

func ExampleBlocking() {
	// Eight tasks on a pool of two workers each wait for a reply that only
	// arrives once all eight are waiting. Blocking hands each waiting
	// worker's role to a spare, so all eight wait at once.
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	const n = 8
	var waiting sync.WaitGroup
	waiting.Add(n)
	replies := make(chan int)
	go func() {
		waiting.Wait()
		for i := range n {
			replies <- i
		}
	}()
	var sum atomic.Int64
	fns := make([]func(*core.Worker), n)
	for i := range fns {
		fns[i] = func(*core.Worker) {
			core.Blocking(func() {
				waiting.Done()
				sum.Add(int64(<-replies))
			})
		}
	}
	core.RunValue(p, func(w *core.Worker) int { core.Invoke(w, fns...); return 0 })
	fmt.Println(sum.Load())
	// Output: 28
}

// node is a tree whose children are found as the walk goes, the shape
// Scope is for.
type node struct {
	value    int
	children []*node
}

func ExampleScope() {
	tree := &node{1, []*node{{2, nil}, {3, []*node{{4, nil}, {5, nil}}}}}
	p := core.New(core.WithWorkers(2))
	defer p.Close()
	var s core.Scope
	var sum atomic.Int64
	var visit func(n *node)
	visit = func(n *node) {
		sum.Add(int64(n.value))
		for _, c := range n.children {
			s.Go(p, func(*core.Worker) { visit(c) }) // forked as it is found
		}
	}
	visit(tree)
	s.Wait(p)
	fmt.Println(sum.Load())
	// Output: 15
}
