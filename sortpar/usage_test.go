package sortpar

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
)

// usageCall is one exported function of the package, called on x with
// opts; nilFunc passes a nil function argument instead of a valid one.
type usageCall struct {
	name string // as in the panic message: "SortFunc"
	arg  string // the name of its function argument; "" if it has none
	call func(x []int, nilFunc bool, opts ...par.Option)
}

// pick returns f, or nil when nilFunc is set.
func pick[F any](f F, nilFunc bool) F {
	if nilFunc {
		var zero F
		return zero
	}
	return f
}

var usageCalls = []usageCall{
	{"Sort", "", func(x []int, _ bool, o ...par.Option) { Sort(x, o...) }},
	{"SortFunc", "cmp", func(x []int, nf bool, o ...par.Option) { SortFunc(x, pick(cmp.Compare[int], nf), o...) }},
	{"SortStable", "", func(x []int, _ bool, o ...par.Option) { SortStable(x, o...) }},
	{"SortStableFunc", "cmp", func(x []int, nf bool, o ...par.Option) { SortStableFunc(x, pick(cmp.Compare[int], nf), o...) }},
	{"IsSorted", "", func(x []int, _ bool, o ...par.Option) { IsSorted(x, o...) }},
	{"IsSortedFunc", "cmp", func(x []int, nf bool, o ...par.Option) { IsSortedFunc(x, pick(cmp.Compare[int], nf), o...) }},
	{"SortByKey", "key", func(x []int, nf bool, o ...par.Option) { SortByKey(x, pick(func(e int) int { return e }, nf), o...) }},
	{"SortStableByKey", "key", func(x []int, nf bool, o ...par.Option) {
		SortStableByKey(x, pick(func(e int) int { return e }, nf), o...)
	}},
	{"Merge", "", func(x []int, _ bool, o ...par.Option) {
		a := slices.Clone(x)
		Merge(x, a[:len(a)/2], a[len(a)/2:], o...)
	}},
	{"MergeFunc", "cmp", func(x []int, nf bool, o ...par.Option) {
		a := slices.Clone(x)
		MergeFunc(x, a[:len(a)/2], a[len(a)/2:], pick(cmp.Compare[int], nf), o...)
	}},
	{"Compact", "", func(x []int, _ bool, o ...par.Option) { Compact(x, o...) }},
	{"CompactFunc", "eq", func(x []int, nf bool, o ...par.Option) {
		CompactFunc(x, pick(func(a, b int) bool { return a == b }, nf), o...)
	}},
}

// TestUsageErrors checks that every exported function refuses a nil
// function argument, a nil option and a closed pool on the caller's
// goroutine, before it touches its input, with one panic value at every
// input size and every worker count: the value names the function and the
// argument.
func TestUsageErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, workers := range []int{1, 2, 4} {
		pool := core.New(core.WithWorkers(workers))
		closed := core.New(core.WithWorkers(workers))
		closed.Close()
		for _, n := range []int{0, 1, 100, 1 << 16} {
			in := make([]int, n)
			for i := range in {
				in[i] = rng.IntN(n)
			}
			for _, u := range usageCalls {
				type mistake struct {
					what    string
					nilFunc bool
					opts    []par.Option
					want    string
				}
				ms := []mistake{
					{"nil option", false, []par.Option{par.WithPool(pool), nil}, "sortpar: nil Option passed to sortpar." + u.name},
					{"closed pool", false, []par.Option{par.WithPool(closed)}, "sortpar: sortpar." + u.name + " on a closed Pool"},
				}
				if u.arg != "" {
					ms = append(ms,
						mistake{"nil " + u.arg, true, []par.Option{par.WithPool(pool)}, "sortpar: " + u.name + " with a nil " + u.arg},
						mistake{"nil " + u.arg + " without options", true, nil, "sortpar: " + u.name + " with a nil " + u.arg})
				}
				for _, m := range ms {
					x := slices.Clone(in)
					got := func() (v any) {
						defer func() { v = recover() }()
						u.call(x, m.nilFunc, m.opts...)
						return nil
					}()
					where := fmt.Sprintf("%s, %s, n=%d, p=%d", u.name, m.what, n, workers)
					if got != m.want {
						t.Errorf("%s: panic %#v, want %q", where, got, m.want)
					}
					if !slices.Equal(x, in) {
						t.Errorf("%s: the input changed before the panic", where)
					}
				}
			}
		}
		pool.Close()
	}
}
