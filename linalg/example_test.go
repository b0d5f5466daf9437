package linalg_test

import (
	"fmt"

	"github.com/gofork/gofork/linalg"
	"gonum.org/v1/gonum/mat"
)

func ExampleMul() {
	a := mat.NewDense(2, 3, []float64{
		1, 2, 3,
		4, 5, 6,
	})
	b := mat.NewDense(3, 2, []float64{
		7, 8,
		9, 10,
		11, 12,
	})
	var c mat.Dense // empty: Mul sizes it
	linalg.Mul(&c, a, b)
	fmt.Printf("%v\n", mat.Formatted(&c))

	// Transposed views are read in place: c = aᵀ*a is 3x3.
	var g mat.Dense
	linalg.Mul(&g, a.T(), a)
	fmt.Printf("%v\n", mat.Formatted(&g))
	// Output:
	// ⎡ 58   64⎤
	// ⎣139  154⎦
	// ⎡17  22  27⎤
	// ⎢22  29  36⎥
	// ⎣27  36  45⎦
}
