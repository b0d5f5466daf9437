package core

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofork/gofork/topology"

	"github.com/gofork/gofork/internal/lockfree"
)

// A Pool is a set of workers, one goroutine each, that run fork-join tasks by
// work stealing. Create one with New, or use the process-wide Default. All
// methods are safe for concurrent use.
//
// A pool runs Workers() regular workers: the n of WithWorkers, or
// GOMAXPROCS, followed as it changes, for a pool made without it. When a
// task blocks, a spare worker stands in for it (see Blocking and
// WithMaxSpares), so work that waits always finds a worker.
type Pool struct {
	cfg   config
	sleep sleepState
	inj   injector
	// idleHook, set by tests only, runs on a worker right after it
	// announced itself idle and before its last look (wait): a test that
	// pauses it there makes the interleavings of that window at will.
	idleHook atomic.Pointer[func(*Worker)]

	// roster is what thieves read: the workers and their victim samplers
	// (roster.go). Replaced as a whole under growMu.
	roster atomic.Pointer[roster]
	// limit is the number of active regular workers (roster.active). Read
	// by workers at their idle points, written under growMu.
	limit atomic.Int32
	// applied is the limit whose roster is published: setLimit stores it
	// last, so that refreshLimit, which compares GOMAXPROCS with it, waits
	// (on growMu) for a change another goroutine has begun instead of
	// returning before that change's new workers are in the roster.
	applied atomic.Int32

	// closed is set by Close: submissions from outside (Run, RunOn, a
	// Scope's Go) panic from then on. See enter for how Close waits.
	closed atomic.Bool
	// drained receives a token, while closed, when inflight drops to 0 or
	// the last job forked from outside is done (outsideDone reaches
	// outside.Pushed()).
	drained chan struct{}
	quit    atomic.Bool // set by Close after the last run: workers exit; written under growMu

	exited sync.WaitGroup // worker goroutines still running
	// goroutines counts the worker goroutines running now, spares
	// included: started (startWorker, revive) less ended (keep-alive,
	// Close). For tests and Stats.
	goroutines atomic.Int32
	revivals   atomic.Uint64 // goroutines started again after a keep-alive ran out (revive); for tests

	// growMu serialises creating workers and publishing rosters.
	growMu    sync.Mutex
	created   []*Worker         // every worker by ID; guarded by growMu
	nRegular  int               // regular workers created; guarded by growMu
	nSpares   int               // spares created; guarded by growMu
	seed      uint64            // seeds the workers' victim generators
	topology  *topology.Machine // the machine the workers are placed on
	spread    []int             // CPUs in placement order: the k-th worker placed takes spread[k % len]
	nodeIndex map[int]int       // topology node number -> index in nodes; read-only after New
	nodes     []nodeCount       // per NUMA node of the topology: searching count

	spares spareState // spare workers: how many run, how many are wanted
	gov    governor   // starts spares for stalls; see governor.go

	// inflight counts the roots submitted (Run, RunOn) and not finished.
	// The governor runs while it is nonzero, and Close waits until it is 0
	// (enter, exit).
	inflight atomic.Int32
	// outside is the queue of Scope tasks forked from outside the pool;
	// workers take them in batches (drainOutside). Its claimed positions
	// (outside.Pushed()) count the jobs forked from outside: they are in
	// flight until outsideDone counts them done, and the governor and Close
	// treat them as inflight's roots (forkOutside).
	outside lockfree.Queue[job]
	// outsideDone counts the jobs of outside finished (in workers'
	// batches), and the positions a Go that found the pool closed left
	// empty; never above outside.Pushed(). On a line of its own, away from
	// the queue's taker fields and what forks read.
	_           [cacheLinePad]byte
	outsideDone atomic.Int64
	_           [cacheLinePad - 8]byte
	// rootsWaiting counts roots in the injector and in inboxes, not yet
	// taken: busy workers read it at their poll points (poll.go).
	rootsWaiting atomic.Int32
	maxRootWait  atomic.Int64  // longest submit-to-start wait of a root, ns
	guests       guestTable    // the guest records, and the places guests hold (guest.go)
	lostWakeups  atomic.Uint64 // sleepers the governor had to wake (Stats.LostWakeups)

	rootJobs  sync.Map // reflect.Type -> *sync.Pool of *rootJob[R]
	isDefault bool
	start     time.Time
	closeOnce sync.Once
}

// New starts a pool with the given options (see WithWorkers, WithMaxSpares,
// WithPolicy, WithScheduler, WithTopology, WithPinning, WithKeepAlive). It panics with a
// message naming the bad value if an option is out of range.
func New(opts ...Option) *Pool {
	cfg := defaultConfig()
	for _, o := range opts {
		if o == nil {
			panic("core: New with a nil Option")
		}
		o(&cfg)
	}
	cfg.validate()

	p := &Pool{cfg: cfg, start: time.Now(), drained: make(chan struct{}, 1)}
	p.seed = uint64(time.Now().UnixNano()) | 1
	p.placeWorkers()
	p.gov.init(p)

	p.growMu.Lock()
	ws := make([]*Worker, cfg.workers)
	for i := range ws {
		ws[i] = p.newWorker(regularWorker)
	}
	p.limit.Store(int32(cfg.workers))
	gate := make(chan struct{})
	for _, w := range ws {
		p.startWorker(w, gate)
	}
	p.publish(cfg.workers)
	close(gate)
	p.applied.Store(int32(cfg.workers))
	p.growMu.Unlock()
	return p
}

var (
	defaultOnce sync.Once
	defaultPool *Pool
)

// Default returns the process-wide pool, started on first use. Like a pool
// made with New and no WithWorkers, it runs GOMAXPROCS workers, at most
// runtime.NumCPU, and follows GOMAXPROCS when it changes (go test -cpu,
// runtime.GOMAXPROCS, the runtime's container-aware updates), from the
// next Run on. It is the only
// global state in gofork with a setting: par, reduce, sortpar, linalg and
// uts use it unless an option names another pool. It cannot be closed;
// its workers end their goroutines after DefaultKeepAlive idle, and come
// back on the next call.
func Default() *Pool {
	defaultOnce.Do(func() {
		defaultPool = New()
		defaultPool.isDefault = true
	})
	return defaultPool
}

// Policy returns the pool's fork policy.
func (p *Pool) Policy() Policy { return p.cfg.policy }

// Scheduler returns the pool's idle policy.
func (p *Pool) Scheduler() Scheduler { return p.cfg.scheduler }

// Close waits for the roots already submitted to finish, then stops the
// workers, spares included, and the governor, and waits for their
// goroutines to exit. Run and RunOn on a closed pool panic; Close of a
// closed pool does nothing. Close panics if called from inside a task of p
// (it would wait for itself) or on the Default pool.
func (p *Pool) Close() {
	if p.isDefault {
		panic("core: Close of the Default pool")
	}
	if p.currentWorker() != nil {
		panic("core: Close called from inside a task of the pool")
	}
	p.closeOnce.Do(func() {
		lockfree.DekkerStoreBool(&p.closed, true) // before the loads of inflight and of the outside queue's tail
		// After closed: pairs with enter's Add, and with the load of
		// closed after the tail CAS of forkOutside (Dekker, Q5).
		for p.inflight.Load() != 0 || p.outsideDone.Load() != p.outside.Pushed() {
			<-p.drained
		}
		p.gov.stop()
		p.growMu.Lock()
		p.quit.Store(true) // under growMu: no worker is created after it
		p.growMu.Unlock()
		p.wakeAll()
		p.exited.Wait()
	})
}

// Closed reports whether Close has been called on p. A call that names a
// closed pool (par.WithPool) panics before it starts any work, whatever the
// size of its input, as Run does.
func (p *Pool) Closed() bool { return p.closed.Load() }

// enter counts a root submitted from outside in flight, panicking if the
// pool is closed, and wakes the governor for the first one. Every enter is
// matched by an exit when the work is done. (A Scope's task forked from
// outside is counted by its position in the outside queue: forkOutside.)
//
// Close sets closed, then waits until inflight is 0; enter adds to inflight,
// then loads closed. With sequentially consistent atomics either enter sees
// closed (and backs out) or Close sees the work in flight (and waits for
// it): nothing is submitted to a pool whose workers are gone.
func (p *Pool) enter() {
	if p.inflight.Add(1) == 1 {
		p.gov.wake() // the first work in flight: the governor watches from now on
	}
	if p.closed.Load() {
		p.exit()
		panic(closedPool)
	}
}

// closedPool is the panic of a submission to a closed pool.
const closedPool = "core: Run on a closed Pool"

// refuseClosed panics, naming call, if the pool is closed: the check every
// entry point makes first, so that a closed pool is refused with one message
// whatever the call would have done. A Close that races with the call is
// caught later (enter, forkOutside) with the generic message.
func (p *Pool) refuseClosed(call string) {
	if p.closed.Load() {
		panic("core: " + call + " on a closed Pool")
	}
}

// exit counts one root done; the last one after Close lets it go on.
func (p *Pool) exit() {
	n := p.inflight.Add(-1)
	if debugChecks && n < 0 {
		panic("core: invariant: more submissions done than entered (inflight < 0)")
	}
	if n == 0 && p.closed.Load() {
		select {
		case p.drained <- struct{}{}:
		default:
		}
	}
}

// outsideFinished counts k jobs forked from outside done (a worker's batch,
// or a position a Go on a closed pool filled with nothing); the last one
// after Close lets it go on.
func (p *Pool) outsideFinished(k int64) {
	n := p.outsideDone.Add(k)
	if debugChecks && n > p.outside.Pushed() {
		panic("core: invariant: more jobs forked from outside done than forked (" + strconv.FormatInt(n, 10) + ")")
	}
	if p.closed.Load() && n == p.outside.Pushed() {
		select {
		case p.drained <- struct{}{}:
		default:
		}
	}
}
