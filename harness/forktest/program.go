package forktest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Kind is the kind of a program node.
type Kind uint8

// The node kinds. Every node maps an input x to a uint64; inner nodes give
// each child its own input derived from x, and combine the children's results
// in a fixed order with a non-commutative mix, so a result that is combined
// out of order or twice shows up in the value.
const (
	Leaf   Kind = iota // Work rounds of hashing of x; may panic (PanicMod)
	Join               // core.Join of Kids[0] and Kids[1]
	Invoke             // core.Invoke of every kid
	For                // par.For over [0, N), Kids[0] at every index
	Reduce             // reduce.Reduce over [0, N) of affine maps made by Kids[0]; the join may panic
	Sort               // Kids[0] at every index of [0, N), then a sortpar sort; the comparator may panic
)

var kindNames = [...]string{"leaf", "join", "invoke", "for", "reduce", "sort"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Partitioner says how a For or Reduce node cuts its range (see package par).
type Partitioner uint8

// The partitioners a loop node can use.
const (
	Auto          Partitioner = iota // par.Auto, with Grain
	Simple                           // par.Simple(Grain)
	Static                           // par.Static
	Affinity                         // par.Affinity with a fresh state
	Deterministic                    // Reduce nodes only: reduce.Deterministic with par.Grain(Grain)
)

// A Node is one node of a random program.
type Node struct {
	ID   int     // index in Program.Nodes; part of every Fault it raises
	Kind Kind    // what the node does
	Kids []*Node // children: two for Join, two to four for Invoke, one for loops and sorts

	// N is the range of a For, Reduce or Sort node.
	N int
	// Part and Grain choose the partitioner of a For or Reduce node.
	Part  Partitioner
	Grain int
	// Cutoff is a Sort node's par.Grain; Radix makes it sort with
	// sortpar.Sort (the radix sort) instead of a comparator.
	Cutoff int
	Radix  bool
	// Mod reduces a Sort node's keys modulo Mod so that many are equal.
	Mod uint64

	// Work is a Leaf's number of hashing rounds.
	Work int
	// Block makes a Leaf block before it returns (see Block); the value
	// does not depend on it.
	Block Block
	// PanicMod: a Leaf panics with Fault{ID, x} when hash(ID, x)%PanicMod == 0;
	// a Sort node's comparator panics when it sees the key at index N/2; a
	// Reduce node's join panics on its first call. 0: never.
	PanicMod uint64
}

// Block is how a Leaf blocks, as code in a real program does.
type Block uint8

// The ways a leaf blocks.
const (
	NoBlock Block = iota
	// Sleep: time.Sleep for a few tens of microseconds, no hint.
	Sleep
	// Hint: the same sleep inside core.Blocking.
	Hint
	// Handoff: the leaf's value is computed by a new goroutine that calls
	// core.RunValue on the same pool (a root from outside), and the leaf waits for
	// it on a channel. Without spare workers, a program whose workers all
	// wait this way at once hangs: nobody takes the roots.
	Handoff
)

var blockNames = [...]string{"none", "sleep", "hint", "handoff"}

// String returns the block's name.
func (b Block) String() string {
	if int(b) < len(blockNames) {
		return blockNames[b]
	}
	return fmt.Sprintf("Block(%d)", b)
}

// A Fault is the value a node of a random program panics with: the node's ID
// and the input it was evaluated on.
type Fault struct {
	Node int
	X    uint64
}

// String makes a Fault readable in test failures.
func (f Fault) String() string { return fmt.Sprintf("fault(node %d, x %#x)", f.Node, f.X) }

// A Program is a random fork-join program: a tree of Nodes evaluated on the
// input Seed.
type Program struct {
	Seed  uint64
	Root  *Node
	Nodes []*Node
}

// Config bounds the programs Generate makes.
type Config struct {
	// Leaves bounds the number of leaf evaluations of one run (default 2000).
	Leaves int
	// Depth is the largest nesting of inner nodes (default 4).
	Depth int
	// MaxWork bounds a leaf's hashing rounds (default 2000).
	MaxWork int
	// Faults is the chance, in percent, that a node that can fail does
	// (default 0: programs never panic).
	Faults int
	// Blocking is the chance, in percent, that a leaf blocks (default 0);
	// each blocking leaf sleeps, sleeps under core.Blocking or hands off
	// to a goroutine that calls core.RunValue, one in three each.
	Blocking int
}

// Generate returns the random program of seed under cfg. The same seed and
// config always give the same program.
func Generate(seed uint64, cfg Config) *Program {
	if cfg.Leaves <= 0 {
		cfg.Leaves = 2000
	}
	if cfg.Depth <= 0 {
		cfg.Depth = 4
	}
	if cfg.MaxWork <= 0 {
		cfg.MaxWork = 2000
	}
	g := &generator{rng: rand.New(rand.NewPCG(seed, 0x666f726b)), cfg: cfg}
	p := &Program{Seed: seed}
	p.Root = g.node(cfg.Depth, cfg.Leaves)
	p.Nodes = g.nodes
	return p
}

type generator struct {
	rng   *rand.Rand
	cfg   Config
	nodes []*Node
}

func (g *generator) add(n *Node) *Node {
	n.ID = len(g.nodes)
	g.nodes = append(g.nodes, n)
	return n
}

func (g *generator) fault() bool {
	return g.cfg.Faults > 0 && g.rng.IntN(100) < g.cfg.Faults
}

// node makes a subtree of at most depth levels of inner nodes whose serial
// evaluation runs at most budget leaves.
func (g *generator) node(depth, budget int) *Node {
	if depth == 0 || budget < 2 || g.rng.IntN(8) == 0 {
		return g.leaf()
	}
	n := g.add(&Node{Kind: Kind(1 + g.rng.IntN(5))})
	switch n.Kind {
	case Join:
		n.Kids = []*Node{g.node(depth-1, budget/2), g.node(depth-1, budget/2)}
	case Invoke:
		k := 2 + g.rng.IntN(3)
		if k > budget {
			k = budget
		}
		for range k {
			n.Kids = append(n.Kids, g.node(depth-1, budget/k))
		}
	case For, Reduce, Sort:
		maxN := budget
		if n.Kind == Sort {
			maxN = min(maxN, 3000)
		} else {
			maxN = min(maxN, 400)
		}
		// Sizes are spread on a log scale so that small ranges (one chunk,
		// no split) are as common as large ones.
		n.N = 1 + int(float64(maxN)*pow(g.rng.Float64(), 3))
		n.Grain = 1 << g.rng.IntN(6)
		n.Part = Partitioner(g.rng.IntN(4))
		if n.Kind == Reduce {
			switch g.rng.IntN(5) {
			case 0:
				n.Part = Deterministic
			case 1:
				if n.N > n.Grain && g.fault() {
					// A join runs for sure only on a fixed split tree.
					n.Part = Simple
					n.PanicMod = 1
				}
			}
		}
		if n.Kind == Sort {
			n.Cutoff = 2 << g.rng.IntN(7)
			n.Mod = []uint64{0, 3, 1000}[g.rng.IntN(3)]
			n.Radix = g.rng.IntN(3) == 0
			if !n.Radix && n.N >= 2 && g.fault() {
				n.PanicMod = 1
			}
		}
		n.Kids = []*Node{g.node(depth-1, budget/n.N)}
	}
	return n
}

func (g *generator) leaf() *Node {
	n := g.add(&Node{Kind: Leaf})
	switch g.rng.IntN(4) {
	case 0:
		n.Work = 0
	case 1:
		n.Work = g.rng.IntN(20)
	default:
		n.Work = g.rng.IntN(g.cfg.MaxWork + 1)
	}
	if g.fault() {
		n.PanicMod = uint64(1 + g.rng.IntN(64))
	}
	if g.cfg.Blocking > 0 && g.rng.IntN(100) < g.cfg.Blocking {
		n.Block = Block(1 + g.rng.IntN(3))
	}
	return n
}

func pow(x float64, k int) float64 {
	r := 1.0
	for range k {
		r *= x
	}
	return r
}

// String prints the program's tree, one node a line, for failure reports.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "program seed=%d, %d nodes\n", p.Seed, len(p.Nodes))
	var walk func(n *Node, indent int)
	walk = func(n *Node, indent int) {
		fmt.Fprintf(&b, "%s#%d %v", strings.Repeat("  ", indent), n.ID, n.Kind)
		switch n.Kind {
		case Leaf:
			fmt.Fprintf(&b, " work=%d", n.Work)
			if n.Block != NoBlock {
				fmt.Fprintf(&b, " block=%v", n.Block)
			}
		case For, Reduce:
			fmt.Fprintf(&b, " n=%d part=%d grain=%d", n.N, n.Part, n.Grain)
		case Sort:
			fmt.Fprintf(&b, " n=%d cutoff=%d mod=%d radix=%v", n.N, n.Cutoff, n.Mod, n.Radix)
		}
		if n.PanicMod != 0 {
			fmt.Fprintf(&b, " panic=%d", n.PanicMod)
		}
		b.WriteByte('\n')
		for _, k := range n.Kids {
			walk(k, indent+1)
		}
	}
	walk(p.Root, 0)
	return b.String()
}

// mix is splitmix64's finaliser: the hash every node uses.
func mix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	return x ^ (x >> 31)
}

// childInput is the input of a node's i-th child (or i-th loop index).
func childInput(x uint64, i int) uint64 { return mix(x ^ uint64(i+1)*0xD6E8FEB86659FD93) }

// combine folds r into h; it is not commutative, so order matters.
func combine(h, r uint64) uint64 { return mix(h*3 + r) }

// leafValue is a Leaf's result and whether it panics on x.
func leafValue(n *Node, x uint64) (uint64, bool) {
	v := x ^ uint64(n.ID)<<32
	for range n.Work {
		v = mix(v)
	}
	fails := n.PanicMod != 0 && mix(x^uint64(n.ID))%n.PanicMod == 0
	return v, fails
}

// affine is the map y -> a*y + b (mod 2^64): composition is associative and
// not commutative, so a Reduce that joins out of order gives another value.
type affine struct{ a, b uint64 }

var affineIdentity = affine{1, 0}

// then returns the map "apply f, then g".
func (f affine) then(g affine) affine { return affine{g.a * f.a, g.a*f.b + g.b} }

func affineOf(v uint64) affine { return affine{v | 1, mix(v)} }

func (f affine) value() uint64 { return mix(f.a) ^ f.b }

// sortKey is a Sort node's key for a child's value.
func sortKey(n *Node, v uint64) uint64 {
	if n.Mod != 0 {
		return v % n.Mod
	}
	return v
}
