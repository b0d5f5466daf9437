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
