package percentiles

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// BenchmarkStages times each stage's work on one element, outside Beam:
// generating a block, parsing it (serially and with gofork), and sorting and
// summing the largest group of ten million records.
func BenchmarkStages(b *testing.B) {
	for _, services := range []int{100, 10_000} {
		cfg := testConfig(10_000_000)
		cfg.Services = services
		b.Run(fmt.Sprintf("generate/services=%d", services), func(b *testing.B) {
			for b.Loop() {
				cfg.block(1)
			}
			b.SetBytes(BlockRecords)
		})
		block := cfg.block(1)
		for _, serial := range []bool{false, true} {
			b.Run(fmt.Sprintf("parse/services=%d/serial=%v", services, serial), func(b *testing.B) {
				f := &parseFn{Serial: serial}
				f.ProcessElement(block, func(string, Batch) {}) // learn the block's shape
				for b.Loop() {
					f.ProcessElement(block, func(string, Batch) {})
				}
				b.SetBytes(BlockRecords)
			})
		}
	}
	cfg := testConfig(10_000_000)
	var largest []int64
	cfg.forEachRequest(0, func(request) {})
	for blk := range cfg.blocks() {
		cfg.forEachRequest(blk, func(r request) {
			if r.service == 0 {
				largest = append(largest, r.micros)
			}
		})
	}
	for _, serial := range []bool{false, true} {
		b.Run(fmt.Sprintf("summarise/n=%d/serial=%v", len(largest), serial), func(b *testing.B) {
			x := make([]int64, len(largest))
			for b.Loop() {
				copy(x, largest)
				if serial {
					slices.Sort(x)
				} else {
					sortpar.Sort(x)
					reduce.Sum(x)
				}
			}
		})
	}
}
