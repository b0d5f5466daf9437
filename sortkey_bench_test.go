package gofork_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/kernels"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

// Sorting records by a field: sortpar.SortByKey against what a Go user
// writes, slices.SortFunc with cmp.Compare on the field ("serial"), on
// pools of 1 and 2 workers, in the same run, with sortparRun's fresh copy
// before each iteration. The records are 32 bytes; the keys random int64,
// random float64 and random 16-byte strings. Sizes: 10^7 records (2·10^6
// for strings); -short divides by 100. alloc-% is what a sort allocates as
// a share of the input's bytes.
//
//	GOMAXPROCS=2 flock /tmp/gofork-bench.lock go test -run '^$' -bench 'SortparByKey' -benchtime 3x -count 5 .

// sortparByKey runs serial, p=1 and p=2 on in, sorting by key.
func sortparByKey[E any, K cmp.Ordered](b *testing.B, in []E, key func(E) K) {
	cases := []sortparCase[E]{
		{"serial", func(x []E, _ *core.Pool) {
			slices.SortFunc(x, func(a, b E) int { return cmp.Compare(key(a), key(b)) })
		}},
		{"p=1", func(x []E, p *core.Pool) { sortpar.SortByKey(x, key, par.WithPool(p)) }},
		{"p=2", func(x []E, p *core.Pool) { sortpar.SortByKey(x, key, par.WithPool(p)) }},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s/dist=random/%s", sortparSizeName(len(in)), c.name), func(b *testing.B) {
			var pool *core.Pool
			if w := map[string]int{"p=1": 1, "p=2": 2}[c.name]; w > 0 {
				pool = core.New(core.WithWorkers(w))
				defer pool.Close()
			}
			sortparRun(b, in, func(x []E) { c.sort(x, pool) })
		})
	}
}

func BenchmarkSortparByKeyInt64(b *testing.B) {
	in := kernels.ByKeyIntInput(sortparN(kernels.SortN))
	sortparByKey(b, in, func(r kernels.ByKeyInt) int64 { return r.ID })
}

func BenchmarkSortparByKeyFloat64(b *testing.B) {
	in := kernels.ByKeyFloatInput(sortparN(kernels.SortN))
	sortparByKey(b, in, func(r kernels.ByKeyFloat) float64 { return r.Score })
}

func BenchmarkSortparByKeyString(b *testing.B) {
	in := kernels.ByKeyStringInput(sortparN(kernels.SortN / 5))
	sortparByKey(b, in, func(r kernels.ByKeyString) string { return r.Name })
}
