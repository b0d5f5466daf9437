package baseline

import (
	"sync"
	"sync/atomic"
)

// TaskPool is the interface of the hand-written thread pools that the
// pools benchmarks (Zorro's thread-pool study) run gofork against. It is
// Zorro's API: Submit a task, which may Submit more, and Wait until every
// task has run.
type TaskPool interface {
	Submit(task func())
	Wait()
	Close()
}

// fifo is a slice-backed FIFO of tasks; its owner holds the lock.
type fifo struct {
	tasks []func()
	head  int
}

func (q *fifo) push(t func()) { q.tasks = append(q.tasks, t) }

func (q *fifo) pop() (func(), bool) {
	if q.head == len(q.tasks) {
		return nil, false
	}
	t := q.tasks[q.head]
	q.tasks[q.head] = nil
	q.head++
	if q.head == len(q.tasks) {
		q.tasks, q.head = q.tasks[:0], 0
	}
	return t, true
}

// lockedQueue is a FIFO guarded by a mutex, with a condition variable that
// idle workers sleep on.
type lockedQueue struct {
	mu     sync.Mutex
	cond   sync.Cond
	q      fifo
	closed bool
}

func newLockedQueue() *lockedQueue {
	lq := &lockedQueue{}
	lq.cond.L = &lq.mu
	return lq
}

func (lq *lockedQueue) push(t func()) {
	lq.mu.Lock()
	lq.q.push(t)
	lq.mu.Unlock()
	lq.cond.Signal()
}

// take blocks until a task is queued or the queue is closed and empty.
func (lq *lockedQueue) take() (func(), bool) {
	lq.mu.Lock()
	defer lq.mu.Unlock()
	for {
		if t, ok := lq.q.pop(); ok {
			return t, true
		}
		if lq.closed {
			return nil, false
		}
		lq.cond.Wait()
	}
}

func (lq *lockedQueue) close() {
	lq.mu.Lock()
	lq.closed = true
	lq.mu.Unlock()
	lq.cond.Broadcast()
}

// globalPool is Zorro's "Global Pool": every task goes to the tail of one
// mutex-protected queue and every worker takes from its head. It balances
// load perfectly and contends on one lock.
type globalPool struct {
	q       *lockedQueue
	pending sync.WaitGroup
	workers sync.WaitGroup
}

func newGlobalPool(n int) *globalPool {
	p := &globalPool{q: newLockedQueue()}
	p.workers.Add(n)
	for range n {
		go func() {
			defer p.workers.Done()
			for {
				t, ok := p.q.take()
				if !ok {
					return
				}
				t()
				p.pending.Done()
			}
		}()
	}
	return p
}

func (p *globalPool) Submit(t func()) { p.pending.Add(1); p.q.push(t) }
func (p *globalPool) Wait()           { p.pending.Wait() }
func (p *globalPool) Close()          { p.q.close(); p.workers.Wait() }

// localPool is Zorro's "Local Coarse Pool": one mutex-protected queue per
// worker, tasks dealt round-robin, no stealing. Little contention, but a
// worker dealt the heavy tasks finishes last while the others idle.
type localPool struct {
	qs      []*lockedQueue
	next    atomic.Uint64 // round-robin cursor
	pending sync.WaitGroup
	workers sync.WaitGroup
}

func newLocalPool(n int) *localPool {
	p := &localPool{qs: make([]*lockedQueue, n)}
	p.workers.Add(n)
	for i := range n {
		p.qs[i] = newLockedQueue()
		go func(q *lockedQueue) {
			defer p.workers.Done()
			for {
				t, ok := q.take()
				if !ok {
					return
				}
				t()
				p.pending.Done()
			}
		}(p.qs[i])
	}
	return p
}

func (p *localPool) Submit(t func()) {
	p.pending.Add(1)
	i := (p.next.Add(1) - 1) % uint64(len(p.qs))
	p.qs[i].push(t)
}

func (p *localPool) Wait() { p.pending.Wait() }

func (p *localPool) Close() {
	for _, q := range p.qs {
		q.close()
	}
	p.workers.Wait()
}

// goroutinePool starts a goroutine per task and lets the Go scheduler
// (itself a work-stealing scheduler, with a global run queue) balance them.
type goroutinePool struct{ pending sync.WaitGroup }

func (p *goroutinePool) Submit(t func()) {
	p.pending.Add(1)
	go func() {
		defer p.pending.Done()
		t()
	}()
}

func (p *goroutinePool) Wait()  { p.pending.Wait() }
func (p *goroutinePool) Close() {}

// Pool designs, as NewTaskPool names them.
const (
	GlobalQueue = "global"    // one mutex-protected queue all workers take from
	LocalQueues = "local"     // a queue per worker, tasks dealt round-robin, no stealing
	Goroutines  = "goroutine" // a goroutine per task
)

// NewTaskPool returns a pool of the design with workers workers (a
// goroutine per task ignores workers), or nil for an unknown design.
func NewTaskPool(design string, workers int) TaskPool {
	switch design {
	case GlobalQueue:
		return newGlobalPool(workers)
	case LocalQueues:
		return newLocalPool(workers)
	case Goroutines:
		return &goroutinePool{}
	}
	return nil
}
