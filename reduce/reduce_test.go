package reduce_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
	"golang.org/x/exp/constraints"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

func TestMain(m *testing.M) {
	// The Default pool, once started by an example, lives for the whole
	// process by design.
	goleak.VerifyTestMain(m, pooltest.IgnoreDefault()...)
}

func partitioners() []struct {
	name string
	opt  par.Option
} {
	return []struct {
		name string
		opt  par.Option
	}{
		{"auto", par.Auto()},
		{"auto-grain3", par.Grain(3)},
		{"static", par.Static()},
		{"simple1", par.Simple(1)},
		{"simple5", par.Simple(5)},
		{"affinity", par.Affinity(new(par.AffinityState))},
	}
}

// concatSerial is the serial fold that string concatenation must match.
func concatSerial[I constraints.Integer](lo, hi I) string {
	var b strings.Builder
	for i := lo; i < hi; i++ {
		fmt.Fprintf(&b, "%d,", i)
	}
	return b.String()
}

func checkConcat[I constraints.Integer](t *testing.T, lo, hi I, opts ...par.Option) {
	t.Helper()
	want := concatSerial(lo, hi)
	got := reduce.Reduce(lo, hi, "", func(a, b I, acc string) string {
		return acc + concatSerial(a, b)
	}, func(x, y string) string { return x + y }, opts...)
	if got != want {
		t.Fatalf("Reduce [%v, %v): %.60q..., want %.60q...", lo, hi, got, want)
	}
	got = reduce.Deterministic(lo, hi, "", func(a, b I, acc string) string {
		return acc + concatSerial(a, b)
	}, func(x, y string) string { return x + y }, opts...)
	if got != want {
		t.Fatalf("Deterministic [%v, %v): %.60q..., want %.60q...", lo, hi, got, want)
	}
	body := &concatBody[I]{splits: new(atomic.Int32)}
	reduce.ReduceBody(lo, hi, body, opts...)
	if got := body.b.String(); got != want {
		t.Fatalf("ReduceBody [%v, %v): %.60q..., want %.60q...", lo, hi, got, want)
	}
}

// concatBody is a Body that concatenates the decimal indices it sees.
type concatBody[I constraints.Integer] struct {
	b      strings.Builder
	next   I             // the index the next Accumulate must start at (checked)
	used   bool          // Accumulate has run
	splits *atomic.Int32 // shared by every body of one reduction
}

func (c *concatBody[I]) Accumulate(lo, hi I) {
	if c.used && lo != c.next {
		panic(fmt.Sprintf("Accumulate(%v, %v) after a subrange ending at %v", lo, hi, c.next))
	}
	c.used, c.next = true, hi
	c.b.WriteString(concatSerial(lo, hi))
}

func (c *concatBody[I]) Split() *concatBody[I] {
	c.splits.Add(1)
	return &concatBody[I]{splits: c.splits}
}

func (c *concatBody[I]) Join(r *concatBody[I]) {
	if r.used && c.used && r.next <= c.next {
		panic("Join of a body that is not to the right")
	}
	c.b.WriteString(r.b.String())
	if r.used {
		c.used, c.next = true, r.next
	}
}

func TestReduceMatchesSerialFold(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			t.Run(pt.name, func(t *testing.T) {
				opts := []par.Option{pt.opt, par.WithPool(p)}
				for _, r := range [][2]int{{0, 0}, {3, 1}, {0, 1}, {0, 2}, {0, 97}, {0, 1025}, {-300, 211}} {
					checkConcat(t, r[0], r[1], opts...)
				}
				checkConcat(t, uint8(0), uint8(255), opts...)
				checkConcat(t, int8(-128), int8(127), opts...)
				checkConcat(t, uint64(math.MaxUint64-200), uint64(math.MaxUint64), opts...)
				checkConcat(t, int64(math.MinInt64), int64(math.MinInt64+100), opts...)
			})
		}
	})
}

func TestReduceBodyNoSplitOnOneWorker(t *testing.T) {
	p := core.New(core.WithWorkers(1), core.WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer p.Close()
	body := &concatBody[int]{splits: new(atomic.Int32)}
	// From a task on the worker: the loop runs there alone (from outside
	// it runs on the caller, and the idle worker may steal a part).
	p.RunOn(0, func(*core.Worker) { reduce.ReduceBody(0, 5000, body, par.Simple(1), par.WithPool(p)) })
	if n := body.splits.Load(); n != 0 {
		t.Errorf("one worker: Split called %d times, want 0 (%s)", n, thieves(p))
	}
	if body.b.String() != concatSerial(0, 5000) {
		t.Errorf("one worker: wrong result")
	}
}

// floats returns n values of wildly different magnitudes and signs, so that
// any change in the order of additions shows in the bits of the sum.
func floats(n int) []float64 {
	r := rand.New(rand.NewPCG(1, 1))
	s := make([]float64, n)
	for i := range s {
		s[i] = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(30)-15))
	}
	return s
}

func TestDeterministicBits(t *testing.T) {
	n := 300_001
	runs := 20
	if testing.Short() {
		n, runs = 50_001, 5
	}
	x := floats(n)
	sumBody := func(lo, hi int, acc float64) float64 {
		for _, v := range x[lo:hi] {
			acc += v
		}
		return acc
	}
	addF := func(a, b float64) float64 { return a + b }
	ref := core.New(core.WithWorkers(1))
	want := reduce.Deterministic(0, n, 0.0, sumBody, addF, par.WithPool(ref))
	wantSum := reduce.Sum(x, par.WithPool(ref))
	wantG := reduce.Deterministic(0, n, 0.0, sumBody, addF, par.Grain(100), par.WithPool(ref))
	ref.Close()
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			if strings.HasPrefix(pt.name, "simple") || pt.name == "auto-grain3" {
				continue // these name another tree
			}
			for run := range runs {
				got := reduce.Deterministic(0, n, 0.0, sumBody, addF, pt.opt, par.WithPool(p))
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%s run %d: %x, want %x", pt.name, run, math.Float64bits(got), math.Float64bits(want))
				}
				got = reduce.Sum(x, pt.opt, par.WithPool(p))
				if math.Float64bits(got) != math.Float64bits(wantSum) {
					t.Fatalf("Sum %s run %d: %x, want %x", pt.name, run, math.Float64bits(got), math.Float64bits(wantSum))
				}
			}
			got := reduce.Deterministic(0, n, 0.0, sumBody, addF, pt.opt, par.Grain(100), par.WithPool(p))
			if math.Float64bits(got) != math.Float64bits(wantG) {
				t.Fatalf("%s Grain(100): %x, want %x", pt.name, math.Float64bits(got), math.Float64bits(wantG))
			}
		}
	})
}

func TestSliceHelpers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			opts := []par.Option{pt.opt, par.WithPool(p)}
			for _, n := range []int{1, 2, 3, 1000, 4097} {
				ints := make([]int64, n)
				for i := range ints {
					ints[i] = r.Int64N(1000) - 500
				}
				var sum int64
				for _, v := range ints {
					sum += v
				}
				if got := reduce.Sum(ints, opts...); got != sum {
					t.Fatalf("%s n=%d: Sum = %d, want %d", pt.name, n, got, sum)
				}
				if got, want := reduce.Min(ints, opts...), slices.Min(ints); got != want {
					t.Fatalf("%s n=%d: Min = %d, want %d", pt.name, n, got, want)
				}
				if got, want := reduce.Max(ints, opts...), slices.Max(ints); got != want {
					t.Fatalf("%s n=%d: Max = %d, want %d", pt.name, n, got, want)
				}
				// Ties on the key: the first minimal / maximal element wins.
				type kv struct{ k, i int }
				items := make([]kv, n)
				for i := range items {
					items[i] = kv{r.IntN(5), i}
				}
				byKey := func(a, b kv) int { return cmp.Compare(a.k, b.k) }
				if got, want := reduce.MinFunc(items, byKey, opts...), slices.MinFunc(items, byKey); got != want {
					t.Fatalf("%s n=%d: MinFunc = %v, want %v", pt.name, n, got, want)
				}
				if got, want := reduce.MaxFunc(items, byKey, opts...), slices.MaxFunc(items, byKey); got != want {
					t.Fatalf("%s n=%d: MaxFunc = %v, want %v", pt.name, n, got, want)
				}
				neg := func(v int64) bool { return v < 0 }
				want := 0
				for _, v := range ints {
					if neg(v) {
						want++
					}
				}
				if got := reduce.CountFunc(ints, neg, opts...); got != want {
					t.Fatalf("%s n=%d: CountFunc = %d, want %d", pt.name, n, got, want)
				}
				str := reduce.MapReduce(ints, "", func(v int64) string { return strconv.FormatInt(v, 10) + " " },
					func(x, y string) string { return x + y }, opts...)
				var b strings.Builder
				for _, v := range ints {
					b.WriteString(strconv.FormatInt(v, 10) + " ")
				}
				if str != b.String() {
					t.Fatalf("%s n=%d: MapReduce differs from the serial fold", pt.name, n)
				}
			}
			nan := []float64{1, 2, math.NaN(), -1}
			if !math.IsNaN(reduce.Min(nan, opts...)) || !math.IsNaN(reduce.Max(nan, opts...)) {
				t.Errorf("%s: Min/Max do not propagate NaN", pt.name)
			}
		}
	})
}

func TestEmpty(t *testing.T) {
	if got := reduce.Sum([]float64(nil)); got != 0 {
		t.Errorf("Sum(nil) = %v", got)
	}
	if got := reduce.CountFunc([]int{}, func(int) bool { return true }); got != 0 {
		t.Errorf("CountFunc(empty) = %v", got)
	}
	if got := reduce.Reduce(5, 5, "id", func(int, int, string) string { return "x" },
		func(x, y string) string { return x + y }); got != "id" {
		t.Errorf("Reduce on an empty range = %q, want the identity", got)
	}
	body := &concatBody[int]{splits: new(atomic.Int32)}
	reduce.ReduceBody(3, -3, body)
	if body.used {
		t.Errorf("ReduceBody on an empty range accumulated")
	}
	for name, f := range map[string]func(){
		"reduce: Min of an empty slice":     func() { reduce.Min([]int{}) },
		"reduce: Max of an empty slice":     func() { reduce.Max([]int{}) },
		"reduce: MinFunc of an empty slice": func() { reduce.MinFunc([]int{}, cmp.Compare[int]) },
		"reduce: MaxFunc of an empty slice": func() { reduce.MaxFunc([]int{}, cmp.Compare[int]) },
	} {
		if v := catch(f); v != name {
			t.Errorf("panic %v, want %q", v, name)
		}
	}
}

// panicValue returns the value of a recovered panic, unwrapping a core
// wrapper that carries it in a Value field (*core.PanicError) or behind Unwrap.
func panicValue(r any) any {
	for r != nil {
		v := reflect.ValueOf(r)
		if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			if f := v.Elem().FieldByName("Value"); f.IsValid() && f.CanInterface() {
				r = f.Interface()
				continue
			}
		}
		if u, ok := r.(interface{ Unwrap() error }); ok && u.Unwrap() != nil {
			r = u.Unwrap()
			continue
		}
		return r
	}
	return nil
}

// catch runs f and returns the value it panicked with, or nil.
func catch(f func()) (v any) {
	defer func() { v = panicValue(recover()) }()
	f()
	return nil
}

func TestReducePanic(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, pt := range partitioners() {
			var after atomic.Int32
			var panicked atomic.Bool
			v := catch(func() {
				reduce.Reduce(0, 400, 0, func(lo, hi, acc int) int {
					if panicked.Load() {
						after.Add(1)
					}
					if lo <= 77 && 77 < hi {
						panicked.Store(true)
						panic("bad 77")
					}
					return acc + hi - lo
				}, func(x, y int) int { return x + y }, pt.opt, par.WithPool(p))
			})
			if v != "bad 77" {
				t.Fatalf("%s: recovered %v", pt.name, v)
			}
			if p.Workers() == 1 && after.Load() != 0 {
				t.Errorf("%s: %d subranges started after the panic", pt.name, after.Load())
			}
		}
	})
}
