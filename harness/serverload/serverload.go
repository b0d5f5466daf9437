// Package serverload is the program behind gofork's root-latency bound
// (core's DESIGN.md, "Fair service for roots"): a server whose one
// goroutine runs big jobs back to back while request handlers sort small
// slices on the same pool, each handler one request after another. It
// measures how long each small sort takes, from the call to its return.
//
// The same program run without a pool is the baseline: every sort a
// slices.Sort and every big job its serial loop, on the same goroutines,
// which Go's scheduler time-slices. harness/forktest's latency test, the
// root-latency benchmark and forkbench's server rows all run it.
package serverload

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// A Job is the kind of big job that runs beside the small sorts.
type Job int

const (
	// Sort sorts a fresh slices.Clone of Size random ints with
	// sortpar.Sort, round after round: the clone runs on the big job's
	// goroutine, outside the pool.
	Sort Job = iota
	// For is a par.For over Size indices, each hashing a few dozen steps.
	For
	// Reduce is a reduce.Reduce over Size indices that sums the same
	// hashes.
	Reduce
	// Leaves is a tree of core.Join whose Size leaves each spin for
	// Config.Leaf without reaching a poll point.
	Leaves
)

// Jobs lists every kind of big job, in order.
var Jobs = []Job{Sort, For, Reduce, Leaves}

// String returns the job's name as the benchmarks print it.
func (j Job) String() string {
	switch j {
	case Sort:
		return "sort"
	case For:
		return "for"
	case Reduce:
		return "reduce"
	case Leaves:
		return "leaves"
	}
	return fmt.Sprintf("Job(%d)", int(j))
}

// LeafTime is how long each leaf of a Leaves job spins unless Config.Leaf
// says otherwise.
const LeafTime = 50 * time.Millisecond

// hashSteps is the work of one index of a For or Reduce job.
const hashSteps = 40

// Config is one run of the program.
type Config struct {
	// Pool runs the sorts and the big jobs; nil runs the baseline.
	Pool *core.Pool
	Job  Job
	// Size is the big job's size: elements for Sort, indices for For and
	// Reduce, leaves for Leaves.
	Size int
	// Rounds is how many big jobs run back to back.
	Rounds int
	// Leaf is how long each leaf of a Leaves job spins (0: LeafTime).
	Leaf time.Duration
	// Small is the length of each small sort.
	Small int
	// Callers is the number of request handlers. Each handles one request
	// at a time and then sleeps Callers x Every, so that together they
	// send one request per Every whatever their number; handler k starts
	// k x Every after the first.
	Callers int
	Every   time.Duration
	// Limit ends the run after this long even if the big jobs have not
	// finished (0: no limit).
	Limit time.Duration
}

// Result is what a run measured.
type Result struct {
	// Latency holds the small sorts' times, from the call to the return,
	// in ascending order.
	Latency []time.Duration
	// Big is the time the big jobs took, from the first's start to the
	// last's end (or to Limit); Done reports whether they all finished.
	Big  time.Duration
	Done bool
}

// Quantile returns the q-quantile of the latencies (0 <= q <= 1), or 0 if
// there are none.
func (r Result) Quantile(q float64) time.Duration {
	if len(r.Latency) == 0 {
		return 0
	}
	return r.Latency[min(int(q*float64(len(r.Latency))), len(r.Latency)-1)]
}

// Max returns the longest latency.
func (r Result) Max() time.Duration { return r.Quantile(1) }

// Run runs the program and checks every result: it returns an error if a
// sort returned unsorted data or a big job computed a wrong value.
func Run(c Config) (Result, error) {
	big, err := newBigJob(c)
	if err != nil {
		return Result{}, err
	}
	sortSmall := func(x []int) { slices.Sort(x) }
	if c.Pool != nil {
		sortSmall = func(x []int) { sortpar.Sort(x, par.WithPool(c.Pool)) }
	}

	stop := make(chan struct{})
	var (
		mu      sync.Mutex
		lat     []time.Duration
		bad     atomic.Int64
		callers sync.WaitGroup
	)
	for k := range c.Callers {
		callers.Add(1)
		go func() {
			defer callers.Done()
			rng := rand.New(rand.NewPCG(uint64(k), 11))
			xs := make([]int, c.Small)
			var mine []time.Duration
			pause := time.NewTimer(time.Duration(k) * c.Every)
			defer pause.Stop()
			for {
				select {
				case <-stop:
					mu.Lock()
					lat = append(lat, mine...)
					mu.Unlock()
					return
				case <-pause.C:
				}
				for i := range xs {
					xs[i] = rng.Int()
				}
				start := time.Now()
				sortSmall(xs)
				mine = append(mine, time.Since(start))
				if !slices.IsSorted(xs) {
					bad.Add(1)
				}
				pause.Reset(time.Duration(c.Callers) * c.Every)
			}
		}()
	}

	var res Result
	start := time.Now()
	bigErr := make(chan error, 1)
	go func() {
		for range c.Rounds {
			if err := big(); err != nil {
				bigErr <- err
				return
			}
		}
		bigErr <- nil
	}()
	var limit <-chan time.Time
	if c.Limit > 0 {
		t := time.NewTimer(c.Limit)
		defer t.Stop()
		limit = t.C
	}
	select {
	case err = <-bigErr:
		res.Done = true
	case <-limit:
	}
	res.Big = time.Since(start)
	close(stop)
	callers.Wait()
	if !res.Done {
		err = <-bigErr // the big job is not interrupted: wait for it
	}
	slices.Sort(lat)
	res.Latency = lat
	if err != nil {
		return res, err
	}
	if b := bad.Load(); b != 0 {
		return res, fmt.Errorf("serverload: %d small sorts returned unsorted data", b)
	}
	return res, nil
}

// newBigJob returns one round of c's big job, which checks its result.
func newBigJob(c Config) (func() error, error) {
	p := c.Pool
	switch c.Job {
	case Sort:
		in := make([]int, c.Size)
		rng := rand.New(rand.NewPCG(3, 4))
		for i := range in {
			in[i] = rng.Int()
		}
		return func() error {
			x := slices.Clone(in)
			if p != nil {
				sortpar.Sort(x, par.WithPool(p))
			} else {
				slices.Sort(x)
			}
			if !slices.IsSorted(x) {
				return fmt.Errorf("serverload: the big sort returned unsorted data")
			}
			return nil
		}, nil
	case For:
		out := make([]uint64, c.Size)
		return func() error {
			body := func(i int) { out[i] = hash(uint64(i)) }
			if p != nil {
				par.For(0, c.Size, body, par.WithPool(p))
			} else {
				for i := range c.Size {
					body(i)
				}
			}
			for _, i := range []int{0, c.Size / 2, c.Size - 1} {
				if out[i] != hash(uint64(i)) {
					return fmt.Errorf("serverload: par.For left index %d wrong", i)
				}
			}
			clear(out)
			return nil
		}, nil
	case Reduce:
		want := sumHashes(0, c.Size, 0)
		return func() error {
			var got uint64
			if p != nil {
				got = reduce.Reduce(0, c.Size, uint64(0), sumHashes,
					func(x, y uint64) uint64 { return x + y }, par.WithPool(p))
			} else {
				got = sumHashes(0, c.Size, 0)
			}
			if got != want {
				return fmt.Errorf("serverload: reduce.Reduce gave %#x, want %#x", got, want)
			}
			return nil
		}, nil
	case Leaves:
		leaf := c.Leaf
		if leaf == 0 {
			leaf = LeafTime
		}
		return func() error {
			var ran atomic.Int64
			if p != nil {
				core.RunValue(p, func(w *core.Worker) struct{} { return leaves(w, leafRange{0, c.Size, leaf, &ran}) })
			} else {
				for range c.Size {
					spinFor(leaf)
					ran.Add(1)
				}
			}
			if n := ran.Load(); n != int64(c.Size) {
				return fmt.Errorf("serverload: %d of %d leaves ran", n, c.Size)
			}
			return nil
		}, nil
	}
	return nil, fmt.Errorf("serverload: no job %v", c.Job)
}

// hash is the work of one index of a For or Reduce job.
func hash(i uint64) uint64 {
	x := i*0x9E3779B97F4A7C15 | 1
	for range hashSteps {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

func sumHashes(lo, hi int, acc uint64) uint64 {
	for i := lo; i < hi; i++ {
		acc += hash(uint64(i))
	}
	return acc
}

// leafRange is a range of a Leaves job's leaves, each spinning for leaf.
type leafRange struct {
	lo, hi int
	leaf   time.Duration
	ran    *atomic.Int64
}

// leaves runs the leaves [r.lo, r.hi) as a tree of Joins.
func leaves(w *core.Worker, r leafRange) struct{} {
	if r.hi-r.lo == 1 {
		spinFor(r.leaf)
		r.ran.Add(1)
		return struct{}{}
	}
	mid := r.lo + (r.hi-r.lo)/2
	core.Join(w, leaves, leafRange{r.lo, mid, r.leaf, r.ran}, leaves, leafRange{mid, r.hi, r.leaf, r.ran})
	return struct{}{}
}

// spinFor computes for d of wall time, with no poll point.
func spinFor(d time.Duration) {
	x := uint64(1)
	for start := time.Now(); time.Since(start) < d; {
		for range 1000 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	sink.Store(x)
}

var sink atomic.Uint64
