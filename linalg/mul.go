package linalg

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
	"github.com/gofork/gofork/par"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// config is what one multiply runs with: the pool, the micro-kernel, and
// the leaf volume (0: chosen from the shape and the pool, see multiply).
// Tests set the kernel and the grain to reach the pure-Go kernel and every
// kind of split on small matrices.
type config struct {
	pool  *core.Pool
	kern  microKernel
	grain int
	call  string // the entry point, for panic messages ("linalg.Mul")
}

// newConfig resolves the options of the entry point call: par.WithPool is
// the one option of the package.
func newConfig(call string, opts []par.Option) config {
	return config{pool: loop.Resolve(call, loop.SetPool, opts).Pool, kern: bestKernel(), call: call}
}

// Mul sets dst to the matrix product a*b, like (*mat.Dense).Mul.
//
// If dst is empty it is resized to the product's shape; otherwise it must
// already have that shape. If the number of columns of a is not the number
// of rows of b, or dst has the wrong shape, Mul panics with mat.ErrShape and
// leaves dst untouched. a and b may be any mat.Matrix: *mat.Dense values and
// their transposes (a.T()) are read in place, anything else is first copied
// to a dense matrix. dst may share memory with a or b; the shared operand is
// then copied before dst is written.
//
// The work runs as fork-join tasks. Its one option is par.WithPool.
func Mul(dst *mat.Dense, a, b mat.Matrix, opts ...par.Option) {
	mulAdd(dst, 1, a, b, 0, newConfig("linalg.Mul", opts))
}

// MulAdd sets dst to alpha*a*b + beta*dst, with Mul's option.
//
// The rules for shapes, operand types and aliasing are those of Mul. If dst
// is empty it is resized and treated as zero (beta is then ignored). When
// beta is zero the old contents of dst are not read, so NaNs in dst do not
// propagate, as in BLAS.
func MulAdd(dst *mat.Dense, alpha float64, a, b mat.Matrix, beta float64, opts ...par.Option) {
	mulAdd(dst, alpha, a, b, beta, newConfig("linalg.MulAdd", opts))
}

// mulAdd is MulAdd with resolved options.
func mulAdd(dst *mat.Dense, alpha float64, a, b mat.Matrix, beta float64, cfg config) {
	if dst == nil {
		panic(cfg.what() + " with a nil dst")
	}
	ao, m, ka := operandOf(cfg.what(), "a", a)
	bo, kb, n := operandOf(cfg.what(), "b", b)
	if ka != kb {
		panic(mat.ErrShape)
	}
	if !dst.IsEmpty() {
		if r, c := dst.Dims(); r != m || c != n {
			panic(mat.ErrShape)
		}
	}
	// Compare against all of dst's backing array: an empty dst may reuse
	// memory that an operand still views.
	raw := dst.RawMatrix()
	ao = ao.isolate(raw.Data[:cap(raw.Data)])
	bo = bo.isolate(raw.Data[:cap(raw.Data)])
	if dst.IsEmpty() {
		dst.ReuseAs(m, n)
		beta = 0
		raw = dst.RawMatrix()
	}
	multiply(cfg, m, n, ka, alpha, ao, bo, beta, raw.Data, raw.Stride)
}

// Gemm computes c = alpha*op(a)*op(b) + beta*c, where op(x) is x or its
// transpose as tA and tB say (blas.ConjTrans means blas.Trans for real
// matrices), like blas64.Gemm.
//
// c must be m x n, op(a) m x k and op(b) k x n; otherwise Gemm panics with a
// message naming the shapes, before c is written. c may share memory with a
// or b; the shared operand is then copied first. When beta is zero c is not
// read. It takes Mul's option.
func Gemm(tA, tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General, opts ...par.Option) {
	cfg := newConfig("linalg.Gemm", opts)
	checkGeneral("a", a)
	checkGeneral("b", b)
	checkGeneral("c", c)
	ao, m, ka := generalOperand("tA", tA, a)
	bo, kb, n := generalOperand("tB", tB, b)
	if ka != kb || c.Rows != m || c.Cols != n {
		panic(fmt.Sprintf("linalg: Gemm shape mismatch: op(a) is %dx%d, op(b) is %dx%d, c is %dx%d",
			m, ka, kb, n, c.Rows, c.Cols))
	}
	if m == 0 || n == 0 {
		return
	}
	ao = ao.isolate(c.Data)
	bo = bo.isolate(c.Data)
	multiply(cfg, m, n, ka, alpha, ao, bo, beta, c.Data, c.Stride)
}

// operand is a read-only matrix view: element (i, j) is data[i*stride+j],
// or data[j*stride+i] when trans is set.
type operand struct {
	data   []float64
	stride int
	trans  bool
}

// what returns the start of a panic message of c's entry point:
// "linalg: Mul".
func (c config) what() string {
	if c.call == "" {
		return "linalg"
	}
	return strings.Replace(c.call, ".", ": ", 1)
}

// operandOf returns the view of x and its shape. *mat.Dense, anything with a
// RawMatrix method, and transposes of those are read in place; any other
// matrix is copied.
func operandOf(call, name string, x mat.Matrix) (op operand, r, c int) {
	if isNil(x) {
		panic(call + " with a nil " + name)
	}
	switch t := x.(type) {
	case *mat.Dense:
		if t.IsEmpty() {
			panic(call + " with an empty " + name)
		}
	case mat.Untransposer:
		u := t.Untranspose()
		if isNil(u) {
			panic(call + " with a nil " + name)
		}
		op, r, c = operandOf(call, name, u)
		op.trans = !op.trans
		return op, c, r
	}
	rm, ok := x.(mat.RawMatrixer)
	if !ok {
		rm = mat.DenseCopyOf(x)
	}
	g := rm.RawMatrix()
	if g.Rows == 0 || g.Cols == 0 {
		panic(call + " with an empty " + name)
	}
	return operand{data: g.Data, stride: g.Stride}, g.Rows, g.Cols
}

// isNil reports whether x holds a nil pointer of a type that would crash
// on use.
func isNil(x mat.Matrix) bool {
	if x == nil {
		return true
	}
	v := reflect.ValueOf(x) // any pointer type: *mat.SymDense, *mat.TriDense, a user's own
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func checkGeneral(name string, g blas64.General) {
	if g.Rows < 0 || g.Cols < 0 {
		panic(fmt.Sprintf("linalg: Gemm %s has negative shape %dx%d", name, g.Rows, g.Cols))
	}
	if g.Rows > 0 && g.Cols > 0 {
		if g.Stride < g.Cols {
			panic(fmt.Sprintf("linalg: Gemm %s stride %d < %d columns", name, g.Stride, g.Cols))
		}
		if len(g.Data) < (g.Rows-1)*g.Stride+g.Cols {
			panic(fmt.Sprintf("linalg: Gemm %s data has %d elements, %dx%d with stride %d needs %d",
				name, len(g.Data), g.Rows, g.Cols, g.Stride, (g.Rows-1)*g.Stride+g.Cols))
		}
	}
}

func generalOperand(name string, t blas.Transpose, g blas64.General) (op operand, r, c int) {
	op = operand{data: g.Data, stride: g.Stride}
	switch t {
	case blas.NoTrans:
		return op, g.Rows, g.Cols
	case blas.Trans, blas.ConjTrans:
		op.trans = true
		return op, g.Cols, g.Rows
	}
	panic(fmt.Sprintf("linalg: Gemm %s = %d is not a blas.Transpose", name, t))
}

// isolate returns op, or a copy of it if its memory overlaps dst, so that
// writing dst can never change what is read.
func (op operand) isolate(dst []float64) operand {
	if !overlaps(op.data, dst) {
		return op
	}
	op.data = append([]float64(nil), op.data...)
	return op
}

func overlaps(x, y []float64) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	x0 := uintptr(unsafe.Pointer(&x[0]))
	y0 := uintptr(unsafe.Pointer(&y[0]))
	x1 := x0 + uintptr(len(x))*8
	y1 := y0 + uintptr(len(y))*8
	return x0 < y1 && y0 < x1
}
