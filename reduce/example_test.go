package reduce_test

import (
	"fmt"
	"strings"

	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

func ExampleReduce() {
	// Concatenation is associative but not commutative: the subranges are
	// joined in order, so the result is the serial one.
	s := reduce.Reduce(0, 10, "", func(lo, hi int, acc string) string {
		for i := lo; i < hi; i++ {
			acc += fmt.Sprint(i)
		}
		return acc
	}, func(x, y string) string { return x + y }, par.Simple(3))
	fmt.Println(s)
	// Output: 0123456789
}

// sumSquares is a Body that adds i*i over its subranges.
type sumSquares struct{ total int }

func (b *sumSquares) Accumulate(lo, hi int) {
	for i := lo; i < hi; i++ {
		b.total += i * i
	}
}
func (b *sumSquares) Split() *sumSquares     { return &sumSquares{} }
func (b *sumSquares) Join(right *sumSquares) { b.total += right.total }

func ExampleReduceBody() {
	var b sumSquares
	reduce.ReduceBody(0, 1000, &b)
	fmt.Println(b.total)
	// Output: 332833500
}

func ExampleDeterministic() {
	x := make([]float64, 100_000)
	for i := range x {
		x[i] = 1 / float64(i+1)
	}
	sum := func(lo, hi int, acc float64) float64 {
		for _, v := range x[lo:hi] {
			acc += v
		}
		return acc
	}
	add := func(a, b float64) float64 { return a + b }
	// The same bits on every run and with any number of workers.
	fmt.Printf("%.15f\n", reduce.Deterministic(0, len(x), 0.0, sum, add))
	// Output: 12.090146129863431
}

func ExampleSum() {
	fmt.Println(reduce.Sum([]int{1, 2, 3, 4}), reduce.Sum([]float64{0.5, 0.25}))
	// Output: 10 0.75
}

func ExampleMin() {
	fmt.Println(reduce.Min([]int{4, -2, 7}), reduce.Max([]int{4, -2, 7}))
	// Output: -2 7
}

func ExampleMinFunc() {
	words := []string{"fork", "go", "join", "at"}
	byLen := func(a, b string) int { return len(a) - len(b) }
	fmt.Println(reduce.MinFunc(words, byLen), reduce.MaxFunc(words, byLen))
	// Output: go fork
}

func ExampleCountFunc() {
	fmt.Println(reduce.CountFunc([]int{1, -2, 3, -4, -5}, func(v int) bool { return v < 0 }))
	// Output: 3
}

func ExampleMapReduce() {
	words := []string{"work", "stealing", "fork", "join"}
	initials := reduce.MapReduce(words, "", func(w string) string { return strings.ToUpper(w[:1]) },
		func(x, y string) string { return x + y })
	fmt.Println(initials)
	// Output: WSFJ
}
