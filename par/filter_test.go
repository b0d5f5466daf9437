package par_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
)

// packSizes are 0, 1, the serial cutoff ±1, 2^k±1 and, unless the run is
// short or raced, 10^6 (several packing rounds of int64).
func packSizes() []int {
	s := []int{0, 1, 2, par.FilterSerialMax - 1, par.FilterSerialMax, par.FilterSerialMax + 1}
	top := 17
	if raceEnabled {
		top = 14
	}
	for k := 4; k <= top; k += 3 {
		s = append(s, 1<<k-1, 1<<k+1)
	}
	if !testing.Short() && !raceEnabled {
		s = append(s, 1_000_000)
	}
	slices.Sort(s)
	return slices.Compact(s)
}

// skipLong reports whether to skip the longest inputs for a partitioner and
// rule: they run with the default partitioner and two rules only.
func skipLong(n int, partitioner, rule string) bool {
	return n > 1<<17+1 && (partitioner != "auto" || rule != "third" && rule != "most")
}

// keepRules are the predicates the packing tests use, by name.
var keepRules = []struct {
	name string
	f    func(v uint64) bool
}{
	{"third", func(v uint64) bool { return v%3 == 0 }},
	{"all", func(uint64) bool { return true }},
	{"none", func(uint64) bool { return false }},
	{"rare", func(v uint64) bool { return v%1000 == 7 }},
	{"most", func(v uint64) bool { return v%10 != 0 }},
	{"head", func(v uint64) bool { return v < 1<<40 }}, // with the inputs below: the first third
}

// packInput returns n values; about a third of them are below 2^40, in
// the first third of the slice.
func packInput(n int, seed uint64) []uint64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([]uint64, n)
	for i := range x {
		x[i] = rng.Uint64()
		if i < n/3 {
			x[i] >>= 30
		} else {
			x[i] |= 1 << 50
		}
	}
	return x
}

func TestFilterMatchesAppendLoop(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, n := range packSizes() {
				x := packInput(n, uint64(n))
				for _, k := range keepRules {
					if skipLong(n, pt.name, k.name) {
						continue
					}
					var want []uint64
					for _, v := range x {
						if k.f(v) {
							want = append(want, v)
						}
					}
					got := par.Filter(x, k.f, opts...)
					if !slices.Equal(got, want) || (want == nil) != (got == nil) {
						t.Fatalf("%s n=%d %s: Filter kept %d, want %d (or order, or nil-ness, differs)", pt.name, n, k.name, len(got), len(want))
					}
				}
			}
		}
	})
}

func TestDeleteFuncMatchesSlices(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, n := range packSizes() {
				x := packInput(n, uint64(n)+1)
				for _, k := range keepRules {
					if skipLong(n, pt.name, k.name) {
						continue
					}
					want := slices.DeleteFunc(slices.Clone(x), k.f)
					got := slices.Clone(x)
					if m := len(par.DeleteFunc(got, k.f, opts...)); m != len(want) || !slices.Equal(got[:m], want) {
						t.Fatalf("%s n=%d %s: DeleteFunc kept %d, want %d, or differs", pt.name, n, k.name, m, len(want))
					}
					if i := slices.IndexFunc(got[len(want):], func(v uint64) bool { return v != 0 }); i >= 0 {
						t.Fatalf("%s n=%d %s: [%d] not zeroed", pt.name, n, k.name, len(want)+i)
					}
				}
			}
		}
	})
}

// record is 512 bytes: a packing round holds 8192 of them.
type record struct {
	key uint64
	pad [63]uint64
}

func TestDeleteFuncRounds(t *testing.T) {
	n := 2*8192 + 13
	if raceEnabled {
		n = 8192 + 13
	}
	recs := make([]record, n)
	for i, v := range packInput(n, 9) {
		recs[i] = record{key: v}
		recs[i].pad[62] = uint64(i)
	}
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, k := range keepRules {
			del := func(r record) bool { return k.f(r.key) }
			want := slices.DeleteFunc(slices.Clone(recs), del)
			got := par.DeleteFunc(slices.Clone(recs), del, par.WithPool(p))
			if !slices.Equal(got, want) {
				t.Fatalf("%s: DeleteFunc of records differs from slices.DeleteFunc", k.name)
			}
		}
	})
}

func TestFilterPanics(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		x := packInput(100_000, 3)
		bad := x[77_777]
		boom := func(v uint64) bool {
			if v == bad {
				panic(fmt.Sprint("saw ", v))
			}
			return v%2 == 0
		}
		if v := catch(func() { par.Filter(x, boom, par.WithPool(p)) }); v != fmt.Sprint("saw ", bad) {
			t.Errorf("Filter: recovered %v", v)
		}
		if v := catch(func() { par.DeleteFunc(slices.Clone(x), boom, par.WithPool(p)) }); v != fmt.Sprint("saw ", bad) {
			t.Errorf("DeleteFunc: recovered %v", v)
		}
	})
	if v := catch(func() { par.Filter([]int{1}, nil) }); v != "par: Filter with a nil keep" {
		t.Errorf("nil keep: %v", v)
	}
	if v := catch(func() { par.DeleteFunc([]int{1}, nil) }); v != "par: DeleteFunc with a nil del" {
		t.Errorf("nil del: %v", v)
	}
}
