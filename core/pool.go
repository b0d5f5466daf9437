package core

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"
)

// A Pool is a set of workers, one goroutine each, that run fork-join tasks by
// work stealing. Create one with New, or use the process-wide Default. All
// methods are safe for concurrent use.
type Pool struct {
	workers []*Worker
	cfg     config
	sleep   sleepState
	inj     injector

	closed bool        // guarded by inj.mu: Run and RunOn panic once set
	quit   atomic.Bool // set by Close after the last run: workers exit

	runs   sync.WaitGroup // roots submitted and not yet returned to their caller
	exited sync.WaitGroup // worker goroutines still running

	// gtab maps a worker goroutine (its curg value) to the worker, so that Run
	// can tell a call from inside a task. Open addressing, linear probing;
	// written before the pool is returned by New, except that a worker marks
	// its entry dead (1) as it exits.
	gtab atomic.Pointer[gTable]

	topology *Topology       // the machine the workers are placed on
	cpus     []int           // cpus[i]: worker i's CPU in topology
	samplers []victimSampler // samplers[i]: worker i's victim distribution
	nodes    []nodeCount     // per NUMA node with workers: searching count

	rootJobs  sync.Map // reflect.Type -> *sync.Pool of *rootJob[R]
	isDefault bool
	start     time.Time
	closeOnce sync.Once
}

// gTable is an open-addressing table of worker goroutines, replaced as a
// whole when it fills with tombstones.
type gTable struct {
	entries []gEntry
	mask    uintptr
}

func newGTable(size int) *gTable {
	size = 1 << bits.Len(uint(size-1))
	return &gTable{entries: make([]gEntry, size), mask: uintptr(size - 1)}
}

type gEntry struct {
	g atomic.Uintptr // 0: free slot, 1: dead worker, else a live worker's curg
	w *Worker
}

// New starts a pool with the given options (see WithWorkers, WithPolicy,
// WithScheduler). It panics with a message naming the bad value if an option
// is out of range.
func New(opts ...Option) *Pool {
	cfg := defaultConfig()
	for _, o := range opts {
		if o == nil {
			panic("core: New with a nil Option")
		}
		o(&cfg)
	}
	cfg.validate()

	p := &Pool{cfg: cfg, start: time.Now()}
	n := cfg.workers
	p.workers = make([]*Worker, n)
	seed := uint64(time.Now().UnixNano()) | 1
	for i := range p.workers {
		w := &Worker{pool: p, id: i, helpFirst: cfg.policy == HelpFirst, wake: make(chan struct{}, 1)}
		w.rng = splitmix(seed + uint64(i)*0x9E3779B97F4A7C15)
		w.dq.init()
		p.workers[i] = w
	}

	p.placeWorkers()

	p.gtab.Store(newGTable(4 * n))

	var ready sync.WaitGroup
	ready.Add(n)
	p.exited.Add(n)
	for _, w := range p.workers {
		go func() {
			if cfg.pinning {
				// On success the goroutine stays locked to its thread until
				// it exits, and the runtime then retires the pinned thread.
				if err := pinCurrentThread(p.cpus[w.id]); err != nil {
					w.pinErr = err
				} else {
					w.pinned = true
				}
			}
			p.register(w)
			ready.Done()
			w.loop()
		}()
	}
	ready.Wait() // every worker is in gtab before anyone can call Run
	return p
}

// placeWorkers assigns each worker a CPU of the topology and builds the
// victim distributions. With pinning, the topology is first restricted to the
// CPUs this process may run on (a cpuset or taskset limit).
func (p *Pool) placeWorkers() {
	t := p.cfg.topology
	if t == nil {
		t = CurrentTopology()
	}
	if p.cfg.pinning {
		if allowed, err := pinAllowedCPUs(); err == nil {
			t = t.restrict(allowed)
		}
	}
	p.topology = t
	p.cpus = assignCPUs(t, p.cfg.workers)
	p.samplers = newVictimSamplers(t, p.cpus)
	index := map[int]int{} // topology node id -> index in p.nodes
	for i, w := range p.workers {
		node := t.Node(p.cpus[i])
		k, ok := index[node]
		if !ok {
			k = len(index)
			index[node] = k
		}
		w.node = k
	}
	p.nodes = make([]nodeCount, len(index))
}

// Topology returns the machine description the pool placed its workers on.
func (p *Pool) Topology() *Topology { return p.topology }

// PinError reports why workers could not be pinned (WithPinning), or nil if
// every worker was pinned or pinning was not asked for.
func (p *Pool) PinError() error {
	var errs []error
	for _, w := range p.workers {
		if w.pinErr != nil {
			errs = append(errs, fmt.Errorf("worker %d (cpu %d): %w", w.id, p.cpus[w.id], w.pinErr))
		}
	}
	return errors.Join(errs...)
}

func splitmix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	x ^= x >> 31
	if x == 0 {
		x = 1
	}
	return x
}

func gHash(g uintptr) uintptr { return uintptr((uint64(g) * 0x9E3779B97F4A7C15) >> 32) }

// register records the calling goroutine as w's in gtab. A worker whose
// goroutine was replaced (runtime.Goexit in a task) gets a new entry; its old
// one stays dead (1), a tombstone that keeps probe chains intact. The table
// has room for 2*Workers entries and grows when tombstones fill it.
func (p *Pool) register(w *Worker) {
	g := curg()
	p.inj.mu.Lock() // serialises registering goroutines
	defer p.inj.mu.Unlock()
	t := p.gtab.Load()
	used := 0
	for i := range t.entries {
		if t.entries[i].g.Load() != 0 {
			used++
		}
	}
	if 2*(used+1) > len(t.entries) {
		// Copy the live entries into a fresh table (tombstones dropped).
		// Readers of the old table still find every live worker there.
		nt := newGTable(4 * len(p.workers))
		for i := range t.entries {
			if e := &t.entries[i]; e.g.Load() > 1 {
				nt.insert(e.g.Load(), e.w)
			}
		}
		p.gtab.Store(nt)
		t = nt
	}
	t.insert(g, w)
}

func (t *gTable) insert(g uintptr, w *Worker) {
	for i := gHash(g) & t.mask; ; i = (i + 1) & t.mask {
		e := &t.entries[i]
		if e.g.Load() == 0 {
			e.w = w
			e.g.Store(g) // publishes e.w; pairs with the Load in workerOf
			return
		}
	}
}

// forget marks w's entry dead as its goroutine exits, so that a goroutine
// that later reuses the same g structure is not taken for the worker.
func (p *Pool) forget(w *Worker) {
	p.inj.mu.Lock()
	defer p.inj.mu.Unlock()
	t := p.gtab.Load()
	for i := range t.entries {
		if e := &t.entries[i]; e.w == w && e.g.Load() > 1 {
			e.g.Store(1)
		}
	}
}

// workerOf returns the worker whose goroutine has curg value g, or nil.
func (p *Pool) workerOf(g uintptr) *Worker {
	t := p.gtab.Load()
	for i := gHash(g) & t.mask; ; i = (i + 1) & t.mask {
		e := &t.entries[i]
		switch e.g.Load() {
		case g:
			return e.w
		case 0:
			return nil
		}
	}
}

var (
	defaultOnce sync.Once
	defaultPool *Pool
)

// Default returns the process-wide pool, with GOMAXPROCS workers (as read on
// first use), started on first use. It is the only global state in gofork:
// par, reduce, sortpar, linalg and uts use it unless an option names another
// pool. It cannot be closed.
func Default() *Pool {
	defaultOnce.Do(func() {
		defaultPool = New()
		defaultPool.isDefault = true
	})
	return defaultPool
}

// Workers returns the number of workers.
func (p *Pool) Workers() int { return len(p.workers) }

// Policy returns the pool's fork policy.
func (p *Pool) Policy() Policy { return p.cfg.policy }

// Scheduler returns the pool's idle policy.
func (p *Pool) Scheduler() Scheduler { return p.cfg.scheduler }

// Close waits for the roots already submitted to finish, then stops the
// workers and waits for their goroutines to exit. Run and RunOn on a closed
// pool panic; Close of a closed pool does nothing. Close panics if called
// from inside a task of p (it would wait for itself) or on the Default pool.
func (p *Pool) Close() {
	if p.isDefault {
		panic("core: Close of the Default pool")
	}
	if p.workerOf(curg()) != nil {
		panic("core: Close called from inside a task of the pool")
	}
	p.closeOnce.Do(func() {
		p.inj.mu.Lock()
		p.closed = true
		p.inj.mu.Unlock()
		p.runs.Wait()
		p.quit.Store(true)
		p.wakeAll()
		p.exited.Wait()
	})
}
