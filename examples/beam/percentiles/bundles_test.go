package percentiles

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"

	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

func init() {
	register.DoFn2x0[[]byte, func(string)](&rendezvousFn{})
	register.Emitter1[string]()
}

// rendezvousBundles is how many bundles TestManyBundlesCallGoforkAtOnce runs
// at once: prism runs up to eight bundles of a job at a time.
const rendezvousBundles = 6

// rendezvousTimeout bounds the wait for the other bundles, so that a runner
// that does not run them at once fails the test instead of hanging it.
const rendezvousTimeout = time.Minute

// rendezvous counts, per run, the bundles that have arrived; all[run] is
// closed when the last one does. The DoFns run in the test's process (prism's
// loopback workers), so they share it.
var rendezvous = struct {
	sync.Mutex
	arrived map[string]int
	all     map[string]chan struct{}
}{arrived: map[string]int{}, all: map[string]chan struct{}{}}

// arrive records one bundle of run and waits, at most rendezvousTimeout,
// until bundles of them have arrived. It panics if they do not.
func arrive(run string, bundles int) {
	rendezvous.Lock()
	all, ok := rendezvous.all[run]
	if !ok {
		all = make(chan struct{})
		rendezvous.all[run] = all
	}
	rendezvous.arrived[run]++
	if rendezvous.arrived[run] == bundles {
		close(all)
	}
	rendezvous.Unlock()
	select {
	case <-all:
	case <-time.After(rendezvousTimeout):
		rendezvous.Lock()
		n := rendezvous.arrived[run]
		rendezvous.Unlock()
		panic(fmt.Sprintf("rendezvous: %d of %d bundles arrived within %v", n, bundles, rendezvousTimeout))
	}
}

// rendezvousFn waits until Bundles bundles of Run are inside it, then sorts
// and sums Size pseudo-random numbers drawn from Seed with gofork, and emits
// what sortOracle computes serially.
type rendezvousFn struct {
	Run     string
	Bundles int
	Size    int
	Seed    uint64
}

func (f *rendezvousFn) ProcessElement(_ []byte, emit func(string)) {
	arrive(f.Run, f.Bundles)
	x := randomInts(f.Size, f.Seed)
	sortpar.Sort(x)
	emit(describeSorted(f.Seed, x, reduce.Sum(x), sortpar.IsSorted(x)))
}

func randomInts(n int, seed uint64) []int64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([]int64, n)
	for i := range x {
		x[i] = rng.Int64N(1 << 40)
	}
	return x
}

func describeSorted(seed uint64, x []int64, sum int64, sorted bool) string {
	return fmt.Sprintf("seed=%d n=%d sorted=%v sum=%d min=%d median=%d max=%d",
		seed, len(x), sorted, sum, x[0], x[len(x)/2], x[len(x)-1])
}

// sortOracle is rendezvousFn's output computed with slices.Sort.
func sortOracle(n int, seed uint64) string {
	x := randomInts(n, seed)
	slices.Sort(x)
	var sum int64
	for _, v := range x {
		sum += v
	}
	return describeSorted(seed, x, sum, true)
}

// TestManyBundlesCallGoforkAtOnce runs rendezvousBundles independent stages
// whose bundles wait for each other before they sort, so that all of them
// submit their sorts to the shared default pool at the same time, and checks
// that every one finishes with the serial result.
func TestManyBundlesCallGoforkAtOnce(t *testing.T) {
	size := 1 << 20
	if testing.Short() {
		size = 1 << 17
	}
	run := fmt.Sprintf("%s/%d", t.Name(), time.Now().UnixNano())
	p, s := beam.NewPipelineWithRoot()
	var outs []beam.PCollection
	var want []any
	for k := range rendezvousBundles {
		seed := uint64(k + 1)
		fn := &rendezvousFn{Run: run, Bundles: rendezvousBundles, Size: size, Seed: seed}
		outs = append(outs, beam.ParDo(s, fn, beam.Impulse(s)))
		want = append(want, sortOracle(size, seed))
	}
	passert.Equals(s, beam.Flatten(s, outs...), want...)
	if err := runPrism(t, p); err != nil {
		t.Fatal(err)
	}
}
