package uts

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	def := defaultTree
	with := func(f func(*Tree)) Tree { t := def; f(&t); return t }
	for _, c := range []struct {
		args string
		want Tree
	}{
		{"", def},
		{"   ", def},
		{"-t 1 -a 0 -d 6 -b 4 -r 0", def},
		{"-t 0", with(func(t *Tree) { t.Type = Binomial })},
		{"-t 2", with(func(t *Tree) { t.Type = Hybrid })},
		{"-t 3", with(func(t *Tree) { t.Type = Balanced })},
		{"-a 1", with(func(t *Tree) { t.Shape = ExpDec })},
		{"-a 2", with(func(t *Tree) { t.Shape = Cyclic })},
		{"-a 3", with(func(t *Tree) { t.Shape = Fixed })},
		{"-d 0", with(func(t *Tree) { t.Depth = 0 })},
		{"-b 2000", with(func(t *Tree) { t.B0 = 2000 })},
		{"-b 0", with(func(t *Tree) { t.B0 = 0 })},
		{"-b 2.5e1", with(func(t *Tree) { t.B0 = 25 })},
		{"-q 0.124875", with(func(t *Tree) { t.Q = 0.124875 })},
		{"-q 0", with(func(t *Tree) { t.Q = 0 })},
		{"-q 1", with(func(t *Tree) { t.Q = 1 })},
		{"-m 8", with(func(t *Tree) { t.M = 8 })},
		{"-r 2147483647", with(func(t *Tree) { t.Seed = 1<<31 - 1 })},
		{"-f 0.25", with(func(t *Tree) { t.ShiftDepth = 0.25 })},
		{"-f -1", with(func(t *Tree) { t.ShiftDepth = -1 })},
		{"-g 4", def},
		{"-g 0", def},
		// Later flags override earlier ones, as in the reference.
		{"-r 5 -d 3 -r 7", with(func(t *Tree) { t.Seed, t.Depth = 7, 3 })},
		{"\t-t 0\n-b 2000  -q 0.2 ", with(func(t *Tree) { t.Type, t.B0, t.Q = Binomial, 2000, 0.2 })},
		{"-t 0 -b 2000 -q 0.124875 -m 8 -r 42", T3},
		{"-t 1 -a 3 -d 13 -b 4 -r 29", T1L},
	} {
		got, err := Parse(c.args)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.args, err)
			continue
		}
		if got != c.want {
			t.Errorf("Parse(%q) = %+v, want %+v", c.args, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		args string
		want []string // each must appear in the error
	}{
		{"-z 3", []string{"unknown flag", "-z", `"3"`}},
		{"-x 1", []string{"unknown flag", "-x", `"1"`}},
		{"-h", []string{"unknown flag", "-h"}},
		{"-tt 1", []string{"-tt"}},
		{"t 1", []string{`"t"`}},
		{"-t 1 4", []string{`"4"`}},
		{"-d", []string{"-d", "missing value"}},
		{"-t 1 -q", []string{"-q", "missing value"}},
		{"-d -3", []string{"-d", `"-3"`, "out of range"}},
		{"-d 2147483648", []string{"-d", `"2147483648"`, "out of range"}},
		{"-d 99999999999999999999", []string{"-d", `"99999999999999999999"`, "out of range"}},
		{"-d 6.5", []string{"-d", `"6.5"`, "not an integer"}},
		{"-d six", []string{"-d", `"six"`}},
		{"-q 1.5", []string{"-q", `"1.5"`, "out of range"}},
		{"-q -0.1", []string{"-q", `"-0.1"`, "out of range"}},
		{"-q NaN", []string{"-q", `"NaN"`, "out of range"}},
		{"-q half", []string{"-q", `"half"`, "not a number"}},
		{"-b -1", []string{"-b", `"-1"`, "out of range"}},
		{"-b Inf", []string{"-b", `"Inf"`, "out of range"}},
		{"-b 3e9", []string{"-b", `"3e9"`, "out of range"}},
		{"-t 4", []string{"-t", `"4"`, "out of range"}},
		{"-t -1", []string{"-t", `"-1"`, "out of range"}},
		{"-a 4", []string{"-a", `"4"`, "out of range"}},
		{"-m -1", []string{"-m", `"-1"`, "out of range"}},
		{"-r -1", []string{"-r", `"-1"`, "out of range"}},
		{"-r 2147483648", []string{"-r", `"2147483648"`, "out of range"}},
		{"-f inf", []string{"-f", `"inf"`, "out of range"}},
		{"-g x", []string{"-g", `"x"`}},
		{"-t 1 -d -3 -z 1", []string{"-d", `"-3"`}}, // the first error wins
	} {
		_, err := Parse(c.args)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", c.args)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "uts: ") {
			t.Errorf("Parse(%q) error %q lacks the uts: prefix", c.args, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("Parse(%q) error %q does not mention %s", c.args, msg, w)
			}
		}
	}
}

func TestTreeStringRoundTrip(t *testing.T) {
	trees := []Tree{defaultTree, T1, T1L, T1XXL, T3, T3L, T3XXL, {},
		{Type: Hybrid, Shape: Cyclic, B0: 6.25, Depth: 16, Q: 0.1 + 0.2, M: 3, Seed: 99, ShiftDepth: 1.0 / 3}}
	for _, tree := range trees {
		s := tree.String()
		got, err := Parse(s)
		if err != nil {
			t.Errorf("Parse(%q): %v", s, err)
			continue
		}
		if got != tree {
			t.Errorf("Parse(%q) = %+v, want %+v", s, got, tree)
		}
	}
	if got, want := T1.String(), "-t 1 -a 3 -d 10 -b 4 -q 0.234375 -m 4 -r 19 -f 0.5"; got != want {
		t.Errorf("T1.String() = %q, want %q", got, want)
	}
}

func TestEnumStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Binomial.String(), "Binomial"},
		{Geometric.String(), "Geometric"},
		{Hybrid.String(), "Hybrid"},
		{Balanced.String(), "Balanced"},
		{TreeType(7).String(), "TreeType(7)"},
		{Linear.String(), "Linear"},
		{ExpDec.String(), "ExpDec"},
		{Cyclic.String(), "Cyclic"},
		{Fixed.String(), "Fixed"},
		{Shape(-1).String(), "Shape(-1)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestRuleTable(t *testing.T) {
	// The per-depth table must hold exactly what geoDenomAt computes, and
	// depths beyond it must still work (ExpDec is unbounded).
	for _, args := range []string{"-t 1 -a 1 -d 8 -b 3", "-t 1 -a 2 -d 5 -b 3", "-t 2 -a 0 -d 10 -f 0.5", "-t 1 -a 3 -d 10000"} {
		tree, _ := Parse(args)
		r := newRule(tree)
		if len(r.geoDenom) == 0 || len(r.geoDenom) > denomTableLen {
			t.Errorf("%s: table length %d", args, len(r.geoDenom))
		}
		for h := range len(r.geoDenom) + 3 {
			den := r.geoDenomAt(h)
			if h < len(r.geoDenom) && r.geoDenom[h] != den && !(den != den && r.geoDenom[h] != r.geoDenom[h]) {
				t.Errorf("%s: geoDenom[%d] = %v, geoDenomAt = %v", args, h, r.geoDenom[h], den)
			}
		}
	}
}

func TestCutsMatchLogarithm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	samples := 200000
	if testing.Short() || raceEnabled {
		samples = 20000
	}
	for _, b := range []float64{1e-3, 0.1, 0.5, 1, 2.5, 4, 6, 7, 100, 1e6, 1e9, 3e9, 1e15} {
		den := math.Log(1 - 1/(1+b))
		c := newCuts(den)
		if c == nil {
			t.Fatalf("b=%g: no table for den %v", b, den)
		}
		check := func(n uint32) {
			want := min(geoDraw(n, den), maxChildren)
			if got := c.draw(n); got != want {
				t.Fatalf("b=%g: draw(%d) = %d, logarithm gives %d", b, n, got, want)
			}
		}
		for _, edge := range append(slices.Clone(c.at), c.leafFrom, 0, 1, randEnd-1) {
			for d := -2; d <= 2; d++ {
				if n := int64(edge) + int64(d); n >= 0 && n < randEnd {
					check(uint32(n))
				}
			}
		}
		for range samples {
			check(rng.Uint32() >> 1)
		}
	}
	// Denominators of b_h = 0, infinite, negative or NaN: all leaves.
	for _, den := range []float64{math.Inf(-1), 0, math.Copysign(0, -1), math.NaN(), 0.5, math.Inf(1)} {
		c := newCuts(den)
		for _, n := range []uint32{0, 1, 12345, 1 << 30, randEnd - 1, rng.Uint32() >> 1} {
			if got, want := c.draw(n), geoDraw(n, den); got != want || got != 0 {
				t.Errorf("den %v: draw(%d) = %d, logarithm gives %d, want 0", den, n, got, want)
			}
		}
	}
}

func TestExpectedSmall(t *testing.T) {
	// Fixed Geometric: E(h) = (b^(D-h+1) - 1) / (b - 1) below depth D.
	for _, tr := range []Tree{T1, T1L, {Type: Geometric, Shape: Fixed, B0: 2, Depth: 20}} {
		r := newRule(tr)
		for h := range cutsDepths {
			size := 1.0
			if h < tr.Depth {
				size = (math.Pow(tr.B0, float64(tr.Depth-h+1)) - 1) / (tr.B0 - 1)
			}
			if got, want := r.serialLevel(h), size < serialSubtree; got != want {
				t.Errorf("%v: serialLevel(%d) = %v, expected subtree %.0f nodes", tr, h, got, size)
			}
		}
	}
	// Binomial: E = 1/(1-q*m) below the root, unbounded for q*m >= 1.
	for _, c := range []struct {
		tree  Tree
		small bool
	}{{T3, false}, {T3L, false}, {Tree{Type: Binomial, B0: 2000, Q: 0.199, M: 5}, false}, {Tree{Type: Binomial, B0: 2000, Q: 0.19, M: 5}, true}, {Tree{Type: Binomial, B0: 2000, Q: 0.1, M: 2}, true}, {Tree{Type: Binomial, B0: 2000, Q: 0, M: 5}, true}} {
		r := newRule(c.tree)
		for h := 1; h < cutsDepths; h++ {
			if got := r.serialLevel(h); got != c.small {
				t.Errorf("%v: serialLevel(%d) = %v, want %v", c.tree, h, got, c.small)
			}
		}
		if r.serialLevel(0) && c.tree.B0 >= serialSubtree {
			t.Errorf("%v: the root of %v children is small", c.tree, c.tree.B0)
		}
	}
}

// TestCyclicDeepLimit checks the Cyclic shape's end at depth 5*Depth for a
// Depth whose 5*Depth does not fit a 32-bit int.
func TestCyclicDeepLimit(t *testing.T) {
	tr := Tree{Type: Geometric, Shape: Cyclic, B0: 4, Depth: 500_000_000}
	r := newRule(tr) // sizes its tables by 5*Depth+2
	if h := math.MaxInt32; r.branching(h) == 0 {
		t.Errorf("branching(%d) = 0 below the end of the tree at depth 5*%d", h, tr.Depth)
	}
	if r := newRule(Tree{Type: Geometric, Shape: Cyclic, B0: 4, Depth: 10}); r.branching(51) != 0 || r.branching(50) == 0 {
		t.Errorf("Depth 10: branching(50) = %v, branching(51) = %v; want the tree to end below depth 50", r.branching(50), r.branching(51))
	}
}
