package gofork_test

import (
	"fmt"
	"testing"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/uts"
)

// utsBenchTrees are the UTS trees of BenchmarkUTS; the large ones only
// without -short.
var utsBenchTrees = []struct {
	name  string
	tree  uts.Tree
	large bool
}{
	{"T1", uts.T1, false},
	{"T3", uts.T3, false},
	{"T1L", uts.T1L, true},
	{"T3L", uts.T3L, true},
}

// BenchmarkUTS searches the libfork UTS trees serially and on pools of 1
// and 2 workers, reporting nodes/s. The reference C program (uts-seq) does
// about 5-9 M nodes/s on T1 and 10 M on T3 on one core of this machine kind.
func BenchmarkUTS(b *testing.B) {
	for _, c := range utsBenchTrees {
		if c.large && testing.Short() {
			continue
		}
		b.Run(c.name+"/serial", func(b *testing.B) {
			utsBenchRun(b, func() uts.Result { return uts.SearchSerial(c.tree) })
		})
		for _, p := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/p=%d", c.name, p), func(b *testing.B) {
				pool := core.New(core.WithWorkers(p))
				defer pool.Close()
				utsBenchRun(b, func() uts.Result { return uts.Search(c.tree, uts.WithPool(pool)) })
			})
		}
	}
}

func utsBenchRun(b *testing.B, search func() uts.Result) {
	b.ReportAllocs()
	var nodes int64
	for b.Loop() {
		nodes += search().Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
