package par

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// Option configures a loop: its partitioner, its grain and the pool it runs
// on. Later options override earlier ones. Every function that takes options
// panics on a nil Option, whatever the size of its input.
type Option func(*config)

// partKind names a partitioner.
type partKind uint8

const (
	// kindAuto splits into a few chunks per worker, then further where work is stolen.
	kindAuto partKind = iota
	// kindSimple splits recursively until a chunk has at most grain iterations.
	kindSimple
	// kindStatic makes one contiguous chunk per worker.
	kindStatic
	// kindAffinity makes a fixed set of chunks and replays which worker ran each.
	kindAffinity
)

// config is what a list of Options resolves to.
type config struct {
	pool   *core.Pool
	kind   partKind
	simple uint64 // Simple's chunk bound, >= 1
	grain  uint64 // minimum chunk for Auto and Affinity, >= 1
	aff    *AffinityState

	grainSet bool // a Grain option was given
	inFlight int  // MapSeq and ForEachSeq: items between pull and consumption; 0: the default
}

const (
	// autoChunksLog2 is how many levels Auto splits beyond log2(workers)
	// before it waits for theft: 2 levels give about four chunks per worker.
	autoChunksLog2 = 2
	// autoRearm is the split budget a stolen range gets back (TBB re-arms a
	// stolen range the same way): a thief splits its range into up to
	// 2^autoRearm pieces so that other idle workers find something to take.
	autoRearm = 2
	// autoBlockSplits is how many times an Auto range splits once its
	// budget is spent (never below the grain): its leaves run as up to 8
	// blocks, each a fork that idle workers and spares can take (see
	// splitTask).
	autoBlockSplits = 3
	// affinityChunksPerWorker is how many chunks Affinity cuts per worker.
	affinityChunksPerWorker = 8
	// deterministicGrain is the leaf size of Deterministic's fixed split tree
	// when no Simple or Grain option names one.
	deterministicGrain = 1024
)

// Auto is the default partitioner. It splits the range into a few chunks per
// worker and splits a chunk further only where it was stolen by another
// worker (demand-driven, like TBB's auto_partitioner), never into chunks
// smaller than the grain (see Grain). On uniform loops it needs no tuning; on
// skewed loops the splitting follows the idle workers.
func Auto() Option { return func(c *config) { c.kind = kindAuto } }

// Static cuts the range into one contiguous chunk per worker and does not
// split further. The chunk boundaries depend only on the range and the number
// of workers, and a worker runs the chunk with its own index whenever it takes
// part in the loop, so repeated calls give each worker the same data. A worker
// that finds its chunk gone (or has none) takes the last unclaimed one, so the
// loop finishes even when some workers are busy elsewhere.
func Static() Option { return func(c *config) { c.kind = kindStatic } }

// Simple splits the range recursively until every chunk has at most grain
// iterations. It panics if grain < 1.
func Simple(grain int) Option {
	if grain < 1 {
		panic(fmt.Sprintf("par: Simple(%d): grain must be at least 1", grain))
	}
	return func(c *config) { c.kind = kindSimple; c.simple = uint64(grain) }
}

// Grain sets the minimum chunk, in iterations, that Auto and Affinity cut
// (default 1); Deterministic in package reduce uses it as the leaf size of its
// split tree. It panics if n < 1.
func Grain(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("par: Grain(%d): grain must be at least 1", n))
	}
	return func(c *config) { c.grain = uint64(n); c.grainSet = true }
}

// InFlight bounds the items MapSeq and ForEachSeq hold at once: taken from
// the sequence and not yet consumed (MapSeq) or finished (ForEachSeq). The
// default is four per worker of the pool. It panics if n < 1.
func InFlight(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("par: InFlight(%d): at least one item must be in flight", n))
	}
	return func(c *config) { c.inFlight = n }
}

// PoolOf returns the pool that opts name (WithPool), or core.Default():
// the pool a loop with these options runs on. Primitives that cut their
// work by the number of workers (reduce.Scan) read it from there.
func PoolOf(opts ...Option) *core.Pool { return resolve(opts).pool }

// WithPool runs the loop on p instead of core.Default(). It panics if p is nil.
func WithPool(p *core.Pool) Option {
	if p == nil {
		panic("par: WithPool(nil)")
	}
	return func(c *config) { c.pool = p }
}

// Affinity is like Auto, but it records in a which worker ran each chunk and
// replays that mapping on the next loop given the same state, so repeated
// sweeps over the same data find it in the same worker's cache. A worker first
// runs the chunks it ran last time; once those are gone it takes unclaimed
// chunks from the far end, and the record follows. The state is reset when the
// range length or the worker count changes. It panics if a is nil.
func Affinity(a *AffinityState) Option {
	if a == nil {
		panic("par: Affinity(nil)")
	}
	return func(c *config) { c.kind = kindAffinity; c.aff = a }
}

// AffinityState is the record an Affinity loop keeps between calls: which
// worker ran each chunk. The zero value is ready to use. A state must not be
// used by two loops at the same time (nested, or from two goroutines): the
// second one panics.
type AffinityState struct {
	// inUse is set while a loop runs with the state; a second loop finds
	// it set and panics instead of corrupting the record.
	inUse atomic.Bool

	n       uint64 // range length the record is for
	workers int    // worker count the record is for
	// owner[c] is the worker that ran chunk c in the last call (-1: none).
	// Written by the one task that claims c; read by the caller after
	// core.Run has returned, which orders the writes before the reads.
	owner []int32
	// pref[w] lists the chunks worker w ran last time; rebuilt from owner
	// before each call and only read during it.
	pref [][]int32
	// claimed[c] is set by the task that takes chunk c (CAS by any worker).
	claimed []atomic.Uint32
	// ran counts chunks run by their recorded worker during a call; every
	// worker adds to it.
	ran    atomic.Int64
	hits   int // ran after the last call
	chunks int // chunks in the last call
}

// Hits reports how many chunks of the last loop run with a were run by the
// worker that ran them in the loop before, out of how many chunks there were.
// The first loop (and one after a reset) has no record and reports 0 hits.
func (a *AffinityState) Hits() (hits, chunks int) { return a.hits, a.chunks }

// Owners returns, for each chunk of the last loop run with a, the worker that
// ran it (-1 where the loop stopped before the chunk ran).
func (a *AffinityState) Owners() []int {
	out := make([]int, len(a.owner))
	for i, o := range a.owner {
		out[i] = int(o)
	}
	return out
}

// resolve applies opts over the defaults and validates the combination.
func resolve(opts []Option) config {
	checkOptions(opts)
	c := config{kind: kindAuto, grain: 1, simple: 1}
	for _, o := range opts {
		o(&c)
	}
	if c.pool == nil {
		c.pool = core.Default()
	}
	return c
}

// checkOptions panics if an option is nil. Every entry point calls it (or
// resolve) before it looks at its input, so that a nil Option is refused
// on an empty or short input too, not only once the input is long enough
// to be split.
func checkOptions(opts []Option) {
	for _, o := range opts {
		if o == nil {
			panic("par: nil Option")
		}
	}
}

// chunkBound returns the start offset of chunk c of k equal chunks of [0, n):
// floor(c*n/k), in 128-bit arithmetic so that n near 2^64 cannot overflow.
func chunkBound(c, k, n uint64) uint64 {
	hi, lo := bits.Mul64(c, n)
	q, _ := bits.Div64(hi, lo, k) // hi < k because c <= k
	return q
}

// log2Ceil returns the smallest d with 1<<d >= x, for x >= 1.
func log2Ceil(x int) int32 {
	return int32(bits.Len(uint(x - 1)))
}
