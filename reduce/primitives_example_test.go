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

func ExamplePrefixSum() {
	// Where each record starts, given the records' lengths.
	lengths := []int{3, 1, 4, 1, 5}
	offsets := make([]int, len(lengths))
	total := reduce.PrefixSum(offsets, lengths)
	fmt.Println(offsets, total)
	// Output: [0 3 4 8 9] 14
}

func ExamplePrefixSumInclusive() {
	// Running balance, in place.
	x := []float64{10, -2.5, 4, -1.5}
	reduce.PrefixSumInclusive(x, x)
	fmt.Println(x)
	// Output: [10 7.5 11.5 10]
}

func ExampleScanBlocks() {
	// Running maximum of the squares, with the loops written out: the
	// square and the max compile into them.
	src := []int{3, -1, -4, 1, 5, -9, 2, 6}
	dst := make([]int, len(src))
	top := reduce.ScanBlocks(len(src), 0, func(x, y int) int { return max(x, y) },
		func(lo, hi int) int { // the max over a block
			m := 0
			for _, v := range src[lo:hi] {
				m = max(m, v*v)
			}
			return m
		},
		func(lo, hi int, acc int) int { // the block's running max, from acc
			for i := lo; i < hi; i++ {
				acc = max(acc, src[i]*src[i])
				dst[i] = acc
			}
			return acc
		})
	fmt.Println(dst, top)
	// Output: [9 9 16 16 25 81 81 81] 81
}

func ExampleCounts() {
	dice := []int{3, 6, 1, 6, 2, 6, 5, 3}
	fmt.Println(reduce.Counts(dice, 7)[1:])
	// Output: [1 1 2 0 1 3]
}

func ExampleHistogramBlocks() {
	// Words by length, with the bucket computed in the caller's loop.
	words := []string{"fork", "join", "steal", "split", "scan", "pack", "merge", "sort", "a"}
	byLen := reduce.HistogramBlocks(len(words), 6, func(lo, hi int, counts []int) {
		for _, w := range words[lo:hi] {
			counts[min(len(w), 5)]++
		}
	})
	fmt.Println(byLen)
	// Output: [0 1 0 0 5 3]
}
