package par

import (
	"fmt"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
)

// An Option configures one call of a parallel function of gofork: the pool
// it runs on, how a loop cuts its range, the grain, the items a stream
// holds. It is the one option type of par, reduce, sortpar, linalg and uts:
//
//	par.For(0, n, body, par.WithPool(p), par.Grain(64))
//	sortpar.Sort(xs, par.WithPool(p))
//	linalg.Mul(dst, a, b, par.WithPool(p))
//
// Later options override earlier ones. Each function's doc says which
// options it takes; an option it does not take (InFlight passed to a sort,
// say) makes it panic, naming the option and the function, rather than be
// ignored. So does a nil Option, whatever the size of the input.
//
// Options are made only by the functions of this package; the configuration
// an Option sets is internal, so that options can be added without changing
// any signature. An Option is a plain function so that passing options
// allocates nothing and every package resolves them by one rule.
type Option func(*loop.Config)

// WithPool runs the call on p. Without it, a call runs on the pool of the
// task that makes it (a loop nested in a loop, a sort inside a task of p),
// and from outside any task on core.Default(). It panics if p is nil.
func WithPool(p *core.Pool) Option {
	if p == nil {
		panic("par: WithPool(nil)")
	}
	return func(c *loop.Config) { c.Mark(loop.SetPool, "par.WithPool"); c.Pool = p }
}

// Auto is the default partitioner. It splits the range into a few chunks per
// worker and splits a chunk further only where it was stolen by another
// worker (demand-driven, like TBB's auto_partitioner), never into chunks
// smaller than the grain (see Grain). On uniform loops it needs no tuning; on
// skewed loops the splitting follows the idle workers.
func Auto() Option {
	return func(c *loop.Config) { c.Mark(loop.SetPartitioner, "par.Auto"); c.Kind = loop.Auto }
}

// Static cuts the range into one contiguous chunk per worker and does not
// split further. The chunk boundaries depend only on the range and the number
// of workers, and a worker runs the chunk with its own index whenever it takes
// part in the loop, so repeated calls give each worker the same data. A worker
// that finds its chunk gone (or has none) takes the last unclaimed one, so the
// loop finishes even when some workers are busy elsewhere.
func Static() Option {
	return func(c *loop.Config) { c.Mark(loop.SetPartitioner, "par.Static"); c.Kind = loop.Static }
}

// Simple splits the range recursively until every chunk has at most grain
// iterations. It panics if grain < 1.
func Simple(grain int) Option {
	if grain < 1 {
		panic(fmt.Sprintf("par: Simple(%d): grain must be at least 1", grain))
	}
	return func(c *loop.Config) {
		c.Mark(loop.SetPartitioner, "par.Simple")
		c.Kind, c.Simple = loop.Simple, uint64(grain)
	}
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
	return func(c *loop.Config) {
		c.Mark(loop.SetPartitioner, "par.Affinity")
		c.Kind, c.Affinity = loop.AffinityKind, &a.rec
	}
}

// Grain sets the smallest piece of work a call hands to one worker, in
// elements or iterations (default 1): the minimum chunk that Auto and
// Affinity cut, the leaf size of reduce.Deterministic's split tree, and for
// the sorts of package sortpar the length below which a range is sorted
// serially (at least 2), and the block of reduce.ScanBlocks. It panics if
// n < 1.
//
// It is one option with one meaning everywhere, not one per algorithm: in
// every call it bounds from below the serial piece one worker takes, which
// is the one thing a caller tunes (a cheap body wants big pieces, a costly
// one small pieces). What the piece is called inside an algorithm (a
// chunk, a cutoff, a block) is the algorithm's business, and a caller who
// switches a loop for a sort or a scan keeps the same knob.
func Grain(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("par: Grain(%d): grain must be at least 1", n))
	}
	return func(c *loop.Config) { c.Mark(loop.SetGrain, "par.Grain"); c.Grain = uint64(n) }
}

// InFlight bounds the items MapSeq and ForEachSeq hold at once: taken from
// the sequence and not yet consumed (MapSeq) or finished (ForEachSeq). The
// default is 64 per worker of the pool, so that the consumer and the
// goroutine that ranges over the sequence each wake once per many items. It
// panics if n < 1.
func InFlight(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("par: InFlight(%d): at least one item must be in flight", n))
	}
	return func(c *loop.Config) { c.Mark(loop.SetInFlight, "par.InFlight"); c.InFlight = n }
}

// AffinityState is the record an Affinity loop keeps between calls: which
// worker ran each chunk. The zero value is ready to use. A state must not be
// used by two loops at the same time (nested, or from two goroutines): the
// second one panics.
type AffinityState struct {
	rec loop.Affinity
}

// Hits reports how many chunks of the last loop run with a were run by the
// worker that ran them in the loop before, out of how many chunks there were.
// The first loop (and one after a reset) has no record and reports 0 hits.
func (a *AffinityState) Hits() (hits, chunks int) { return a.rec.Hits() }

// Owners returns, for each chunk of the last loop run with a, the worker that
// ran it (-1 where the loop stopped before the chunk ran).
func (a *AffinityState) Owners() []int { return a.rec.Owners() }

// resolve resolves opts for the entry point call, which uses the settings
// in allowed (see loop.Resolve).
func resolve(call string, allowed loop.Setting, opts []Option) loop.Config {
	return loop.Resolve(call, allowed, opts)
}
