// Package loop is the engine under gofork's parallel entry points: the
// settings a list of par.Option values resolves to (Config, Resolve), and
// the split/join loop that par's loops and package reduce run on (Split),
// and the stateless loops a caller already inside a task runs its few
// independent pieces with (Each, Chunks).
//
// par.Option is a func(*Config), so that par, reduce, sortpar, linalg and
// uts share one option type while only this module can read what an option
// set. Each option records which Setting it writes and its own name; Resolve
// refuses, naming both, an option that the call it is passed to does not
// use, rather than ignoring it.
package loop

import (
	"math/bits"
	"strings"
	"sync"

	"github.com/gofork/gofork/core"
)

// Kind is a partitioner: how Split cuts [0, n) into leaves.
type Kind uint8

const (
	// Auto splits into a few chunks per worker, then further where work is stolen.
	Auto Kind = iota
	// Simple splits recursively until a chunk has at most Config.Simple iterations.
	Simple
	// Static makes one contiguous chunk per worker.
	Static
	// AffinityKind makes a fixed set of chunks and replays which worker ran each.
	AffinityKind
)

// Setting is one kind of option, as a bit: a call names the settings it
// uses, and Resolve refuses the others.
type Setting uint8

const (
	// SetPool is par.WithPool.
	SetPool Setting = 1 << iota
	// SetPartitioner is par.Auto, Static, Simple and Affinity.
	SetPartitioner
	// SetGrain is par.Grain.
	SetGrain
	// SetInFlight is par.InFlight.
	SetInFlight

	numSettings = iota
)

// Loops is what a parallel loop over a range uses: the pool, the
// partitioner and the grain.
const Loops = SetPool | SetPartitioner | SetGrain

// Config is what a list of options resolves to. Options write it through
// their constructors in package par; Resolve fills in the defaults.
type Config struct {
	Pool     *core.Pool
	Kind     Kind
	Simple   uint64    // Simple's chunk bound, >= 1
	Grain    uint64    // minimum chunk of Auto and Affinity, >= 1; its meaning elsewhere is the call's
	Affinity *Affinity // the record of an Affinity loop
	InFlight int       // items of a stream between pull and consumption; 0: the call's default

	given Setting             // the settings some option wrote
	names [numSettings]string // names[i]: the last option that wrote setting 1<<i, for Resolve's panic
}

// Mark records that the option called name (as a user writes it, for
// example "par.Grain") wrote setting s. Every option calls it first.
func (c *Config) Mark(s Setting, name string) {
	c.given |= s
	c.names[bits.TrailingZeros8(uint8(s))] = name
}

// Has reports whether some option wrote setting s.
func (c *Config) Has(s Setting) bool { return c.given&s != 0 }

// TreeGrain is the leaf size of a Fixed loop's split tree under c:
// Simple's bound, else the grain an option set, else deterministicGrain.
func (c *Config) TreeGrain() uint64 {
	switch {
	case c.Kind == Simple:
		return c.Simple
	case c.Has(SetGrain):
		return c.Grain
	}
	return deterministicGrain
}

// Resolve applies opts, in order, over the defaults (Auto, grain 1) for
// the entry point named call (as a user writes it, "sortpar.Sort") and
// returns the result. Without a pool option, the pool is the one whose task
// is calling (core.CurrentPool), else core.Default(). It panics, naming the
// call, if an option is nil or writes a setting outside allowed. Every entry
// point resolves its options before it looks at its input, so that a bad
// option is refused on an empty input too, not only on one long enough to
// be split.
func Resolve[O ~func(*Config)](call string, allowed Setting, opts []O) Config {
	if len(opts) == 0 {
		// A Config that no option writes through a pointer stays on the
		// stack: a call with no options allocates nothing here.
		c := Config{Kind: Auto, Grain: 1, Simple: 1}
		c.Pool = callerPool()
		return c
	}
	for _, o := range opts {
		if o == nil {
			panic(pkg(call) + ": nil Option passed to " + call)
		}
	}
	// The options write through a pointer that escapes (each is a func
	// value), so they write a Config of configs, not one on this stack:
	// a call with options allocates nothing either.
	cp := configs.Get().(*Config)
	*cp = Config{Kind: Auto, Grain: 1, Simple: 1}
	for _, o := range opts {
		o(cp)
	}
	c := *cp
	*cp = Config{} // holds no pool or affinity record while it waits
	configs.Put(cp)
	if extra := c.given &^ allowed; extra != 0 {
		name := c.names[bits.TrailingZeros8(uint8(extra))]
		panic(pkg(call) + ": option " + name + " does not apply to " + call)
	}
	if c.Pool == nil {
		c.Pool = callerPool()
	} else if c.Pool.Closed() {
		// Refused here, before the call looks at its input, so that a
		// call too short to touch the pool fails as a long one does.
		panic(pkg(call) + ": " + call + " on a closed Pool")
	}
	return c
}

// configs keeps the Configs that Resolve lets options write, one per call
// at a time: bookkeeping with no setting in it, like sync.Pool itself.
var configs = sync.Pool{New: func() any { return new(Config) }}

// callerPool returns the pool of the task that is calling, or
// core.Default() outside any task.
func callerPool() *core.Pool {
	if p := core.CurrentPool(); p != nil {
		return p
	}
	return core.Default()
}

// pkg returns the package part of a call's name: "sortpar" for "sortpar.Sort".
func pkg(call string) string {
	p, _, _ := strings.Cut(call, ".")
	return p
}

// ChunkBound returns the start offset of chunk c of k equal chunks of
// [0, n): floor(c*n/k), in 128-bit arithmetic so that n near 2^64 cannot
// overflow.
func ChunkBound(c, k, n uint64) uint64 {
	hi, lo := bits.Mul64(c, n)
	q, _ := bits.Div64(hi, lo, k) // hi < k because c <= k
	return q
}

// log2Ceil returns the smallest d with 1<<d >= x, for x >= 1.
func log2Ceil(x int) int32 {
	return int32(bits.Len(uint(x - 1)))
}
