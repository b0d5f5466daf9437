package sortpar

import (
	"cmp"
	"fmt"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/overlap"
	"github.com/gofork/gofork/par"
)

// Merge merges a and b, both sorted in ascending order (as by slices.Sort),
// into dst, in parallel. The merge is stable: of equal elements, a's come
// first. len(dst) must be len(a)+len(b) and dst must not overlap a or b (a
// and b may overlap each other); Merge panics otherwise, before writing
// anything. If a or b is not sorted, dst receives every element of both in
// some order. It takes Sort's options.
func Merge[S ~[]E, E cmp.Ordered](dst, a, b S, opts ...par.Option) {
	c := newConfig("sortpar.Merge", opts)
	checkMerge("Merge", dst, a, b)
	mergeWith(dst, a, b, mergeOrdered[E], cmp.Compare[E], &c)
}

// MergeFunc is Merge for slices sorted by cmp (as by slices.SortFunc): of
// elements equal by cmp, a's come first. cmp must be a strict weak ordering,
// safe to call from several workers at once; if it panics, the panic reaches
// the caller and dst is partly written.
func MergeFunc[S ~[]E, E any](dst, a, b S, cmp func(x, y E) int, opts ...par.Option) {
	if cmp == nil {
		panic("sortpar: MergeFunc with a nil cmp")
	}
	c := newConfig("sortpar.MergeFunc", opts)
	checkMerge("MergeFunc", dst, a, b)
	mergeWith(dst, a, b, func(dst, a, b []E) { mergeRuns(dst, a, b, cmp) }, cmp, &c)
}

// checkMerge panics unless dst can receive the merge of a and b.
func checkMerge[E any](name string, dst, a, b []E) {
	if len(dst) != len(a)+len(b) {
		panic(fmt.Sprintf("sortpar: %s: len(dst) = %d, want len(a)+len(b) = %d+%d", name, len(dst), len(a), len(b)))
	}
	for _, in := range []struct {
		name string
		s    []E
	}{{"a", a}, {"b", b}} {
		if i, j, ok := overlap.Find(dst, in.s); ok {
			panic(fmt.Sprintf("sortpar: %s: dst[%d] is %s[%d]: dst must not overlap a or b", name, i, in.name, j))
		}
	}
}

// mergeWith merges a and b into dst with the serial kernel leaf, in
// parallel when dst is longer than the cutoff.
func mergeWith[E any](dst, a, b []E, leaf func(dst, a, b []E), cmp func(x, y E) int, c *config) {
	if len(dst) < c.cutoff || c.pool.Workers() == 1 {
		leaf(dst, a, b)
		return
	}
	mc := &mergeCtx[E]{cmp: cmp, leaf: leaf, grain: max(c.grain, 16), task: parMerge[E]}
	c.pool.Run(func(w *core.Worker) { parMerge(w, mergeJob[E]{c: mc, dst: dst, a: a, b: b}) })
}

// mergeCtx is shared, read-only, by every task of one parallel merge.
type mergeCtx[E any] struct {
	cmp   func(x, y E) int    // cuts the runs
	leaf  func(dst, a, b []E) // merges a piece serially
	grain int                 // pieces this short are merged serially (>= 16, so every cut makes progress)
	task  func(*core.Worker, mergeJob[E]) struct{}
}

// mergeJob asks for a and b to be merged into dst (len(a)+len(b)).
type mergeJob[E any] struct {
	c         *mergeCtx[E]
	dst, a, b []E
}

// parMerge runs one mergeJob: the longer run is cut at its middle element,
// the cut in the other run is found by binary search, and the two pieces
// are merged in parallel, down to pieces of at most grain elements.
func parMerge[E any](w *core.Worker, m mergeJob[E]) struct{} {
	c := m.c
	na, nb := len(m.a), len(m.b)
	if na+nb <= c.grain {
		w.Poll() // a poll point per serial merge
		c.leaf(m.dst, m.a, m.b)
		return struct{}{}
	}
	// Everything before both cuts precedes everything after them in the
	// stable merged order.
	var i, j int
	if na >= nb {
		i = na / 2
		j = lowerBound(m.b, 0, nb, m.a[i], c.cmp) // b-elements < a[i] go first
	} else {
		j = nb / 2
		i = upperBound(m.a, 0, na, m.b[j], c.cmp) // a-elements <= b[j] go first
	}
	core.Join(w,
		c.task, mergeJob[E]{c, m.dst[:i+j], m.a[:i], m.b[:j]},
		c.task, mergeJob[E]{c, m.dst[i+j:], m.a[i:], m.b[j:]})
	return struct{}{}
}

// mergeRuns merges a and b into dst (len(a)+len(b)), taking from a on ties
// (stable).
func mergeRuns[E any](dst, a, b []E, cmp func(x, y E) int) {
	// Runs already in order, or in reverse order with no ties between
	// them, are just copied: presorted inputs merge in O(n).
	if len(a) > 0 && len(b) > 0 {
		if !(cmp(b[0], a[len(a)-1]) < 0) {
			copy(dst[copy(dst, a):], b)
			return
		}
		if cmp(b[len(b)-1], a[0]) < 0 {
			copy(dst[copy(dst, b):], a)
			return
		}
	}
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// mergeOrdered is mergeRuns for ordered elements, without a branch on the
// comparison (random input mispredicts one about every other element). A
// branchless merge waits, element after element, for the load that the last
// comparison chose; so it merges from both ends at once, the smallest
// elements to the front of dst and the largest to the back, two independent
// chains, until they meet in the middle.
func mergeOrdered[E cmp.Ordered](dst, a, b []E) {
	if len(a) > 0 && len(b) > 0 {
		if !less(b[0], a[len(a)-1]) {
			copy(dst[copy(dst, a):], b)
			return
		}
		if less(b[len(b)-1], a[0]) {
			copy(dst[copy(dst, b):], a)
			return
		}
	}
	n := len(a) + len(b)
	dst = dst[:n]
	i, j, k := 0, 0, 0              // front: next of a, of b, of dst
	ie, je, ke := len(a), len(b), n // back: ends of what is left
	for k < n/2 && i < ie && j < je {
		// The front takes b's element only if it is smaller: a's first on ties.
		x, y := a[i], b[j]
		v, t := x, 0
		if less(y, x) {
			v, t = y, 1
		}
		dst[k] = v
		k++
		j += t
		i += 1 - t
		if i == ie || j == je {
			break // on sorted runs the ends cannot meet here; unsorted ones may
		}
		// The back takes a's element only if it is larger: b's last on ties.
		x, y = a[ie-1], b[je-1]
		v, t = y, 0
		if less(y, x) {
			v, t = x, 1
		}
		ke--
		dst[ke] = v
		ie -= t
		je -= 1 - t
	}
	// What is left: one run is used up, or the fronts met.
	for ; k < ke && i < ie && j < je; k++ {
		x, y := a[i], b[j]
		v, t := x, 0
		if less(y, x) {
			v, t = y, 1
		}
		dst[k] = v
		j += t
		i += 1 - t
	}
	k += copy(dst[k:ke], a[i:ie])
	copy(dst[k:ke], b[j:je])
}

// less is cmp.Less written out (NaNs before everything else), which the
// compiler specializes per element type without a dictionary lookup.
func less[E cmp.Ordered](x, y E) bool {
	return x < y || (x != x && y == y)
}
