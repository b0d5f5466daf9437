package sortpar_test

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/sortpar"
)

func ExampleSort() {
	x := []float64{3, math.NaN(), -1, math.Inf(-1), 2}
	sortpar.Sort(x)
	fmt.Println(x)
	// Output: [NaN -Inf -1 2 3]
}

func ExampleSortFunc() {
	type person struct {
		name string
		age  int
	}
	people := []person{{"Gopher", 13}, {"Alice", 55}, {"Bob", 24}}
	sortpar.SortFunc(people, func(a, b person) int { return strings.Compare(a.name, b.name) })
	fmt.Println(people)
	// Output: [{Alice 55} {Bob 24} {Gopher 13}]
}

func ExampleSortStableFunc() {
	type person struct {
		name string
		age  int
	}
	people := []person{{"Alice", 20}, {"Bob", 24}, {"Carol", 20}, {"Dave", 24}}
	sortpar.SortStableFunc(people, func(a, b person) int { return cmp.Compare(a.age, b.age) })
	fmt.Println(people) // Alice before Carol, Bob before Dave: input order kept
	// Output: [{Alice 20} {Carol 20} {Bob 24} {Dave 24}]
}

func ExampleSort_pool() {
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()
	x := make([]int64, 100_000)
	for i := range x {
		x[i] = int64((i * 7919) % len(x))
	}
	sortpar.Sort(x, par.WithPool(pool))
	fmt.Println(x[:5], sortpar.IsSorted(x))
	// Output: [0 1 2 3 4] true
}

func ExampleIsSortedFunc() {
	x := []string{"a", "B", "c"}
	fmt.Println(sortpar.IsSortedFunc(x, strings.Compare), sortpar.IsSortedFunc(x, func(a, b string) int {
		return strings.Compare(strings.ToLower(a), strings.ToLower(b))
	}))
	// Output: false true
}

func ExampleSortByKey() {
	type order struct {
		id    string
		total float64
	}
	orders := []order{{"o-17", 42.5}, {"o-3", math.NaN()}, {"o-8", 7}, {"o-11", 99.9}}
	sortpar.SortByKey(orders, func(o order) float64 { return o.total }) // NaN first, as cmp.Compare orders
	fmt.Println(orders)
	sortpar.SortByKey(orders, func(o order) string { return o.id })
	fmt.Println(orders)
	// Output:
	// [{o-3 NaN} {o-8 7} {o-17 42.5} {o-11 99.9}]
	// [{o-11 99.9} {o-17 42.5} {o-3 NaN} {o-8 7}]
}
