package uts

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// published are reference trees with the sizes published in the UTS 2.1
// distribution's sample_trees.sh (spec section 4). big ones are skipped
// under -short; slow ones also under the race detector and emulation.
var published = []struct {
	name      string
	args      string
	want      Result
	big, slow bool
}{
	{"default", "", Result{1732, 1050, 6}, false, false},
	{"T1", "-t 1 -a 3 -d 10 -b 4 -r 19", Result{4130071, 3305118, 10}, false, true},
	{"T3", "-t 0 -b 2000 -q 0.124875 -m 8 -r 42", Result{4112897, 3599034, 1572}, false, true},
	{"T2", "-t 1 -a 2 -d 16 -b 6 -r 502", Result{4117769, 2342762, 81}, false, true},
	{"T4", "-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4 -r 1", Result{4132453, 3108986, 134}, false, true},
	{"T5", "-t 1 -a 0 -d 20 -b 4 -r 34", Result{4147582, 2181318, 20}, false, true},
	{"T1L", "-t 1 -a 3 -d 13 -b 4 -r 29", Result{102181082, 81746377, 13}, true, true},
	{"T3L", "-t 0 -b 2000 -q 0.200014 -m 5 -r 7", Result{111345631, 89076904, 17844}, true, true},
}

// workerCounts are the pool sizes every parallel check runs on.
var workerCounts = []int{1, 2, 4}

// withPools calls f with a pool of each size in workerCounts.
func withPools(t *testing.T, f func(t *testing.T, p *core.Pool)) {
	for _, n := range workerCounts {
		t.Run(fmt.Sprintf("p=%d", n), func(t *testing.T) {
			p := core.New(core.WithWorkers(n))
			defer p.Close()
			f(t, p)
		})
	}
}

func TestPublishedCounts(t *testing.T) {
	for _, c := range published {
		t.Run(c.name, func(t *testing.T) {
			if c.big && testing.Short() {
				t.Skip("about 100 million nodes; skipped under -short")
			}
			if c.slow && (raceEnabled || emulated) && c.name != "T1" && c.name != "T3" {
				t.Skip("4 million nodes; only T1 and T3 run under the race detector and emulation")
			}
			tree, err := Parse(c.args)
			if err != nil {
				t.Fatal(err)
			}
			if c.big {
				// One parallel search on the default pool: the size is the test.
				if got := Search(tree); got != c.want {
					t.Errorf("Search = %+v, want %+v", got, c.want)
				}
				return
			}
			if c.name != "default" && c.name != "T1" && c.name != "T3" || raceEnabled || emulated {
				// Extra trees, and T1 and T3 under the race detector and
				// emulation: one serial and one parallel search.
				if got := SearchSerial(tree); got != c.want {
					t.Errorf("SearchSerial = %+v, want %+v", got, c.want)
				}
				if got := Search(tree); got != c.want {
					t.Errorf("Search = %+v, want %+v", got, c.want)
				}
				return
			}
			if got := SearchSerial(tree); got != c.want {
				t.Errorf("SearchSerial = %+v, want %+v", got, c.want)
			}
			withPools(t, func(t *testing.T, p *core.Pool) {
				if got := Search(tree, par.WithPool(p)); got != c.want {
					t.Errorf("Search = %+v, want %+v", got, c.want)
				}
			})
		})
	}
}

func TestPresets(t *testing.T) {
	for _, c := range []struct {
		name string
		tree Tree
		args string
	}{
		{"T1", T1, "-t 1 -a 3 -d 10 -b 4 -r 19"},
		{"T1L", T1L, "-t 1 -a 3 -d 13 -b 4 -r 29"},
		{"T1XXL", T1XXL, "-t 1 -a 3 -d 15 -b 4 -r 19"},
		{"T3", T3, "-t 0 -b 2000 -q 0.124875 -m 8 -r 42"},
		{"T3L", T3L, "-t 0 -b 2000 -q 0.200014 -m 5 -r 7"},
		{"T3XXL", T3XXL, "-t 0 -b 2000 -q 0.499995 -m 2 -r 316"},
	} {
		want, err := Parse(c.args)
		if err != nil {
			t.Fatal(err)
		}
		if c.tree != want {
			t.Errorf("%s = %+v, want Parse(%q) = %+v", c.name, c.tree, c.args, want)
		}
	}
}

// smallTrees cover every tree type and shape, the cap of 100 children and
// the corners of the child-count rule, each small enough for refSearch.
var smallTrees = []string{
	// Geometric, each shape.
	"-t 1 -a 0 -d 10 -b 3 -r 7",
	"-t 1 -a 1 -d 8 -b 3 -r 0",
	"-t 1 -a 1 -d 20 -b 2 -r 0",
	"-t 1 -a 2 -d 5 -b 3 -r 239",
	"-t 1 -a 2 -d 4 -b 5 -r 0",
	"-t 1 -a 3 -d 6 -b 4 -r 19",
	// Binomial, with a non-integer root branching factor, and with m > 100.
	"-t 0 -b 200 -q 0.2 -m 4 -r 929",
	"-t 0 -b 10.5 -q 0.3 -m 3 -r 1",
	"-t 0 -b 3 -q 0.009 -m 150 -r 447",
	// Hybrid, each shape; the switch beyond the Linear end (f > 1).
	"-t 2 -a 0 -d 10 -b 4 -r 1 -q 0.234375 -m 4",
	"-t 2 -a 1 -d 10 -b 3 -q 0.2 -m 4 -r 7",
	"-t 2 -a 2 -d 6 -b 4 -q 0.2 -m 4 -r 325",
	"-t 2 -a 3 -d 6 -b 4 -q 0.2 -m 4 -f 0.5 -r 84",
	"-t 2 -a 0 -d 10 -b 4 -f 1.5 -q 0.2 -m 4 -r 1",
	// Balanced, integer and not.
	"-t 3 -b 4 -d 6",
	"-t 3 -b 2.7 -d 9",
	// The cap: a Geometric mean of 100 children.
	"-t 1 -a 3 -d 2 -b 100 -r 1",
}

// cornerTrees are tiny trees on the edges of the rule, each run for
// several seeds: Hybrid roots that flip the Binomial coin (f <= 0), a zero
// depth parameter, b0 = 0, ExpDec with d = 1 (ln 1 = 0), Cyclic with a
// short period, and b0 so large that the geometric draw leaves the int32
// range (a leaf in the reference) or is capped at 100.
var cornerTrees = []string{
	"-t 2 -f 0 -q 0.24 -m 4",
	"-t 2 -f -1 -q 0.3 -m 3",
	"-t 2 -f 0.5 -d 0 -q 0.24 -m 4",
	"-t 1 -a 0 -d 0 -b 4",
	"-t 1 -a 2 -d 0 -b 4",
	"-t 1 -b 0",
	"-t 0 -b 0",
	"-t 3 -b 0 -d 3",
	"-t 3 -b 5 -d 0",
	"-t 1 -a 1 -d 1 -b 2",
	"-t 1 -a 2 -d 2 -b 2",
	"-t 1 -a 3 -d 1 -b 1e9",
	"-t 0 -b 2147483647.5 -q 0 -m 4",
}

func TestMatchesReference(t *testing.T) {
	var trees []string
	trees = append(trees, smallTrees...)
	for _, c := range cornerTrees {
		for seed := range 6 {
			trees = append(trees, fmt.Sprintf("%s -r %d", c, seed))
		}
	}
	truncated := 0
	for _, args := range trees {
		tree, err := Parse(args)
		if err != nil {
			t.Fatal(err)
		}
		if tree.Type == Binomial && tree.B0 > 1e6 {
			// 2^31 root children: check only the root rule.
			if got := SearchSerial(Tree{Type: Binomial, B0: 3.5}); got != (Result{4, 3, 1}) {
				t.Errorf("Binomial b0=3.5 with q=0: %+v", got)
			}
			r := newRule(tree)
			root := rootState(0)
			if n := r.numChildren(&root, 0); n != 1<<31-1 {
				t.Errorf("%s: root has %d children, want 2^31-1", args, n)
			}
			continue
		}
		want, cut := refSearch(tree)
		truncated += cut
		if got := SearchSerial(tree); got != want {
			t.Errorf("SearchSerial(%s) = %+v, reference %+v", args, got, want)
		}
		for _, n := range workerCounts {
			p := core.New(core.WithWorkers(n))
			if got := Search(tree, par.WithPool(p)); got != want {
				t.Errorf("Search(%s) on %d workers = %+v, reference %+v", args, n, got, want)
			}
			p.Close()
		}
	}
	if truncated == 0 {
		t.Error("no tree reached the cap of 100 children")
	}
}

func TestNoChildrenRoot(t *testing.T) {
	for _, tree := range []Tree{{}, {Type: Balanced, B0: 7}, {Type: Geometric, Shape: Fixed, B0: 0, Depth: 5}} {
		want := Result{Nodes: 1, Leaves: 1}
		if got := SearchSerial(tree); got != want {
			t.Errorf("SearchSerial(%v) = %+v, want %+v", tree, got, want)
		}
		if got := Search(tree); got != want {
			t.Errorf("Search(%v) = %+v, want %+v", tree, got, want)
		}
	}
}

// panicValue runs f and returns the panic value, unwrapping a runtime
// wrapper that carries it in a Value field or through Unwrap.
func panicValue(f func()) (v any) {
	defer func() {
		v = recover()
		for {
			switch w := v.(type) {
			case interface{ Unwrap() error }:
				if inner := w.Unwrap(); inner != nil {
					v = inner
					continue
				}
			}
			return
		}
	}()
	f()
	return nil
}

func TestSearchPanicsOnBadTree(t *testing.T) {
	type badTree struct {
		tree Tree
		want string
	}
	cases := []badTree{
		{Tree{Type: 4}, "Tree.Type = 4"},
		{Tree{Type: -1}, "Tree.Type = -1"},
		{Tree{Shape: 9}, "Tree.Shape = 9"},
		{Tree{Depth: -3}, "Tree.Depth = -3"},
		{Tree{Q: 1.5}, "Tree.Q = 1.5"},
		{Tree{B0: -1}, "Tree.B0 = -1"},
		{Tree{M: -2}, "Tree.M = -2"},
		{Tree{Seed: -5}, "Tree.Seed = -5"},
	}
	if strconv.IntSize == 64 { // where int has 32 bits, every seed >= 0 is below 2^31
		big := int64(1) << 31
		cases = append(cases, badTree{Tree{Seed: int(big)}, "Tree.Seed = 2147483648"})
	}
	for _, c := range cases {
		for name, f := range map[string]func(){
			"SearchSerial": func() { SearchSerial(c.tree) },
			"Search":       func() { Search(c.tree) },
		} {
			v := panicValue(f)
			s, _ := v.(string)
			if err, ok := v.(error); ok {
				s = err.Error()
			}
			if !strings.HasPrefix(s, "uts: ") || !strings.Contains(s, c.want) {
				t.Errorf("%s(%+v) panicked with %v, want a uts: panic naming %q", name, c.tree, v, c.want)
			}
		}
	}
	if v := panicValue(func() { Search(Tree{Type: Geometric, Depth: 1}, nil) }); fmt.Sprint(v) != "uts: nil Option passed to uts.Search" {
		t.Errorf("Search with a nil Option panicked with %v", v)
	}
	if v := panicValue(func() { Search(Tree{Type: Geometric, Depth: 1}, par.Grain(2)) }); fmt.Sprint(v) != "uts: option par.Grain does not apply to uts.Search" {
		t.Errorf("Search with par.Grain panicked with %v", v)
	}
}

func TestSearchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	small := Tree{Type: Geometric, Shape: Fixed, B0: 4, Depth: 4, Seed: 19}
	large := Tree{Type: Geometric, Shape: Fixed, B0: 4, Depth: 7, Seed: 19}
	if s, l := SearchSerial(small).Nodes, SearchSerial(large).Nodes; l < 50*s {
		t.Fatalf("trees too alike: %d and %d nodes", s, l)
	}
	runs := 5
	if emulated {
		runs = 1 // each run of T3 takes seconds
	}
	count := func(f func()) float64 { return testing.AllocsPerRun(runs, f) }
	if a, b := count(func() { SearchSerial(small) }), count(func() { SearchSerial(large) }); b > a {
		t.Errorf("SearchSerial allocates %v times on the small tree, %v on the large one", a, b)
	}
	p := core.New(core.WithWorkers(1), core.WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer p.Close()
	// Steady state: the first searches of a pool grow what it keeps for
	// the next (frames by fork depth, job rings, on the worker and on the
	// caller's guest record), by how deep the steals of each run happen to
	// reach; AllocsPerRun's one warm-up run is not always enough for that.
	for range 3 {
		Search(large, par.WithPool(p))
	}
	a := count(func() { Search(small, par.WithPool(p)) })
	b := count(func() { Search(large, par.WithPool(p)) })
	if b > a {
		t.Errorf("Search on 1 worker allocates %v times on the small tree, %v on the large one", a, b)
	}
	t.Logf("allocs per Search: %v (small tree), %v (large tree)", a, b)
	// A deep tree: the walk's stack of open ranges (walk.go) grows to
	// T3's 1572 levels once and is kept for the next search.
	shallow := T3
	shallow.Q = 0.1
	if d, s := SearchSerial(T3).MaxDepth, SearchSerial(shallow).MaxDepth; d < 20*s {
		t.Fatalf("trees too alike: depths %d and %d", d, s)
	}
	a = count(func() { Search(shallow, par.WithPool(p)) })
	b = count(func() { Search(T3, par.WithPool(p)) })
	if b > a {
		t.Errorf("Search on 1 worker allocates %v times on a shallow Binomial tree, %v on T3", a, b)
	}
}

// TestPromotion searches with promotion at every internal node (walk.go)
// and checks the counts against the serial search: every node must be
// counted once however the open ranges are cut and forked.
func TestPromotion(t *testing.T) {
	trees := []Tree{T1, T3}
	if testing.Short() || raceEnabled {
		trees = nil
	}
	for _, args := range append(smallTrees, cornerTrees...) {
		tree, err := Parse(args)
		if err != nil {
			t.Fatal(err)
		}
		if tree.Type == Binomial && tree.B0 > 1e6 {
			continue
		}
		trees = append(trees, tree)
	}
	// Deep Binomial trees, a few thousand nodes each.
	for seed := range 20 {
		trees = append(trees, Tree{Type: Binomial, B0: 50, Q: 0.2, M: 5, Seed: seed})
	}
	// Eight workers on this machine's cores are hungry most of the time, so
	// promotion also runs as it does for real, interleaved with steals.
	p8 := core.New(core.WithWorkers(8))
	defer p8.Close()
	for _, tree := range trees {
		want := SearchSerial(tree)
		withPools(t, func(t *testing.T, p *core.Pool) {
			if got := searchOn(tree, p, true); got != want {
				t.Errorf("Search(%v) promoting everywhere = %+v, serial %+v", tree, got, want)
			}
		})
		if got := Search(tree, par.WithPool(p8)); got != want {
			t.Errorf("Search(%v) on 8 workers = %+v, serial %+v", tree, got, want)
		}
	}
}
