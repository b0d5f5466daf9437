package reduce_test

import (
	"slices"
	"testing"
)

// sizesAround returns the lengths the oracle tests run on: 0 to 3, each
// cutoff c (a serial cutoff, a block length) and c±1, 2c±1, 2^k±1 up to 2^17
// (2^14 under the race detector) and, unless the run is short or raced,
// 5c+3 and 10^6.
func sizesAround(cutoffs ...int) []int {
	s := []int{0, 1, 2, 3}
	for _, c := range cutoffs {
		s = append(s, c-1, c, c+1, 2*c-1, 2*c+1)
	}
	top := 17
	if raceEnabled {
		top = 14
	}
	for k := 2; k <= top; k += 3 {
		s = append(s, 1<<k-1, 1<<k+1)
	}
	if !testing.Short() && !raceEnabled {
		for _, c := range cutoffs {
			s = append(s, 5*c+3)
		}
		s = append(s, 1_000_000)
	}
	slices.Sort(s)
	return slices.Compact(s)
}
