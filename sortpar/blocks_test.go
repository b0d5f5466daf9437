package sortpar

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gofork/gofork/core"
)

// TestPartitionStep checks one in-place partition step against its
// definition: afterwards every bucket's elements lie in its place, in
// increasing bucket order, and the range is a permutation of the input.
func TestPartitionStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sizes := []int{0, 1, 5, 64, 1000, 4095, 4096, 4097, 16383, 20000}
	if testing.Short() || raceEnabled {
		sizes = []int{0, 1, 5, 1000, 4097, 16383}
	}
	for _, workers := range []int{1, 2, 3} {
		pool := core.New(core.WithWorkers(workers))
		for _, n := range sizes {
			for _, b := range []int{1, 4, 16} {
				for _, k := range []int{1, 2, 7, 256} {
					for _, stripes := range []int{1, 2, 3, 5} {
						name := fmt.Sprintf("p=%d/n=%d/b=%d/k=%d/t=%d", workers, n, b, k, stripes)
						x := make([]int, n)
						for i := range x {
							x[i] = rng.IntN(1 << 20)
						}
						if rng.IntN(2) == 0 {
							for i := range x {
								x[i] = x[i] % (k/2 + 1) * (k/2 + 1) // skewed buckets
							}
						}
						in := slices.Clone(x)
						bucket := func(v int) int { return v % k }
						sc := newScratch[int](b)
						p := &partitionStep[int]{data: x, k: k, b: b, ws: make([]*workspace[int], stripes), fail: new(failure)}
						for s := range p.ws {
							p.ws[s] = sc.get()
						}
						core.RunValue(pool, func(w *core.Worker) struct{} {
							p.run(w, func(_ *core.Worker, ws *workspace[int]) { classifyFunc(ws, x, b, bucket) })
							return struct{}{}
						})
						for i := 1; i < n; i++ {
							if bucket(x[i]) < bucket(x[i-1]) {
								t.Fatalf("%s: buckets out of order at %d", name, i)
							}
						}
						st := p.ws[0].starts
						for j := range k {
							for i := st[j]; i < st[j+1]; i++ {
								if bucket(x[i]) != j {
									t.Fatalf("%s: element %d of bucket %d in [%d,%d) of %d", name, i, bucket(x[i]), st[j], st[j+1], j)
								}
							}
						}
						slices.Sort(in)
						slices.Sort(x)
						if !slices.Equal(in, x) {
							t.Fatalf("%s: not a permutation", name)
						}
					}
				}
			}
		}
		pool.Close()
	}
}

// classifyFunc is a plain classification kernel for the tests.
func classifyFunc[E any](ws *workspace[E], data []E, b int, bucket func(E) int) {
	write := ws.lo
	for _, v := range data[ws.lo:ws.hi] {
		j := bucket(v)
		ws.bucketBuf(j, b)[ws.fill[j]] = v
		ws.fill[j]++
		if ws.fill[j] == b {
			copy(data[write:write+b], ws.bucketBuf(j, b))
			ws.labels[write/b] = uint8(j)
			write += b
			ws.flushed[j]++
			ws.fill[j] = 0
		}
	}
	ws.full = (write - ws.lo) / b
}
