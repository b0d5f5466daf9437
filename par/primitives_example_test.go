package par_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gofork/gofork/par"
)

func ExampleFilter() {
	words := strings.Fields("fork join steal split merge scan pack")
	short := par.Filter(words, func(w string) bool { return len(w) <= 4 })
	fmt.Println(short)
	// Output: [fork join scan pack]
}

func ExampleDeleteFunc() {
	x := []int{1, 2, 3, 4, 5, 6, 7}
	full := x
	x = par.DeleteFunc(x, func(v int) bool { return v%2 == 0 })
	fmt.Println(x, full) // the tail of the old slice is zeroed
	// Output: [1 3 5 7] [1 3 5 7 0 0 0]
}

func ExampleIndexFunc() {
	x := make([]int, 1_000_000)
	x[765_432] = 1
	fmt.Println(par.IndexFunc(x, func(v int) bool { return v != 0 }))
	// Output: 765432
}

func ExampleContainsFunc() {
	x := []float64{0.5, 1.5, -2}
	fmt.Println(par.ContainsFunc(x, func(v float64) bool { return v < 0 }))
	// Output: true
}

func ExampleShuffle() {
	a := []int{1, 2, 3, 4, 5, 6, 7, 8}
	b := []string{"1", "2", "3", "4", "5", "6", "7", "8"}
	// The permutation depends only on the seed and the length: the two
	// slices are permuted alike, on any pool.
	par.Shuffle(a, 42)
	par.Shuffle(b, 42)
	fmt.Println(fmt.Sprint(a) == "["+strings.Join(b, " ")+"]", slices.Sorted(slices.Values(a)))
	// Output: true [1 2 3 4 5 6 7 8]
}

func ExampleIndex() {
	x := make([]int64, 1_000_000)
	x[654_321] = 7
	fmt.Println(par.Index(x, 7), par.Index(x, 8))
	// Output: 654321 -1
}

func ExampleContains() {
	fmt.Println(par.Contains([]string{"fork", "join"}, "join"))
	// Output: true
}

func ExampleIndexBlocks() {
	// The first element above a limit, with the test in the caller's loop.
	x := make([]float64, 1_000_000)
	x[876_543] = 2.5
	i := par.IndexBlocks(len(x), func(lo, hi int) int {
		for i := lo; i < hi; i++ {
			if x[i] > 1 {
				return i
			}
		}
		return -1
	})
	fmt.Println(i)
	// Output: 876543
}

func ExampleFilterBlocks() {
	// The squares of the odd numbers, with the test in the caller's loop.
	x := []int{1, 2, 3, 4, 5, 6, 7}
	odd := par.FilterBlocks(len(x), func(lo, hi int, dst []int) []int {
		for _, v := range x[lo:hi] {
			if v%2 == 1 {
				dst = append(dst, v*v)
			}
		}
		return dst
	})
	fmt.Println(odd)
	// Output: [1 9 25 49]
}
