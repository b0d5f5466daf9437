package main

import (
	"math"
	"slices"
	"testing"
)

func TestSummary(t *testing.T) {
	tests := []struct {
		runs            []int64
		med, min, maxTs int64
	}{
		{nil, 0, 0, 0},
		{[]int64{7}, 7, 7, 7},
		{[]int64{5, 1, 3}, 3, 1, 5},
		{[]int64{4, 1, 3, 2}, 2, 1, 4}, // (2+3)/2 rounds down
		{[]int64{10, 30, 20, 40}, 25, 10, 40},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.runs)
		m, lo, hi := summary(tt.runs)
		if m != tt.med || lo != tt.min || hi != tt.maxTs {
			t.Errorf("summary(%v) = %d,%d,%d want %d,%d,%d", tt.runs, m, lo, hi, tt.med, tt.min, tt.maxTs)
		}
		if !slices.Equal(in, tt.runs) {
			t.Errorf("summary reordered its input")
		}
	}
}

func TestWorkerCounts(t *testing.T) {
	tests := map[int][]int{1: {1}, 2: {1, 2}, 4: {1, 2, 4}, 6: {1, 2, 4, 6}, 8: {1, 2, 4, 8}, 9: {1, 2, 4, 8, 9}}
	for max, want := range tests {
		if got := workerCounts(max); !slices.Equal(got, want) {
			t.Errorf("workerCounts(%d) = %v, want %v", max, got, want)
		}
	}
}

func TestFitMemory(t *testing.T) {
	const a = 50 << 20
	tests := []struct {
		b, n float64
		ps   []int
	}{
		{1 << 20, 1, []int{1, 2}},
		{1 << 20, 1, []int{1, 2, 4, 8}},
		{2 << 20, 0.5, []int{1, 2, 4, 8, 16}},
		{512 << 10, 1.3, []int{2, 4, 8}},
	}
	for _, tt := range tests {
		rss := make([]float64, len(tt.ps))
		for i, p := range tt.ps {
			rss[i] = a + tt.b*math.Pow(float64(p), tt.n)
		}
		b, n, ok := fitMemory(a, tt.ps, rss)
		if !ok || math.Abs(n-tt.n) > 1e-9 || math.Abs(b-tt.b)/tt.b > 1e-9 {
			t.Errorf("fit(b=%g n=%g on %v) = b=%g n=%g ok=%v", tt.b, tt.n, tt.ps, b, n, ok)
		}
	}
	// Flat memory (all within the noise floor) fits n = 0.
	if _, n, ok := fitMemory(a, []int{1, 2, 4}, []float64{a + 1000, a - 5000, a + 200000}); !ok || n != 0 {
		t.Errorf("flat profile: n = %g ok=%v, want 0", n, ok)
	}
	// One worker count cannot be fitted.
	if _, _, ok := fitMemory(a, []int{1}, []float64{a + 1<<20}); ok {
		t.Errorf("fit with one point reported ok")
	}
}

func TestMedianMetrics(t *testing.T) {
	if got := medianMetrics(nil); got != nil {
		t.Errorf("medianMetrics(nil) = %v, want nil", got)
	}
	runs := map[string][]float64{"odd": {3, 1, 2}, "even": {4, 1, 3, 2}, "one": {7}}
	got := medianMetrics(runs)
	want := map[string]float64{"odd": 2, "even": 2.5, "one": 7}
	if len(got) != len(want) {
		t.Fatalf("medianMetrics = %v, want %v", got, want)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("median of %s %v = %v, want %v", name, runs[name], got[name], w)
		}
	}
	if !slices.Equal(runs["odd"], []float64{3, 1, 2}) {
		t.Errorf("medianMetrics reordered its input")
	}
}
