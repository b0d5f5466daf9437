package gofork_test

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
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

// byKeyInt is a 32-byte record sorted by an int64 field.
type byKeyInt struct {
	id      int64
	a, b, c int64
}

// byKeyFloat is a 32-byte record sorted by a float64 field.
type byKeyFloat struct {
	score   float64
	a, b, c int64
}

// byKeyString is a 32-byte record sorted by a string field.
type byKeyString struct {
	name string
	a, b int64
}

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
	rng := rand.New(rand.NewPCG(1, 7))
	in := make([]byKeyInt, sortparN(10_000_000))
	for i := range in {
		v := int64(rng.Uint64())
		in[i] = byKeyInt{v, v ^ 1, v ^ 2, v ^ 3}
	}
	sortparByKey(b, in, func(r byKeyInt) int64 { return r.id })
}

func BenchmarkSortparByKeyFloat64(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 7))
	in := make([]byKeyFloat, sortparN(10_000_000))
	for i := range in {
		in[i] = byKeyFloat{rng.NormFloat64() * 1e6, int64(i), 0, 0}
	}
	sortparByKey(b, in, func(r byKeyFloat) float64 { return r.score })
}

func BenchmarkSortparByKeyString(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 7))
	in := make([]byKeyString, sortparN(2_000_000))
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	var s [16]byte
	for i := range in {
		for j := range s {
			s[j] = letters[rng.IntN(len(letters))]
		}
		in[i] = byKeyString{string(s[:]), int64(i), int64(binary.LittleEndian.Uint64(s[:]))}
	}
	sortparByKey(b, in, func(r byKeyString) string { return r.name })
}
