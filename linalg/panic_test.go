package linalg

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gofork/gofork/par"
)

// panicValue runs f and returns what it panicked with, unwrapping a
// runtime wrapper with a Value field or an Unwrap method; ok is false if f
// returned normally.
func panicValue(f func()) (v any, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			v, ok = unwrapPanic(r), true
		}
	}()
	f()
	return nil, false
}

// unwrapPanic strips a runtime wrapper (a pointer to a struct with a Value
// field, like core's panic error) so the tests see the original value.
func unwrapPanic(r any) any {
	v := reflect.ValueOf(r)
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		if f := v.Elem().FieldByName("Value"); f.IsValid() && f.CanInterface() {
			return unwrapPanic(f.Interface())
		}
	}
	return r
}

func TestMulPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	a23, a34, a22 := randDense(rng, 2, 3), randDense(rng, 3, 4), randDense(rng, 2, 2)
	var nilDense *mat.Dense
	cases := []struct {
		name string
		dst  *mat.Dense
		a, b mat.Matrix
		want string // substring of the panic message, or "" for mat.ErrShape
	}{
		{"inner mismatch", mat.NewDense(2, 2, nil), a23, a22, ""},
		{"inner mismatch empty dst", nil, a23, a23, ""},
		{"dst too small", mat.NewDense(2, 3, nil), a23, a34, ""},
		{"dst too big", mat.NewDense(3, 4, nil), a23, a34, ""},
		{"dst transposed shape", mat.NewDense(4, 2, nil), a23, a34, ""},
		{"transposed mismatch", mat.NewDense(2, 4, nil), a23.T(), a34, ""},
		{"nil a", mat.NewDense(2, 4, nil), nil, a34, "nil a"},
		{"nil b", mat.NewDense(2, 4, nil), a23, nil, "nil b"},
		{"typed nil a", mat.NewDense(2, 4, nil), nilDense, a34, "nil a"},
		{"typed nil bT", mat.NewDense(2, 4, nil), a23, mat.Transpose{Matrix: nilDense}, "nil b"},
		{"nil SymDense a", mat.NewDense(2, 4, nil), (*mat.SymDense)(nil), a34, "nil a"},
		{"nil SymDense aT", mat.NewDense(2, 4, nil), (*mat.SymDense)(nil).T(), a34, "nil a"},
		{"nil TriDense bT", mat.NewDense(2, 4, nil), a23, mat.Transpose{Matrix: (*mat.TriDense)(nil)}, "nil b"},
		{"empty a", mat.NewDense(2, 4, nil), &mat.Dense{}, a34, "empty a"},
	}
	for _, tc := range cases {
		for _, muladd := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/muladd=%v", tc.name, muladd), func(t *testing.T) {
				dst := tc.dst
				if dst == nil {
					dst = &mat.Dense{}
				}
				var before *mat.Dense
				if !dst.IsEmpty() {
					r, c := dst.Dims()
					for i := range r {
						for j := range c {
							dst.Set(i, j, float64(i*c+j)+0.5)
						}
					}
					before = mat.DenseCopyOf(dst)
				}
				v, ok := panicValue(func() {
					if muladd {
						MulAdd(dst, 2, tc.a, tc.b, 1)
					} else {
						Mul(dst, tc.a, tc.b)
					}
				})
				if !ok {
					t.Fatal("no panic")
				}
				if tc.want == "" {
					if err, _ := v.(error); !errors.Is(err, mat.ErrShape) {
						t.Fatalf("panic %v, want mat.ErrShape", v)
					}
				} else if s := fmt.Sprint(v); !strings.HasPrefix(s, "linalg: ") || !strings.Contains(s, tc.want) {
					t.Fatalf("panic %q, want linalg: ... %s", s, tc.want)
				}
				if before == nil {
					if !dst.IsEmpty() {
						t.Fatal("empty dst was resized before the panic")
					}
				} else if !mat.Equal(dst, before) {
					t.Fatal("dst changed before the panic")
				}
			})
		}
	}
	t.Run("nil dst", func(t *testing.T) {
		v, ok := panicValue(func() { Mul(nil, a23, a34) })
		if !ok || !strings.Contains(fmt.Sprint(v), "with a nil dst") {
			t.Fatalf("panic %v", v)
		}
	})
	for _, tc := range []struct {
		name, want string
		opt        par.Option
	}{
		{"nil option", "linalg: nil Option passed to linalg.%s", nil},
		{"grain", "linalg: option par.Grain does not apply to linalg.%s", par.Grain(4)},
		{"partitioner", "linalg: option par.Static does not apply to linalg.%s", par.Static()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := mat.NewDense(2, 4, nil)
			for name, call := range map[string]func(){
				"Mul":    func() { Mul(dst, a23, a34, tc.opt) },
				"MulAdd": func() { MulAdd(dst, 1, a23, a34, 1, tc.opt) },
				"Gemm": func() {
					Gemm(blas.NoTrans, blas.NoTrans, 1, a23.RawMatrix(), a34.RawMatrix(), 0, dst.RawMatrix(), tc.opt)
				},
			} {
				v, ok := panicValue(call)
				if want := fmt.Sprintf(tc.want, name); !ok || fmt.Sprint(v) != want {
					t.Errorf("%s: panic %v, want %q", name, v, want)
				}
			}
			if !mat.Equal(dst, mat.NewDense(2, 4, nil)) {
				t.Fatal("dst changed before the panic")
			}
		})
	}
}

func TestGemmPanics(t *testing.T) {
	g := func(r, c int) blas64.General {
		return blas64.General{Rows: r, Cols: c, Stride: c, Data: make([]float64, r*c)}
	}
	cases := []struct {
		name    string
		tA, tB  blas.Transpose
		a, b, c blas64.General
		want    string
	}{
		{"inner", blas.NoTrans, blas.NoTrans, g(2, 3), g(4, 5), g(2, 5), "op(a) is 2x3, op(b) is 4x5, c is 2x5"},
		{"c rows", blas.NoTrans, blas.NoTrans, g(2, 3), g(3, 5), g(3, 5), "c is 3x5"},
		{"c cols trans", blas.Trans, blas.NoTrans, g(2, 3), g(2, 5), g(3, 4), "op(a) is 3x2"},
		{"bad trans", 'x', blas.NoTrans, g(2, 3), g(3, 5), g(2, 5), "tA"},
		{"short data", blas.NoTrans, blas.NoTrans, blas64.General{Rows: 2, Cols: 3, Stride: 3, Data: make([]float64, 5)}, g(3, 5), g(2, 5), "a data has 5 elements"},
		{"small stride", blas.NoTrans, blas.NoTrans, g(2, 3), g(3, 5), blas64.General{Rows: 2, Cols: 5, Stride: 4, Data: make([]float64, 10)}, "c stride 4"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.c.Data {
				tc.c.Data[i] = 7
			}
			v, ok := panicValue(func() { Gemm(tc.tA, tc.tB, 1, tc.a, tc.b, 0, tc.c) })
			if s := fmt.Sprint(v); !ok || !strings.HasPrefix(s, "linalg: ") || !strings.Contains(s, tc.want) {
				t.Fatalf("panic %v, want linalg: ... %s", v, tc.want)
			}
			for _, x := range tc.c.Data {
				if x != 7 {
					t.Fatal("c changed before the panic")
				}
			}
		})
	}
}
