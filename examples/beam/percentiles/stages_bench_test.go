package percentiles

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// BenchmarkStages times each stage's work on one element, outside Beam:
// generating a block, parsing it (serially and with gofork), and sorting and
// summing the largest group of ten million records (with gofork on the
// default pool and on a pool of one worker, which separates what the radix
// sort gains from what the second worker does, and serially).
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
	for blk := range cfg.blocks() {
		cfg.forEachRequest(blk, func(r request) {
			if r.service == 0 {
				largest = append(largest, r.micros)
			}
		})
	}
	one := core.New(core.WithWorkers(1))
	defer one.Close()
	for _, c := range []struct {
		name string
		sort func(x []int64)
	}{
		{"gofork", func(x []int64) { sortpar.Sort(x); reduce.Sum(x) }},
		{"gofork-p=1", func(x []int64) { sortpar.Sort(x, par.WithPool(one)); reduce.Sum(x, par.WithPool(one)) }},
		{"serial", func(x []int64) {
			slices.Sort(x)
			var sum int64
			for _, v := range x {
				sum += v
			}
		}},
	} {
		b.Run(fmt.Sprintf("summarise/n=%d/%s", len(largest), c.name), func(b *testing.B) {
			x := make([]int64, len(largest))
			for b.Loop() {
				copy(x, largest)
				c.sort(x)
			}
		})
	}
}
