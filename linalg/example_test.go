package linalg_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gofork/gofork/linalg"
	"gonum.org/v1/gonum/blas/blas64"
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

// ExampleBLAS installs BLAS as gonum's BLAS: from then on gonum's own
// mat.Dense.Mul and factorizations run their Level 3 work on gofork.
func ExampleBLAS() {
	prev := blas64.Implementation()
	blas64.Use(linalg.BLAS{})
	defer blas64.Use(prev) // a program would install it once and keep it

	// A symmetric positive definite a = xᵀx + n·I.
	const n = 300
	rng := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(n, n, nil)
	x.Apply(func(_, _ int, _ float64) float64 { return rng.Float64() }, x)
	var a mat.SymDense
	a.SymOuterK(1, x.T())
	for i := range n {
		a.SetSym(i, i, a.At(i, i)+n)
	}

	// Factorize a = uᵀu and multiply it back, both through BLAS.
	var chol mat.Cholesky
	fmt.Println("factorized:", chol.Factorize(&a))
	var ut mat.TriDense
	chol.UTo(&ut)
	u := mat.DenseCopyOf(&ut) // dense operands: Mul calls Dgemm
	var back, diff mat.Dense
	back.Mul(u.T(), u)
	diff.Sub(&back, &a)
	fmt.Println("max |uᵀu - a| < 1e-9:", mat.Norm(&diff, math.Inf(1)) < 1e-9)
	// Output:
	// factorized: true
	// max |uᵀu - a| < 1e-9: true
}
