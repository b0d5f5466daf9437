package reduce_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// affine is x -> a*x + b modulo 2^64. Composition is associative and not
// commutative, and cheap: the oracle tests use it to catch any combination
// made out of order.
type affine struct{ a, b uint64 }

// then returns f followed by g.
func then(f, g affine) affine { return affine{g.a * f.a, g.a*f.b + g.b} }

var affineID = affine{1, 0}

func addInt64(x, y int64) int64 { return x + y }

// scanOracle is the serial loop the scans must match.
func scanOracle[E any](src []E, identity E, op func(E, E) E) (excl, incl []E, total E) {
	excl, incl = make([]E, len(src)), make([]E, len(src))
	acc := identity
	for i, v := range src {
		excl[i] = acc
		acc = op(acc, v)
		if i == 0 {
			incl[i] = v
		} else {
			incl[i] = op(incl[i-1], v)
		}
	}
	return excl, incl, acc
}

// checkScan runs Scan and ScanInclusive into a fresh dst and in place, and
// compares them with the serial loop.
func checkScan[E comparable](t *testing.T, src []E, identity E, op func(E, E) E, opts ...par.Option) {
	t.Helper()
	excl, incl, total := scanOracle(src, identity, op)
	dst := make([]E, len(src))
	if got := reduce.Scan(dst, src, identity, op, opts...); got != total {
		t.Fatalf("n=%d: Scan returned %v, want %v", len(src), got, total)
	}
	if i := firstDiff(dst, excl); i >= 0 {
		t.Fatalf("n=%d: Scan: dst[%d] = %v, want %v", len(src), i, dst[i], excl[i])
	}
	reduce.ScanInclusive(dst, src, op, opts...)
	if i := firstDiff(dst, incl); i >= 0 {
		t.Fatalf("n=%d: ScanInclusive: dst[%d] = %v, want %v", len(src), i, dst[i], incl[i])
	}
	in := slices.Clone(src)
	if got := reduce.Scan(in, in, identity, op, opts...); got != total {
		t.Fatalf("n=%d: in-place Scan returned %v, want %v", len(src), got, total)
	}
	if i := firstDiff(in, excl); i >= 0 {
		t.Fatalf("n=%d: in-place Scan: [%d] = %v, want %v", len(src), i, in[i], excl[i])
	}
	copy(in, src)
	reduce.ScanInclusive(in, in, op, opts...)
	if i := firstDiff(in, incl); i >= 0 {
		t.Fatalf("n=%d: in-place ScanInclusive: [%d] = %v, want %v", len(src), i, in[i], incl[i])
	}
}

// firstDiff returns the first index where a and b differ, or -1.
func firstDiff[E comparable](a, b []E) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

func TestScanMatchesSerialLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		for _, n := range sizesAround(reduce.ScanSerialMax) {
			fs := make([]affine, n)
			ints := make([]int64, n)
			for i := range fs {
				fs[i] = affine{rng.Uint64() | 1, rng.Uint64()}
				ints[i] = rng.Int64() >> 8
			}
			checkScan(t, fs, affineID, then, par.WithPool(p))
			checkScan(t, ints, 0, addInt64, par.WithPool(p))
		}
	})
}

func TestScanStrings(t *testing.T) {
	// Concatenation: not commutative, and every element shows in the result.
	concat := func(a, b string) string { return a + b }
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		// Just past the serial cutoff: dst[i] holds i strings, so the
		// output grows as n².
		for _, n := range []int{0, 1, 7, reduce.ScanSerialMax + 1} {
			src := make([]string, n)
			for i := range src {
				src[i] = strconv.Itoa(i) + ","
			}
			dst := make([]string, n)
			total := reduce.Scan(dst, src, "", concat, par.WithPool(p))
			if want := strings.Join(src, ""); total != want {
				t.Fatalf("n=%d: total %.40q..., want %.40q...", n, total, want)
			}
			for _, i := range []int{0, n / 3, n / 2, n - 1} {
				if i >= 0 && i < n && dst[i] != strings.Join(src[:i], "") {
					t.Fatalf("n=%d: dst[%d] = %.40q...", n, i, dst[i])
				}
			}
		}
	})
}

func TestScanCallsOp(t *testing.T) {
	// One worker folds nothing ahead: op runs once per element, the
	// serial loop's count.
	p := core.New(core.WithWorkers(1), core.WithMaxSpares(0)) // no spare: a GC assist wait can start one (WithMaxSpares)
	defer p.Close()
	n := 5*reduce.ScanSerialMax + 17
	src := make([]int64, n)
	dst := make([]int64, n)
	var calls atomic.Int64
	reduce.Scan(dst, src, 0, func(a, b int64) int64 { calls.Add(1); return a + b }, par.WithPool(p))
	if got := calls.Load(); got != int64(n) {
		t.Errorf("one worker: op called %d times for %d elements (%s)", got, n, thieves(p))
	}
}

func TestScanBadArguments(t *testing.T) {
	buf := make([]int64, 10)
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"nil op", func() { reduce.Scan(buf, buf, 0, nil) }, "reduce: Scan with a nil op"},
		{"lengths", func() { reduce.Scan(buf[:3], buf[4:8], 0, addInt64) },
			"reduce: Scan: len(dst) = 3, len(src) = 4"},
		{"overlap", func() { reduce.Scan(buf[1:6], buf[:5], 0, addInt64) },
			"reduce: Scan: dst[0] is src[1]: dst must be src itself or not overlap it"},
		{"overlap inclusive", func() { reduce.ScanInclusive(buf[:5], buf[4:9], addInt64) },
			"reduce: ScanInclusive: dst[4] is src[0]: dst must be src itself or not overlap it"},
	} {
		for i := range buf {
			buf[i] = int64(i)
		}
		if got := catch(c.f); got != c.want {
			t.Errorf("%s: panic %v, want %q", c.name, got, c.want)
		}
		for i, v := range buf {
			if v != int64(i) {
				t.Fatalf("%s: buf[%d] = %d: written before the panic", c.name, i, v)
			}
		}
	}
}

func TestScanPanic(t *testing.T) {
	pooltest.Each(t, func(t *testing.T, p *core.Pool) {
		n := 200_000
		src := make([]int64, n)
		for i := range src {
			src[i] = int64(i)
		}
		dst := make([]int64, n)
		for _, at := range []int64{5, int64(n / 2), int64(n - 1)} {
			v := catch(func() {
				reduce.Scan(dst, src, 0, func(a, b int64) int64 {
					if b == at {
						panic(fmt.Sprint("op saw ", at))
					}
					return a + b
				}, par.WithPool(p))
			})
			if v != fmt.Sprint("op saw ", at) {
				t.Fatalf("panic at %d: recovered %v", at, v)
			}
		}
	})
}

// TestScanManyWorkers scans a slice just past the serial threshold on a
// pool with more workers than it has elements: no segment may be empty.
func TestScanManyWorkers(t *testing.T) {
	p := core.New(core.WithWorkers(64))
	defer p.Close()
	for _, n := range []int{reduce.ScanSerialMax + 1, 3 * reduce.ScanSerialMax, 70_000} {
		src := make([]int64, n)
		for i := range src {
			src[i] = int64(i%7) - 3
		}
		dst := make([]int64, n)
		total := reduce.Scan(dst, src, 0, func(a, b int64) int64 { return a + b }, par.WithPool(p))
		var s int64
		for i, v := range src {
			if dst[i] != s {
				t.Fatalf("n=%d: dst[%d] = %d, want %d", n, i, dst[i], s)
			}
			s += v
		}
		if total != s {
			t.Fatalf("n=%d: total %d, want %d", n, total, s)
		}
		reduce.ScanInclusive(dst, src, func(a, b int64) int64 { return a + b }, par.WithPool(p))
		if dst[n-1] != s {
			t.Fatalf("n=%d: inclusive last %d, want %d", n, dst[n-1], s)
		}
	}
}
