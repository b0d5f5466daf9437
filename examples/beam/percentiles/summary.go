package percentiles

import (
	"fmt"
	"slices"

	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// A Summary is the latency profile of one service: how many requests, their
// total latency, and nearest-rank percentiles, all in microseconds.
type Summary struct {
	Service string
	Count   int64 // requests
	Sum     int64 // total latency; the mean is Sum / Count
	P50     int64 // median
	P99     int64
	P999    int64 // 99.9th percentile
	Max     int64
}

// String formats s as one line of the program's output.
func (s Summary) String() string {
	mean := 0.0
	if s.Count > 0 {
		mean = float64(s.Sum) / float64(s.Count)
	}
	return fmt.Sprintf("%s count=%d mean=%.1fus p50=%dus p99=%dus p99.9=%dus max=%dus",
		s.Service, s.Count, mean, s.P50, s.P99, s.P999, s.Max)
}

// rank returns the 0-based index of the nearest-rank q/1000 quantile of n
// sorted values: ceil(q·n/1000) counted from 1, and at least the first.
func rank(n, q int64) int64 {
	return max((q*n+999)/1000, 1) - 1
}

// summarise returns the summary of service's sorted latencies, which total sum.
// sorted must not be empty.
func summarise(service string, sorted []int64, sum int64) Summary {
	n := int64(len(sorted))
	return Summary{
		Service: service,
		Count:   n,
		Sum:     sum,
		P50:     sorted[rank(n, 500)],
		P99:     sorted[rank(n, 990)],
		P999:    sorted[rank(n, 999)],
		Max:     sorted[n-1],
	}
}

// summariseFn is the Summarise stage: one service's batches in, its Summary
// out.
type summariseFn struct {
	Serial bool // slices.Sort and a plain sum instead of sortpar and reduce
}

// ProcessElement concatenates the batches of service, sorts the latencies and
// emits their summary.
func (f *summariseFn) ProcessElement(service string, batches func(*Batch) bool, emit func(Summary)) {
	var all []int64
	var b Batch
	for batches(&b) {
		all = append(all, b.Micros...)
	}
	if len(all) == 0 {
		return
	}
	var sum int64
	if f.Serial {
		slices.Sort(all)
		for _, v := range all {
			sum += v
		}
	} else {
		sortpar.Sort(all)
		sum = reduce.Sum(all)
	}
	emit(summarise(service, all, sum))
}
