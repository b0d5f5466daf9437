package main

import (
	"math"
	"slices"
)

// summary returns the median, minimum and maximum of runs (0s when empty).
// The median of an even count is the mean of the middle two.
func summary(runs []int64) (median, lo, hi int64) {
	if len(runs) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(runs)
	slices.Sort(s)
	return middle(s), s[0], s[len(s)-1]
}

// middle returns the median of sorted, which is not empty: its middle
// element, or the mean of the middle two for an even count.
func middle[T int64 | float64](sorted []T) T {
	m := len(sorted) / 2
	if len(sorted)%2 == 0 {
		return (sorted[m-1] + sorted[m]) / 2
	}
	return sorted[m]
}

// medianMetrics returns the median of each named figure's runs, nil when
// there are none. The median of an even count is the mean of the middle two.
func medianMetrics(runs map[string][]float64) map[string]float64 {
	if len(runs) == 0 {
		return nil
	}
	out := make(map[string]float64, len(runs))
	for name, vs := range runs {
		s := slices.Clone(vs)
		slices.Sort(s)
		out[name] = middle(s)
	}
	return out
}

// rssNoiseFloor is the smallest excess over the serial program's peak RSS
// that the memory fit takes at face value: Go's heap and stack growth moves
// RSS by up to a few hundred KiB between identical runs.
const rssNoiseFloor = 256 << 10

// fitMemory fits peak RSS against worker count to the libfork paper's power
// law MRSS ≈ a + b·P^n (its Eq. 17). The constant a is pinned to the serial
// program's peak RSS (the problem's own memory plus the Go runtime), which
// leaves log(MRSS-a) = log b + n·log P: a straight line that two worker
// counts already determine. Excess below rssNoiseFloor counts as the floor,
// so a flat profile fits n ≈ 0. ok is false with fewer than two distinct P.
func fitMemory(a float64, ps []int, rss []float64) (b, n float64, ok bool) {
	var xs, ys []float64
	for i, p := range ps {
		if p < 1 || rss[i] <= 0 {
			continue
		}
		excess := max(rss[i]-a, rssNoiseFloor)
		xs = append(xs, math.Log(float64(p)))
		ys = append(ys, math.Log(excess))
	}
	if len(xs) < 2 {
		return 0, 0, false
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return 0, 0, false
	}
	n = sxy / sxx
	b = math.Exp(my - n*mx)
	return b, n, true
}

// workerCounts returns 1, 2, 4, ... up to max, plus max itself when it is
// not a power of two.
func workerCounts(max int) []int {
	var ps []int
	for p := 1; p <= max; p *= 2 {
		ps = append(ps, p)
	}
	if ps[len(ps)-1] != max {
		ps = append(ps, max)
	}
	return ps
}
