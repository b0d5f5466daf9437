package baseline

import (
	"slices"
	"testing"

	"go.uber.org/goleak"
)

func count(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func TestPipelineInOrder(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, n := range []int{0, 1, 7, 8, 9, 10_000} {
		var got []uint64
		for r := range Pipeline(count(n), func(v int) uint64 { return uint64(v * v) }, 3, 8) {
			got = append(got, r)
		}
		want := make([]uint64, n)
		for i := range want {
			want[i] = uint64(i * i)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: results out of order or missing", n)
		}
	}
}

func TestPipelineBreak(t *testing.T) {
	defer goleak.VerifyNone(t)
	k := 0
	for r := range Pipeline(count(1_000_000), func(v int) uint64 { return uint64(v) }, 2, 4) {
		if r != uint64(k) {
			t.Fatalf("result %d is %d", k, r)
		}
		if k++; k == 100 {
			break
		}
	}
}

func TestConcStreamInOrder(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, n := range []int{0, 1, 7, 10_000} {
		var got []uint64
		ConcStream(count(n), func(v int) uint64 { return uint64(v * v) }, 3, func(r uint64) { got = append(got, r) })
		want := make([]uint64, n)
		for i := range want {
			want[i] = uint64(i * i)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: results out of order or missing", n)
		}
	}
}
