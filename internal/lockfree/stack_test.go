package lockfree

import (
	"runtime"
	"sync"
	"testing"
)

// node is a value a Stack can hold.
type node struct {
	Link[node]
	producer, seq int
}

// TestStackStress: producers push numbered values while one consumer takes
// the stack whole, again and again; every value comes out exactly once, and
// each producer's values come out in the order it pushed them.
func TestStackStress(t *testing.T) {
	const producers = 4
	n := size() / producers
	var s Stack[node, *node]
	nodes := make([][]node, producers)
	var wg sync.WaitGroup
	for p := range producers {
		nodes[p] = make([]node, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range nodes[p] {
				nodes[p][i] = node{producer: p, seq: i}
				s.Push(&nodes[p][i])
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	next := make([]int, producers) // the seq each producer's next value must have
	take := func() {
		for x := s.TakeAll(); x != nil; x = x.Next {
			if x.seq != next[x.producer] {
				t.Fatalf("producer %d: got value %d, want %d", x.producer, x.seq, next[x.producer])
			}
			next[x.producer]++
		}
	}
	for {
		select {
		case <-done:
			take()
			for p, got := range next {
				if got != n {
					t.Fatalf("producer %d: %d of %d values came out", p, got, n)
				}
			}
			if !s.Empty() {
				t.Fatal("the stack is not empty after every value was taken")
			}
			return
		default:
			take()
			runtime.Gosched() // a consumer that spins without a call would need asynchronous preemption
		}
	}
}

// TestStackOrder: TakeAll returns the values in the order they were pushed.
func TestStackOrder(t *testing.T) {
	var s Stack[node, *node]
	if !s.Empty() || s.TakeAll() != nil {
		t.Fatal("a zero Stack is not empty")
	}
	nodes := make([]node, 5)
	for i := range nodes {
		nodes[i].seq = i
		s.Push(&nodes[i])
	}
	i := 0
	for x := s.TakeAll(); x != nil; x = x.Next {
		if x.seq != i {
			t.Fatalf("value %d came out in place %d", x.seq, i)
		}
		i++
	}
	if i != len(nodes) || !s.Empty() {
		t.Fatalf("%d of %d values came out", i, len(nodes))
	}
}
