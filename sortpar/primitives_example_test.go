package sortpar_test

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

func ExampleMerge() {
	a := []int{1, 4, 9, 16}
	b := []int{2, 3, 5, 7, 11}
	dst := make([]int, len(a)+len(b))
	sortpar.Merge(dst, a, b)
	fmt.Println(dst)
	// Output: [1 2 3 4 5 7 9 11 16]
}

func ExampleMerge_options() {
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()
	a, b := make([]int, 50_000), make([]int, 50_000)
	for i := range a {
		a[i], b[i] = 2*i, 2*i+1
	}
	dst := make([]int, len(a)+len(b))
	sortpar.Merge(dst, a, b, par.WithPool(pool))
	fmt.Println(dst[:6], sortpar.IsSorted(dst))
	// Output: [0 1 2 3 4 5] true
}

func ExampleMergeFunc() {
	type entry struct {
		day  int
		what string
	}
	mine := []entry{{1, "mine-a"}, {3, "mine-b"}}
	yours := []entry{{1, "yours-a"}, {2, "yours-b"}}
	dst := make([]entry, 4)
	sortpar.MergeFunc(dst, mine, yours, func(x, y entry) int { return cmp.Compare(x.day, y.day) })
	fmt.Println(dst) // on day 1, mine (the first slice) comes first
	// Output: [{1 mine-a} {1 yours-a} {2 yours-b} {3 mine-b}]
}

func ExampleMergeFunc_options() {
	a := []string{"apple", "Cherry"}
	b := []string{"Banana", "date"}
	dst := make([]string, 4)
	sortpar.MergeFunc(dst, a, b, func(x, y string) int {
		return strings.Compare(strings.ToLower(x), strings.ToLower(y))
	}, par.Grain(2))
	fmt.Println(dst)
	// Output: [apple Banana Cherry date]
}

func ExampleCompact() {
	x := []int{1, 1, 2, 3, 3, 3, 1}
	fmt.Println(sortpar.Compact(x))
	// Output: [1 2 3 1]
}

func ExampleCompact_options() {
	x := make([]int, 100_000)
	for i := range x {
		x[i] = i / 1000
	}
	x = sortpar.Compact(x, par.Grain(1024))
	fmt.Println(len(x), x[:3])
	// Output: 100 [0 1 2]
}

func ExampleCompactFunc() {
	words := []string{"Go", "go", "GO", "fork", "Fork", "join"}
	fmt.Println(sortpar.CompactFunc(words, strings.EqualFold))
	// Output: [Go fork join]
}

func ExampleCompactFunc_options() {
	x := []float64{1.0, 1.05, 1.2, 2.0, 2.01}
	near := func(a, b float64) bool { return a-b < 0.1 && b-a < 0.1 }
	fmt.Println(sortpar.CompactFunc(x, near, par.Grain(2)))
	// Output: [1 1.2 2]
}

func ExampleSortStableByKey() {
	type order struct {
		id     string
		amount int
	}
	orders := []order{{"a", 30}, {"b", -5}, {"c", 30}, {"d", 12}}
	sortpar.SortStableByKey(orders, func(o order) int { return o.amount })
	fmt.Println(orders) // a before c: equal keys keep their order
	// Output: [{b -5} {d 12} {a 30} {c 30}]
}

func ExampleSortStableByKey_options() {
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()
	x := make([]uint32, 100_000)
	for i := range x {
		x[i] = uint32(i*7919) % 1000
	}
	sortpar.SortStableByKey(x, func(v uint32) uint32 { return v }, par.WithPool(pool))
	fmt.Println(x[:3], x[len(x)-1], sortpar.IsSorted(x))
	// Output: [0 0 0] 999 true
}
