package uts_test

import (
	"fmt"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/uts"
)

func ExampleSearch() {
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()

	r := uts.Search(uts.T3, par.WithPool(pool))
	fmt.Printf("T3: %d nodes, depth %d, %d leaves\n", r.Nodes, r.MaxDepth, r.Leaves)
	// Output:
	// T3: 4112897 nodes, depth 1572, 3599034 leaves
}

func ExampleSearchSerial() {
	// The reference program's default tree.
	r := uts.SearchSerial(uts.Tree{Type: uts.Geometric, Shape: uts.Linear, B0: 4, Depth: 6})
	fmt.Printf("%d nodes, depth %d, %d leaves\n", r.Nodes, r.MaxDepth, r.Leaves)
	// Output:
	// 1732 nodes, depth 6, 1050 leaves
}

func ExampleParse() {
	t, err := uts.Parse("-t 1 -a 3 -d 10 -b 4 -r 19")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t == uts.T1, t.Type, t.Shape)

	_, err = uts.Parse("-t 1 -q 1.5")
	fmt.Println(err)
	// Output:
	// true Geometric Fixed
	// uts: flag -q: value "1.5" out of range: probability q must be in [0, 1]
}

func ExampleTree_String() {
	fmt.Println(uts.T3)
	// Output:
	// -t 0 -a 0 -d 6 -b 2000 -q 0.124875 -m 8 -r 42 -f 0.5
}
