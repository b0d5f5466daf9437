package uts

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// TreeType selects the rule that decides a node's number of children
// (the reference's -t flag; the values are the reference's numbers).
type TreeType int

const (
	// Binomial (-t 0): the root has floor(B0) children; every other node
	// has M children with probability Q, else none.
	Binomial TreeType = iota
	// Geometric (-t 1): a node's number of children is geometrically
	// distributed with a mean b_i that depends on its depth through Shape.
	Geometric
	// Hybrid (-t 2): Geometric above depth ShiftDepth*Depth, Binomial
	// (without the special root rule) from there down.
	Hybrid
	// Balanced (-t 3): every node above Depth has int(B0) children.
	Balanced
)

// Shape is the depth profile b_i of the mean branching factor of a
// Geometric (or Hybrid) tree (the reference's -a flag). The root always
// uses b_0 = B0; Depth is the reference's gen_mx.
type Shape int

const (
	// Linear (-a 0): b_i = B0 * (1 - h/Depth); the tree ends at Depth.
	Linear Shape = iota
	// ExpDec (-a 1): b_i = B0 * h^(-ln(B0)/ln(Depth)); the depth is unbounded.
	ExpDec
	// Cyclic (-a 2): b_i = B0^sin(2*pi*h/Depth) up to depth 5*Depth, then 0.
	Cyclic
	// Fixed (-a 3): b_i = B0 above Depth, 0 at Depth.
	Fixed
)

var (
	typeNames  = [...]string{"Binomial", "Geometric", "Hybrid", "Balanced"}
	shapeNames = [...]string{"Linear", "ExpDec", "Cyclic", "Fixed"}
)

// String returns the type's name, such as "Geometric".
func (t TreeType) String() string {
	if t >= 0 && int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "TreeType(" + strconv.Itoa(int(t)) + ")"
}

// String returns the shape's name, such as "Fixed".
func (s Shape) String() string {
	if s >= 0 && int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return "Shape(" + strconv.Itoa(int(s)) + ")"
}

// Tree is the complete description of one UTS tree: the tree is a pure
// function of these fields, so every search of it, serial or parallel, on
// any number of workers, finds the same Result. The fields are the
// reference program's parameters; Parse reads its command-line syntax.
//
// The zero Tree is a Binomial tree with B0 = 0: a lone root.
type Tree struct {
	Type       TreeType // -t: the child-count rule.
	Shape      Shape    // -a: the Geometric depth profile.
	B0         float64  // -b: the root's branching factor (and the Geometric base), in [0, 2^31).
	Depth      int      // -d: gen_mx, the Geometric and Balanced depth parameter, >= 0.
	Q          float64  // -q: Binomial probability that a node has children, in [0, 1].
	M          int      // -m: Binomial number of children of an internal node, >= 0.
	Seed       int      // -r: the root's seed, in [0, 2^31).
	ShiftDepth float64  // -f: Hybrid switches to Binomial at depth ShiftDepth*Depth.
}

// The libfork benchmark trees (its bench/source/uts/config.hpp), from the
// UTS 2.1 distribution's sample_trees.sh. Their published counts are in the
// doc of each; the tests check the small ones exactly.
var (
	// T1 is "-t 1 -a 3 -d 10 -b 4 -r 19": Geometric, fixed shape;
	// 4,130,071 nodes, depth 10, 3,305,118 leaves.
	T1 = geoFixed(10, 19)
	// T1L is "-t 1 -a 3 -d 13 -b 4 -r 29": Geometric, fixed shape;
	// 102,181,082 nodes, depth 13, 81,746,377 leaves.
	T1L = geoFixed(13, 29)
	// T1XXL is "-t 1 -a 3 -d 15 -b 4 -r 19": Geometric, fixed shape;
	// 4,230,646,601 nodes, depth 15.
	T1XXL = geoFixed(15, 19)
	// T3 is "-t 0 -b 2000 -q 0.124875 -m 8 -r 42": Binomial;
	// 4,112,897 nodes, depth 1572, 3,599,034 leaves.
	T3 = binomial(0.124875, 8, 42)
	// T3L is "-t 0 -b 2000 -q 0.200014 -m 5 -r 7": Binomial;
	// 111,345,631 nodes, depth 17844, 89,076,904 leaves.
	T3L = binomial(0.200014, 5, 7)
	// T3XXL is "-t 0 -b 2000 -q 0.499995 -m 2 -r 316": Binomial;
	// 2,793,220,501 nodes, depth 99049, 1,396,611,250 leaves.
	T3XXL = binomial(0.499995, 2, 316)
)

// defaultTree is the reference's tree when no flag is given: Geometric,
// linear shape, b=4, d=6, r=0 (1,732 nodes, depth 6, 1,050 leaves).
var defaultTree = Tree{
	Type: Geometric, Shape: Linear, B0: 4, Depth: 6,
	Q: 15.0 / 64.0, M: 4, Seed: 0, ShiftDepth: 0.5,
}

func geoFixed(depth, seed int) Tree {
	t := defaultTree
	t.Shape, t.Depth, t.Seed = Fixed, depth, seed
	return t
}

func binomial(q float64, m, seed int) Tree {
	t := defaultTree
	t.Type, t.B0, t.Q, t.M, t.Seed = Binomial, 2000, q, m, seed
	return t
}

// String returns the tree in the reference's command-line syntax with
// every flag given, so that Parse(t.String()) == t.
func (t Tree) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf("-t %d -a %d -d %d -b %s -q %s -m %d -r %d -f %s",
		int(t.Type), int(t.Shape), t.Depth, f(t.B0), f(t.Q), t.M, t.Seed, f(t.ShiftDepth))
}

// Range limits shared by Parse and Tree validation.
const (
	maxInt32 = math.MaxInt32
	maxB0    = 1 << 31 // B0 must be below this: floor(B0) children must fit an int32.
)

// flagSpec is one reference flag: how to check its value and where to put it.
type flagSpec struct {
	isFloat bool
	// check returns "" if the value is in range, else what the range is.
	checkInt   func(v int) string
	checkFloat func(v float64) string
	setInt     func(t *Tree, v int)
	setFloat   func(t *Tree, v float64)
}

func rangeInt(lo, hi int, what string) func(int) string {
	return func(v int) string {
		if v < lo || v > hi {
			return fmt.Sprintf("%s must be in [%d, %d]", what, lo, hi)
		}
		return ""
	}
}

var flags = map[byte]flagSpec{
	't': {checkInt: rangeInt(0, 3, "tree type"), setInt: func(t *Tree, v int) { t.Type = TreeType(v) }},
	'a': {checkInt: rangeInt(0, 3, "shape"), setInt: func(t *Tree, v int) { t.Shape = Shape(v) }},
	'd': {checkInt: rangeInt(0, maxInt32, "depth"), setInt: func(t *Tree, v int) { t.Depth = v }},
	'm': {checkInt: rangeInt(0, maxInt32, "non-leaf branching factor m"), setInt: func(t *Tree, v int) { t.M = v }},
	'r': {checkInt: rangeInt(0, maxInt32, "root seed"), setInt: func(t *Tree, v int) { t.Seed = v }},
	// -g repeats each spawn in the reference, changing the work but never
	// the tree, so it is checked and otherwise ignored.
	'g': {checkInt: func(int) string { return "" }, setInt: func(*Tree, int) {}},
	'b': {isFloat: true, checkFloat: checkB0, setFloat: func(t *Tree, v float64) { t.B0 = v }},
	'q': {isFloat: true, checkFloat: checkQ, setFloat: func(t *Tree, v float64) { t.Q = v }},
	'f': {isFloat: true, checkFloat: checkFinite("shift depth"), setFloat: func(t *Tree, v float64) { t.ShiftDepth = v }},
}

func checkB0(v float64) string {
	if !(v >= 0 && v < maxB0) {
		return "root branching factor b0 must be in [0, 2^31)"
	}
	return ""
}

func checkQ(v float64) string {
	if !(v >= 0 && v <= 1) {
		return "probability q must be in [0, 1]"
	}
	return ""
}

func checkFinite(what string) func(float64) string {
	return func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return what + " must be finite"
		}
		return ""
	}
}

// Parse reads a tree in the reference program's command-line syntax, for
// example "-t 1 -a 3 -d 10 -b 4 -r 19". Flags start from the reference's
// defaults (the tree "-t 1 -a 0 -d 6 -b 4 -r 0 -q 0.234375 -m 4 -f 0.5")
// and a later flag overrides an earlier one. The flags are
//
//	-t int    tree type: 0 Binomial, 1 Geometric, 2 Hybrid, 3 Balanced
//	-b float  root branching factor, in [0, 2^31)
//	-r int    root seed, in [0, 2^31)
//	-a int    Geometric shape: 0 Linear, 1 ExpDec, 2 Cyclic, 3 Fixed
//	-d int    Geometric and Balanced depth, >= 0
//	-q float  Binomial probability of a non-leaf node, in [0, 1]
//	-m int    Binomial number of children of a non-leaf node, >= 0
//	-f float  Hybrid: fraction of the depth where Geometric turns Binomial
//	-g int    compute granularity; it does not change the tree and is ignored
//
// An unknown flag, a flag without a value, a value that does not parse and
// a value out of range are errors that name the flag and the value.
func Parse(args string) (Tree, error) {
	t := defaultTree
	tok := strings.Fields(args)
	for i := 0; i < len(tok); i += 2 {
		name := tok[i]
		if len(name) != 2 || name[0] != '-' {
			return Tree{}, fmt.Errorf("uts: unexpected argument %q: want a flag such as -t, then its value", name)
		}
		spec, ok := flags[name[1]]
		if !ok {
			val := "none"
			if i+1 < len(tok) {
				val = strconv.Quote(tok[i+1])
			}
			return Tree{}, fmt.Errorf("uts: unknown flag %s (value %s): the flags are -t -a -d -b -r -q -m -f -g", name, val)
		}
		if i+1 >= len(tok) {
			return Tree{}, fmt.Errorf("uts: flag %s: missing value", name)
		}
		val := tok[i+1]
		if spec.isFloat {
			v, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return Tree{}, fmt.Errorf("uts: flag %s: invalid value %q: not a number", name, val)
			}
			if why := spec.checkFloat(v); why != "" {
				return Tree{}, fmt.Errorf("uts: flag %s: value %q out of range: %s", name, val, why)
			}
			spec.setFloat(&t, v)
			continue
		}
		v, err := strconv.Atoi(val)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return Tree{}, fmt.Errorf("uts: flag %s: value %q out of range", name, val)
			}
			return Tree{}, fmt.Errorf("uts: flag %s: invalid value %q: not an integer", name, val)
		}
		if why := spec.checkInt(v); why != "" {
			return Tree{}, fmt.Errorf("uts: flag %s: value %q out of range: %s", name, val, why)
		}
		spec.setInt(&t, v)
	}
	return t, nil
}

// validate returns an error naming the first field of t that is out of
// range, in the same ranges as Parse.
func (t Tree) validate() error {
	bad := func(field string, v any, why string) error {
		return fmt.Errorf("uts: Tree.%s = %v out of range: %s", field, v, why)
	}
	switch {
	case flags['t'].checkInt(int(t.Type)) != "":
		return bad("Type", int(t.Type), flags['t'].checkInt(int(t.Type)))
	case flags['a'].checkInt(int(t.Shape)) != "":
		return bad("Shape", int(t.Shape), flags['a'].checkInt(int(t.Shape)))
	case flags['d'].checkInt(t.Depth) != "":
		return bad("Depth", t.Depth, flags['d'].checkInt(t.Depth))
	case flags['m'].checkInt(t.M) != "":
		return bad("M", t.M, flags['m'].checkInt(t.M))
	case flags['r'].checkInt(t.Seed) != "":
		return bad("Seed", t.Seed, flags['r'].checkInt(t.Seed))
	case checkB0(t.B0) != "":
		return bad("B0", t.B0, checkB0(t.B0))
	case checkQ(t.Q) != "":
		return bad("Q", t.Q, checkQ(t.Q))
	case flags['f'].checkFloat(t.ShiftDepth) != "":
		return bad("ShiftDepth", t.ShiftDepth, flags['f'].checkFloat(t.ShiftDepth))
	}
	return nil
}
