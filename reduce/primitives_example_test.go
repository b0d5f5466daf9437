package reduce_test

import (
	"fmt"

	"github.com/gofork/gofork/reduce"
)

func ExampleScan() {
	// Where each record starts, given the records' lengths.
	lengths := []int{3, 1, 4, 1, 5}
	offsets := make([]int, len(lengths))
	total := reduce.Scan(offsets, lengths, 0, func(a, b int) int { return a + b })
	fmt.Println(offsets, total)
	// Output: [0 3 4 8 9] 14
}

func ExampleScanInclusive() {
	// Running maximum, in place.
	x := []int{2, 7, 1, 8, 2, 8, 1, 8}
	reduce.ScanInclusive(x, x, func(a, b int) int { return max(a, b) })
	fmt.Println(x)
	// Output: [2 7 7 8 8 8 8 8]
}

func ExampleHistogram() {
	ages := []int{3, 17, 25, 31, 38, 44, 52, 67, 71, 88}
	decades := reduce.Histogram(ages, 10, func(age int) int { return age / 10 })
	fmt.Println(decades)
	// Output: [1 1 1 2 1 1 1 1 1 0]
}
