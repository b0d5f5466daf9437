package gofork_test

import (
	"context"
	"fmt"
	"iter"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/graph"
	"github.com/gofork/gofork/linalg"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
	"github.com/gofork/gofork/uts"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// The one-error-per-mistake rule (CONTRIBUTING): a bad argument panics on
// the caller's goroutine before any work starts, with one value at every
// input size and every pool size, and the message names the function. The
// table below goes through the exported functions of the library packages
// and each bad argument they can get.

// usageSizes are the input sizes a sized row runs at: empty, one element,
// below every serial cutoff, and above them all.
var usageSizes = []int{0, 1, 100, 1 << 16}

// usageWorkers are the pool sizes every row runs on.
var usageWorkers = []int{1, 2, 4}

// misuse is one bad call.
type misuse struct {
	fn  string // the function, as a user writes it ("par.For", "par.Group.Go")
	bad string // what is wrong with the call
	// minSize is the smallest size the row makes sense at (a bad key needs
	// one element); -1 marks a row with no size, run once per pool.
	minSize int
	// sameKind relaxes "the same value" to "the same type": the message
	// names values that depend on how the input was cut (IndexBlocks'
	// block bounds).
	sameKind bool
	// unnamed marks a value fixed by a contract that is not ours (gonum's
	// mat.ErrShape and BLAS messages): it must be the same everywhere, but
	// cannot name the function.
	unnamed bool
	// closedPool runs the row on closed pools.
	closedPool bool
	// call makes the bad call with input size n on pool p (a closed one
	// for the closed-pool rows).
	call func(p *core.Pool, n int)
}

// usageInputs are the inputs of one size, made once.
type usageInputs struct {
	ints   []int
	floats []float64
	keys   []int // all in [0, 3) but keys[0] = 7 and keys[n-1] = 9
	g      *graph.Graph
	m      *mat.Dense
}

var usageInputCache = map[int]*usageInputs{}

func inputs(n int) *usageInputs {
	if in, ok := usageInputCache[n]; ok {
		return in
	}
	in := &usageInputs{ints: make([]int, n), floats: make([]float64, n), keys: make([]int, n)}
	for i := range in.ints {
		in.ints[i] = i
		in.floats[i] = float64(n - i)
		in.keys[i] = i % 3
	}
	if n > 0 {
		in.keys[n-1] = 9
		in.keys[0] = 7
	}
	edges := make([][2]int32, 0, n)
	for v := 1; v < n; v++ {
		edges = append(edges, [2]int32{int32(v - 1), int32(v)})
	}
	g, err := graph.FromEdges(n, edges, true)
	if err != nil {
		panic(err)
	}
	in.g = g
	d := max(1, min(n, 200)) // matrices: a dimension, capped to keep the table fast
	in.m = mat.NewDense(d, d, nil)
	usageInputCache[n] = in
	return in
}

// seqOf returns an iter.Seq over s.
func seqOf(s []int) iter.Seq[int] { return slices.Values(s) }

// withOpts lists, for every exported function that takes options, a call
// with good arguments of size n and the given options: the closed-pool rows
// come from it.
var withOpts = []struct {
	fn   string
	call func(n int, o par.Option)
}{
	{"par.For", func(n int, o par.Option) { par.For(0, n, func(int) {}, o) }},
	{"par.ForRange", func(n int, o par.Option) { par.ForRange(0, n, func(int, int) {}, o) }},
	{"par.ForCtx", func(n int, o par.Option) { _ = par.ForCtx(context.Background(), 0, n, func(int) {}, o) }},
	{"par.ForRangeCtx", func(n int, o par.Option) {
		_ = par.ForRangeCtx(context.Background(), 0, n, func(int, int) {}, o)
	}},
	{"par.ForEach", func(n int, o par.Option) { par.ForEach(inputs(n).ints, func(int, *int) {}, o) }},
	{"par.Map", func(n int, o par.Option) { par.Map(inputs(n).ints, func(int) int { return 0 }, o) }},
	{"par.ForEachSeq", func(n int, o par.Option) { par.ForEachSeq(seqOf(inputs(n).ints), func(int) {}, o) }},
	{"par.MapSeq", func(n int, o par.Option) {
		for range par.MapSeq(seqOf(inputs(n).ints), func(int) int { return 0 }, o) {
		}
	}},
	{"par.Contains", func(n int, o par.Option) { par.Contains(inputs(n).ints, -1, o) }},
	{"par.ContainsFunc", func(n int, o par.Option) { par.ContainsFunc(inputs(n).ints, func(int) bool { return false }, o) }},
	{"par.Index", func(n int, o par.Option) { par.Index(inputs(n).ints, -1, o) }},
	{"par.IndexFunc", func(n int, o par.Option) { par.IndexFunc(inputs(n).ints, func(int) bool { return false }, o) }},
	{"par.IndexBlocks", func(n int, o par.Option) { par.IndexBlocks(n, func(int, int) int { return -1 }, o) }},
	{"par.Filter", func(n int, o par.Option) { par.Filter(inputs(n).ints, func(int) bool { return true }, o) }},
	{"par.DeleteFunc", func(n int, o par.Option) {
		par.DeleteFunc(slices.Clone(inputs(n).ints), func(int) bool { return false }, o)
	}},
	{"par.FilterBlocks", func(n int, o par.Option) {
		par.FilterBlocks(n, func(lo, hi int, dst []int) []int { return dst }, o)
	}},
	{"par.Shuffle", func(n int, o par.Option) { par.Shuffle(slices.Clone(inputs(n).ints), 1, o) }},
	{"par.NewGroup", func(n int, o par.Option) { par.NewGroup(o) }},
	{"par.WithContext", func(n int, o par.Option) { par.WithContext(context.Background(), o) }},

	{"reduce.Reduce", func(n int, o par.Option) { reduce.Reduce(0, n, 0, addRange, add, o) }},
	{"reduce.Deterministic", func(n int, o par.Option) { reduce.Deterministic(0, n, 0, addRange, add, o) }},
	{"reduce.ReduceBody", func(n int, o par.Option) { reduce.ReduceBody(0, n, &sumBody{}, o) }},
	{"reduce.MapReduce", func(n int, o par.Option) {
		reduce.MapReduce(inputs(n).ints, 0, func(e int) int { return e }, add, o)
	}},
	{"reduce.Sum", func(n int, o par.Option) { reduce.Sum(inputs(n).ints, o) }},
	{"reduce.CountFunc", func(n int, o par.Option) { reduce.CountFunc(inputs(n).ints, func(int) bool { return true }, o) }},
	{"reduce.Counts", func(n int, o par.Option) { reduce.Counts(make([]int, n), 3, o) }},
	{"reduce.Histogram", func(n int, o par.Option) { reduce.Histogram(inputs(n).ints, 1, func(int) int { return 0 }, o) }},
	{"reduce.HistogramBlocks", func(n int, o par.Option) {
		reduce.HistogramBlocks(n, 1, func(lo, hi int, c []int) { c[0] += hi - lo }, o)
	}},
	{"reduce.Min", func(n int, o par.Option) { reduce.Min(inputs(max(n, 1)).ints, o) }},
	{"reduce.Max", func(n int, o par.Option) { reduce.Max(inputs(max(n, 1)).ints, o) }},
	{"reduce.MinFunc", func(n int, o par.Option) { reduce.MinFunc(inputs(max(n, 1)).ints, cmpInt, o) }},
	{"reduce.MaxFunc", func(n int, o par.Option) { reduce.MaxFunc(inputs(max(n, 1)).ints, cmpInt, o) }},
	{"reduce.PrefixSum", func(n int, o par.Option) { reduce.PrefixSum(make([]int, n), inputs(n).ints, o) }},
	{"reduce.PrefixSumInclusive", func(n int, o par.Option) {
		reduce.PrefixSumInclusive(make([]int, n), inputs(n).ints, o)
	}},
	{"reduce.Scan", func(n int, o par.Option) { reduce.Scan(make([]int, n), inputs(n).ints, 0, add, o) }},
	{"reduce.ScanInclusive", func(n int, o par.Option) { reduce.ScanInclusive(make([]int, n), inputs(n).ints, add, o) }},
	{"reduce.ScanBlocks", func(n int, o par.Option) { scanBlocks(n, add, o) }},

	{"sortpar.Sort", func(n int, o par.Option) { sortpar.Sort(slices.Clone(inputs(n).ints), o) }},
	{"sortpar.SortFunc", func(n int, o par.Option) { sortpar.SortFunc(slices.Clone(inputs(n).ints), cmpInt, o) }},
	{"sortpar.SortStable", func(n int, o par.Option) { sortpar.SortStable(slices.Clone(inputs(n).ints), o) }},
	{"sortpar.SortStableFunc", func(n int, o par.Option) {
		sortpar.SortStableFunc(slices.Clone(inputs(n).ints), cmpInt, o)
	}},
	{"sortpar.SortByKey", func(n int, o par.Option) { sortpar.SortByKey(slices.Clone(inputs(n).ints), ident, o) }},
	{"sortpar.SortStableByKey", func(n int, o par.Option) {
		sortpar.SortStableByKey(slices.Clone(inputs(n).ints), ident, o)
	}},
	{"sortpar.IsSorted", func(n int, o par.Option) { sortpar.IsSorted(inputs(n).ints, o) }},
	{"sortpar.IsSortedFunc", func(n int, o par.Option) { sortpar.IsSortedFunc(inputs(n).ints, cmpInt, o) }},
	{"sortpar.Merge", func(n int, o par.Option) { sortpar.Merge(make([]int, 2*n), inputs(n).ints, inputs(n).ints, o) }},
	{"sortpar.MergeFunc", func(n int, o par.Option) {
		sortpar.MergeFunc(make([]int, 2*n), inputs(n).ints, inputs(n).ints, cmpInt, o)
	}},
	{"sortpar.Compact", func(n int, o par.Option) { sortpar.Compact(slices.Clone(inputs(n).ints), o) }},
	{"sortpar.CompactFunc", func(n int, o par.Option) {
		sortpar.CompactFunc(slices.Clone(inputs(n).ints), func(a, b int) bool { return a == b }, o)
	}},

	{"linalg.Mul", func(n int, o par.Option) { linalg.Mul(&mat.Dense{}, inputs(n).m, inputs(n).m, o) }},
	{"linalg.MulAdd", func(n int, o par.Option) { linalg.MulAdd(&mat.Dense{}, 1, inputs(n).m, inputs(n).m, 0, o) }},
	{"linalg.Gemm", func(n int, o par.Option) {
		m := inputs(n).m.RawMatrix()
		c := mat.NewDense(m.Rows, m.Cols, nil).RawMatrix()
		linalg.Gemm(blas.NoTrans, blas.NoTrans, 1, m, m, 0, c, o)
	}},

	{"uts.Search", func(n int, o par.Option) { uts.Search(utsTree(n), o) }},

	{"graph.BFS", func(n int, o par.Option) { graph.BFS(inputs(max(n, 1)).g, 0, o) }},
	{"graph.ConnectedComponents", func(n int, o par.Option) { graph.ConnectedComponents(inputs(n).g, o) }},
	{"graph.PageRank", func(n int, o par.Option) { graph.PageRank(inputs(n).g, 0.85, 1e-6, 5, o) }},
	{"graph.Triangles", func(n int, o par.Option) { graph.Triangles(inputs(n).g, o) }},
}

// utsTree returns a tree that grows with n: a lone root at 0.
func utsTree(n int) uts.Tree {
	if n == 0 {
		return uts.Tree{}
	}
	t := uts.T1
	t.Depth = min(n, 4)
	return t
}

func add(x, y int) int             { return x + y }
func cmpInt(a, b int) int          { return a - b }
func ident(e int) int              { return e }
func addRange(lo, hi, acc int) int { return acc + hi - lo }
func scanBlocks(n int, op func(x, y int) int, o ...par.Option) int {
	return reduce.ScanBlocks(n, 0, op, func(lo, hi int) int { return hi - lo }, func(lo, hi, acc int) int { return acc + hi - lo }, o...)
}

// sumBody is a reduce.Body that counts its range.
type sumBody struct{ n int }

func (b *sumBody) Accumulate(lo, hi int) { b.n += hi - lo }
func (b *sumBody) Split() *sumBody       { return &sumBody{} }
func (b *sumBody) Join(r *sumBody)       { b.n += r.n }

// misuses is the table: the bad calls on a live pool (closed-pool rows are
// added from withOpts).
func misuses() []misuse {
	sized := func(fn, bad string, call func(p *core.Pool, n int)) misuse {
		return misuse{fn: fn, bad: bad, call: call}
	}
	// varies is sized for a mistake whose message quotes arguments that
	// grow with n (lengths, a vertex): the same type everywhere.
	varies := func(fn, bad string, call func(p *core.Pool, n int)) misuse {
		return misuse{fn: fn, bad: bad, sameKind: true, call: call}
	}
	once := func(fn, bad string, call func(p *core.Pool)) misuse {
		return misuse{fn: fn, bad: bad, minSize: -1, call: func(p *core.Pool, _ int) { call(p) }}
	}
	w := par.WithPool
	in := inputs
	var nilCtx context.Context
	rows := []misuse{
		// par
		sized("par.For", "nil body", func(p *core.Pool, n int) { par.For(0, n, nil, w(p)) }),
		sized("par.ForRange", "nil body", func(p *core.Pool, n int) { par.ForRange(0, n, nil, w(p)) }),
		sized("par.ForCtx", "nil body", func(p *core.Pool, n int) { _ = par.ForCtx(context.Background(), 0, n, nil, w(p)) }),
		sized("par.ForCtx", "nil ctx", func(p *core.Pool, n int) { _ = par.ForCtx(nilCtx, 0, n, func(int) {}, w(p)) }),
		sized("par.ForRangeCtx", "nil body", func(p *core.Pool, n int) {
			_ = par.ForRangeCtx(context.Background(), 0, n, nil, w(p))
		}),
		sized("par.ForRangeCtx", "nil ctx", func(p *core.Pool, n int) {
			_ = par.ForRangeCtx(nilCtx, 0, n, func(int, int) {}, w(p))
		}),
		sized("par.ForEach", "nil body", func(p *core.Pool, n int) { par.ForEach(in(n).ints, nil, w(p)) }),
		sized("par.Map", "nil fn", func(p *core.Pool, n int) { par.Map[[]int, int, int](in(n).ints, nil, w(p)) }),
		sized("par.ForEachSeq", "nil fn", func(p *core.Pool, n int) { par.ForEachSeq(seqOf(in(n).ints), nil, w(p)) }),
		once("par.ForEachSeq", "nil seq", func(p *core.Pool) { par.ForEachSeq(nil, func(int) {}, w(p)) }),
		sized("par.MapSeq", "nil fn", func(p *core.Pool, n int) {
			for range par.MapSeq[int, int](seqOf(in(n).ints), nil, w(p)) {
			}
		}),
		once("par.MapSeq", "nil seq", func(p *core.Pool) {
			for range par.MapSeq(nil, ident, w(p)) {
			}
		}),
		sized("par.ContainsFunc", "nil f", func(p *core.Pool, n int) { par.ContainsFunc(in(n).ints, nil, w(p)) }),
		sized("par.IndexFunc", "nil f", func(p *core.Pool, n int) { par.IndexFunc(in(n).ints, nil, w(p)) }),
		sized("par.IndexBlocks", "nil find", func(p *core.Pool, n int) { par.IndexBlocks(n, nil, w(p)) }),
		once("par.IndexBlocks", "negative n", func(p *core.Pool) {
			par.IndexBlocks(-1, func(int, int) int { return -1 }, w(p))
		}),
		{fn: "par.IndexBlocks", bad: "find returns an index outside its block", minSize: 1, sameKind: true,
			call: func(p *core.Pool, n int) { par.IndexBlocks(n, func(lo, hi int) int { return hi }, w(p)) }},
		sized("par.Filter", "nil keep", func(p *core.Pool, n int) { par.Filter(in(n).ints, nil, w(p)) }),
		sized("par.DeleteFunc", "nil del", func(p *core.Pool, n int) { par.DeleteFunc(slices.Clone(in(n).ints), nil, w(p)) }),
		sized("par.FilterBlocks", "nil filter", func(p *core.Pool, n int) { par.FilterBlocks[int](n, nil, w(p)) }),
		once("par.FilterBlocks", "negative n", func(p *core.Pool) {
			par.FilterBlocks(-1, func(lo, hi int, dst []int) []int { return dst }, w(p))
		}),
		once("par.Invoke", "nil function", func(p *core.Pool) { par.Invoke(func() {}, nil) }),
		once("par.Group.Go", "nil function", func(p *core.Pool) { par.NewGroup(w(p)).Go(nil) }),
		once("par.Group.TryGo", "nil function", func(p *core.Pool) { par.NewGroup(w(p)).TryGo(nil) }),
		once("par.WithContext", "nil ctx", func(p *core.Pool) { par.WithContext(nilCtx, w(p)) }),
		once("par.Grain", "grain 0", func(p *core.Pool) { par.Grain(0) }),
		once("par.Simple", "grain 0", func(p *core.Pool) { par.Simple(0) }),
		once("par.InFlight", "0 in flight", func(p *core.Pool) { par.InFlight(0) }),
		once("par.WithPool", "nil pool", func(p *core.Pool) { par.WithPool(nil) }),
		once("par.Affinity", "nil state", func(p *core.Pool) { par.Affinity(nil) }),
		sized("par.For", "nil option", func(p *core.Pool, n int) { par.For(0, n, func(int) {}, nil) }),

		// reduce
		sized("reduce.Reduce", "nil body", func(p *core.Pool, n int) { reduce.Reduce(0, n, 0, nil, add, w(p)) }),
		sized("reduce.Reduce", "nil join", func(p *core.Pool, n int) { reduce.Reduce(0, n, 0, addRange, nil, w(p)) }),
		sized("reduce.Deterministic", "nil body", func(p *core.Pool, n int) { reduce.Deterministic(0, n, 0, nil, add, w(p)) }),
		sized("reduce.Deterministic", "nil join", func(p *core.Pool, n int) {
			reduce.Deterministic(0, n, 0, addRange, nil, w(p))
		}),
		sized("reduce.MapReduce", "nil mapf", func(p *core.Pool, n int) { reduce.MapReduce[[]int, int, int](in(n).ints, 0, nil, add, w(p)) }),
		sized("reduce.MapReduce", "nil join", func(p *core.Pool, n int) { reduce.MapReduce(in(n).ints, 0, ident, nil, w(p)) }),
		sized("reduce.CountFunc", "nil pred", func(p *core.Pool, n int) { reduce.CountFunc(in(n).ints, nil, w(p)) }),
		sized("reduce.Counts", "negative buckets", func(p *core.Pool, n int) { reduce.Counts(make([]int, n), -1, w(p)) }),
		{fn: "reduce.Counts", bad: "key out of range", minSize: 1, call: func(p *core.Pool, n int) {
			reduce.Counts(in(n).keys, 3, w(p))
		}},
		sized("reduce.Histogram", "negative buckets", func(p *core.Pool, n int) { reduce.Histogram(in(n).ints, -1, ident, w(p)) }),
		sized("reduce.Histogram", "nil bucket", func(p *core.Pool, n int) { reduce.Histogram(in(n).ints, 3, nil, w(p)) }),
		{fn: "reduce.Histogram", bad: "bucket out of range", minSize: 1, call: func(p *core.Pool, n int) {
			reduce.Histogram(in(n).keys, 3, ident, w(p))
		}},
		sized("reduce.HistogramBlocks", "nil count", func(p *core.Pool, n int) { reduce.HistogramBlocks(n, 3, nil, w(p)) }),
		sized("reduce.HistogramBlocks", "negative buckets", func(p *core.Pool, n int) {
			reduce.HistogramBlocks(n, -1, func(int, int, []int) {}, w(p))
		}),
		once("reduce.HistogramBlocks", "negative n", func(p *core.Pool) {
			reduce.HistogramBlocks(-1, 3, func(int, int, []int) {}, w(p))
		}),
		once("reduce.Min", "empty slice", func(p *core.Pool) { reduce.Min([]int{}, w(p)) }),
		once("reduce.Max", "empty slice", func(p *core.Pool) { reduce.Max([]int{}, w(p)) }),
		once("reduce.MinFunc", "empty slice", func(p *core.Pool) { reduce.MinFunc([]int{}, cmpInt, w(p)) }),
		once("reduce.MaxFunc", "empty slice", func(p *core.Pool) { reduce.MaxFunc([]int{}, cmpInt, w(p)) }),
		sized("reduce.MinFunc", "nil cmp", func(p *core.Pool, n int) { reduce.MinFunc(in(max(n, 1)).ints, nil, w(p)) }),
		sized("reduce.MaxFunc", "nil cmp", func(p *core.Pool, n int) { reduce.MaxFunc(in(max(n, 1)).ints, nil, w(p)) }),
		varies("reduce.PrefixSum", "short dst", func(p *core.Pool, n int) { reduce.PrefixSum(make([]int, n+1), in(n).ints, w(p)) }),
		varies("reduce.PrefixSumInclusive", "short dst", func(p *core.Pool, n int) {
			reduce.PrefixSumInclusive(make([]int, n+1), in(n).ints, w(p))
		}),
		sized("reduce.Scan", "nil op", func(p *core.Pool, n int) { reduce.Scan(make([]int, n), in(n).ints, 0, nil, w(p)) }),
		varies("reduce.Scan", "short dst", func(p *core.Pool, n int) { reduce.Scan(make([]int, n+1), in(n).ints, 0, add, w(p)) }),
		sized("reduce.ScanInclusive", "nil op", func(p *core.Pool, n int) { reduce.ScanInclusive(make([]int, n), in(n).ints, nil, w(p)) }),
		sized("reduce.ScanBlocks", "nil op", func(p *core.Pool, n int) { scanBlocks(n, nil, w(p)) }),
		sized("reduce.ScanBlocks", "nil fold", func(p *core.Pool, n int) {
			reduce.ScanBlocks(n, 0, add, nil, func(lo, hi, acc int) int { return acc + hi - lo }, w(p))
		}),
		sized("reduce.ScanBlocks", "nil scan", func(p *core.Pool, n int) {
			reduce.ScanBlocks(n, 0, add, func(lo, hi int) int { return 0 }, nil, w(p))
		}),
		once("reduce.ScanBlocks", "negative n", func(p *core.Pool) { scanBlocks(-1, add, w(p)) }),

		// sortpar
		sized("sortpar.SortFunc", "nil cmp", func(p *core.Pool, n int) { sortpar.SortFunc(slices.Clone(in(n).ints), nil, w(p)) }),
		sized("sortpar.SortStableFunc", "nil cmp", func(p *core.Pool, n int) {
			sortpar.SortStableFunc(slices.Clone(in(n).ints), nil, w(p))
		}),
		sized("sortpar.SortByKey", "nil key", func(p *core.Pool, n int) {
			sortpar.SortByKey[[]int, int, int](slices.Clone(in(n).ints), nil, w(p))
		}),
		sized("sortpar.SortStableByKey", "nil key", func(p *core.Pool, n int) {
			sortpar.SortStableByKey[[]int, int, int](slices.Clone(in(n).ints), nil, w(p))
		}),
		sized("sortpar.IsSortedFunc", "nil cmp", func(p *core.Pool, n int) { sortpar.IsSortedFunc(in(n).ints, nil, w(p)) }),
		sized("sortpar.MergeFunc", "nil cmp", func(p *core.Pool, n int) {
			sortpar.MergeFunc(make([]int, 2*n), in(n).ints, in(n).ints, nil, w(p))
		}),
		varies("sortpar.Merge", "short dst", func(p *core.Pool, n int) {
			sortpar.Merge(make([]int, 2*n+1), in(n).ints, in(n).ints, w(p))
		}),
		sized("sortpar.CompactFunc", "nil eq", func(p *core.Pool, n int) { sortpar.CompactFunc(slices.Clone(in(n).ints), nil, w(p)) }),

		// linalg: sizes are matrix dimensions (capped at 200).
		sized("linalg.Mul", "nil dst", func(p *core.Pool, n int) { linalg.Mul(nil, in(n).m, in(n).m, w(p)) }),
		sized("linalg.Mul", "nil a", func(p *core.Pool, n int) { linalg.Mul(&mat.Dense{}, nil, in(n).m, w(p)) }),
		sized("linalg.MulAdd", "nil b", func(p *core.Pool, n int) { linalg.MulAdd(&mat.Dense{}, 1, in(n).m, nil, 0, w(p)) }),
		{fn: "linalg.Mul", bad: "shape mismatch", unnamed: true, call: func(p *core.Pool, n int) {
			linalg.Mul(&mat.Dense{}, in(n).m, mat.NewDense(1+in(n).m.RawMatrix().Rows, 1, nil), w(p))
		}},
		varies("linalg.Gemm", "shape mismatch", func(p *core.Pool, n int) {
			m := in(n).m.RawMatrix()
			c := blas64.General{Rows: m.Rows + 1, Cols: m.Cols, Stride: m.Cols, Data: make([]float64, (m.Rows+1)*m.Cols)}
			linalg.Gemm(blas.NoTrans, blas.NoTrans, 1, m, m, 0, c, w(p))
		}),
		once("linalg.Gemm", "bad transpose", func(p *core.Pool) {
			m := in(1).m.RawMatrix()
			linalg.Gemm(blas.Transpose(0), blas.NoTrans, 1, m, m, 0, m, w(p))
		}),

		// uts
		once("uts.Search", "bad tree", func(p *core.Pool) { uts.Search(uts.Tree{Depth: -1}, w(p)) }),
		once("uts.SearchSerial", "bad tree", func(p *core.Pool) { uts.SearchSerial(uts.Tree{Depth: -1}) }),

		// graph
		varies("graph.BFS", "source out of range", func(p *core.Pool, n int) { graph.BFS(in(n).g, int32(n), w(p)) }),
		once("graph.BFS", "nil graph", func(p *core.Pool) { graph.BFS(nil, 0, w(p)) }),
		once("graph.ConnectedComponents", "nil graph", func(p *core.Pool) { graph.ConnectedComponents(nil, w(p)) }),
		once("graph.PageRank", "nil graph", func(p *core.Pool) { graph.PageRank(nil, 0.85, 1e-6, 5, w(p)) }),
		sized("graph.PageRank", "damping out of range", func(p *core.Pool, n int) { graph.PageRank(in(n).g, 2, 1e-6, 5, w(p)) }),
		once("graph.Triangles", "nil graph", func(p *core.Pool) { graph.Triangles(nil, w(p)) }),
		once("graph.RMat", "negative scale", func(p *core.Pool) { graph.RMat(-1, 1, 1) }),
		varies("graph.Graph.Neighbors", "vertex out of range", func(p *core.Pool, n int) { in(n).g.Neighbors(int32(n)) }),
		varies("graph.Graph.Degree", "vertex out of range", func(p *core.Pool, n int) { in(n).g.Degree(-1) }),

		// core's entry points
		once("core.RunValue", "nil root", func(p *core.Pool) { core.RunValue[int](p, nil) }),
		once("core.RunValue", "nil pool", func(p *core.Pool) { core.RunValue(nil, func(*core.Worker) int { return 0 }) }),
		once("core.Pool.Run", "nil root", func(p *core.Pool) { p.Run(nil) }),
		once("core.Pool.RunOn", "nil root", func(p *core.Pool) { p.RunOn(0, nil) }),
		{fn: "core.Pool.RunOn", bad: "worker out of range", minSize: -1, sameKind: true, // the message lists the pool's IDs
			call: func(p *core.Pool, _ int) { p.RunOn(99, func(*core.Worker) {}) }},
		once("core.MeasureWorkSpan", "nil root", func(p *core.Pool) { core.MeasureWorkSpan[int](p, nil) }),
		once("core.Blocking", "nil function", func(p *core.Pool) { core.Blocking(nil) }),
		once("core.Join", "nil function", func(p *core.Pool) {
			inTask(p, func(w *core.Worker) {
				core.Join[int, int, int, int](w, nil, 0, func(*core.Worker, int) int { return 0 }, 0)
			})
		}),
		once("core.Spawn", "nil function", func(p *core.Pool) {
			inTask(p, func(w *core.Worker) { core.Spawn[int, int](w, nil, 0) })
		}),
		once("core.Invoke", "nil function", func(p *core.Pool) {
			inTask(p, func(w *core.Worker) { core.Invoke(w, func(*core.Worker) {}, nil) })
		}),
		once("core.Worker.Guard", "nil function", func(p *core.Pool) {
			inTask(p, func(w *core.Worker) { w.Guard(nil, func(*core.PanicError) {}) })
		}),
		once("core.Scope.Go", "nil function", func(p *core.Pool) { var s core.Scope; s.Go(p, nil) }),
		once("core.Scope.TryGo", "nil function", func(p *core.Pool) { var s core.Scope; s.TryGo(p, nil) }),
	}
	// Closed pools: every call that takes options, and core's entry points.
	for _, c := range withOpts {
		rows = append(rows, misuse{fn: c.fn, bad: "closed pool", closedPool: true,
			call: func(p *core.Pool, n int) { c.call(n, w(p)) }})
	}
	for _, r := range []misuse{
		once("core.RunValue", "closed pool", func(p *core.Pool) { core.RunValue(p, func(*core.Worker) int { return 0 }) }),
		once("core.Pool.Run", "closed pool", func(p *core.Pool) { p.Run(func(*core.Worker) {}) }),
		once("core.Pool.RunOn", "closed pool", func(p *core.Pool) { p.RunOn(0, func(*core.Worker) {}) }),
		once("core.MeasureWorkSpan", "closed pool", func(p *core.Pool) {
			core.MeasureWorkSpan(p, func(*core.Worker) int { return 0 })
		}),
		once("core.Scope.Go", "closed pool", func(p *core.Pool) { var s core.Scope; s.Go(p, func(*core.Worker) {}) }),
	} {
		r.closedPool = true
		rows = append(rows, r)
	}
	return rows
}

// inTask runs f in a task of p and re-raises, on the caller, what f
// panicked with as it was (not wrapped by the core), so that a row can test
// the calls made on a worker.
func inTask(p *core.Pool, f func(w *core.Worker)) {
	var v any
	p.Run(func(w *core.Worker) {
		defer func() { v = recover() }()
		f(w)
	})
	if v != nil {
		panic(v)
	}
}

// catch runs f and returns what it panicked with, and whether it did.
func catch(f func()) (v any, panicked bool) {
	defer func() {
		if panicked {
			v = recover()
		}
	}()
	panicked = true
	f()
	panicked = false
	return nil, false
}

// names reports whether msg names fn ("par.Group.Go"): as "par.Group.Go" or
// as "par: Group.Go", not followed by more of an identifier. A method may
// be named without its type ("graph: Neighbors", as "sync: negative
// WaitGroup counter" names no type either).
func names(msg, fn string) bool {
	pkg, rest, _ := strings.Cut(fn, ".")
	alts := []string{regexp.QuoteMeta(rest)}
	if _, method, ok := strings.Cut(rest, "."); ok {
		alts = append(alts, regexp.QuoteMeta(method))
	}
	q := regexp.QuoteMeta(pkg)
	re := regexp.MustCompile(`(^|[^\w.])(` + q + `\.|` + q + `: )(` + strings.Join(alts, "|") + `)($|[^\w])`)
	return re.MatchString(msg)
}

// describe returns a panic value as a test failure shows it.
func describe(v any) string {
	if pe, ok := v.(*core.PanicError); ok {
		return fmt.Sprintf("*core.PanicError wrapping %T %q", pe.Value, fmt.Sprint(pe.Value))
	}
	return fmt.Sprintf("%T %q", v, fmt.Sprint(v))
}

func TestOneErrorPerMistake(t *testing.T) {
	live := map[int]*core.Pool{}
	closed := map[int]*core.Pool{}
	for _, k := range usageWorkers {
		live[k] = core.New(core.WithWorkers(k))
		closed[k] = core.New(core.WithWorkers(k))
		closed[k].Close()
	}
	defer func() {
		for _, p := range live {
			p.Close()
		}
	}()
	sizes := usageSizes
	if testing.Short() {
		sizes = []int{0, 1, 100, 1 << 13}
	}
	for _, r := range misuses() {
		t.Run(r.fn+"/"+r.bad, func(t *testing.T) {
			if err := r.check(live, closed, sizes); err != "" {
				t.Error(err)
			}
		})
	}
}

// check runs r on every pool and size and returns its first departure from
// the rule, or "".
func (r misuse) check(live, closed map[int]*core.Pool, sizes []int) string {
	var ref any
	var refAt string
	for _, k := range usageWorkers {
		p := live[k]
		if r.closedPool {
			p = closed[k]
		}
		for _, n := range sizes {
			if r.minSize < 0 && n != sizes[0] || n < r.minSize {
				continue
			}
			at := fmt.Sprintf("p=%d/n=%d", k, n)
			v, panicked := catch(func() { r.call(p, n) })
			switch {
			case !panicked:
				return at + ": returned, want a panic"
			case v == nil:
				return at + ": panicked with nil"
			}
			if _, ok := v.(*core.PanicError); ok {
				return at + ": panicked inside a task: " + describe(v)
			}
			if _, ok := v.(string); !ok && !r.unnamed {
				return at + ": panicked with " + describe(v) + ", want a string"
			}
			if !r.unnamed && !names(fmt.Sprint(v), r.fn) {
				return fmt.Sprintf("%s: message %q does not name %s", at, v, r.fn)
			}
			if ref == nil {
				ref, refAt = v, at
				continue
			}
			same := fmt.Sprintf("%T", v) == fmt.Sprintf("%T", ref)
			if !r.sameKind {
				same = same && fmt.Sprint(v) == fmt.Sprint(ref)
			}
			if !same {
				return fmt.Sprintf("%s: panicked with %s, %s with %s", at, describe(v), refAt, describe(ref))
			}
		}
	}
	return ""
}
