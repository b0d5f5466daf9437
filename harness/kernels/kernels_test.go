package kernels

import (
	"strings"
	"testing"
)

// TestEveryKernelVerifies runs every kernel of the main and primitives
// suites once per variant at the Quick scale, checks that its oracle
// accepts the result, and that it rejects the input before any run where a
// run changes the data in place.
func TestEveryKernelVerifies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every kernel")
	}
	for _, k := range All() {
		if k.Suite != SuiteMain && k.Suite != suitePrimitives {
			continue
		}
		for _, v := range k.Variants {
			t.Run(k.Name+"/"+v, func(t *testing.T) {
				j, err := k.Setup(v, 2, Quick)
				if err != nil {
					t.Fatal(err)
				}
				if j.Close != nil {
					defer j.Close()
				}
				if j.Reset != nil {
					j.Reset()
				}
				j.Run()
				if err := j.Verify(); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestVerifiersCatchWrongResults checks that an oracle rejects a result
// that is not the kernel's: a sort's unsorted input, fib's wrong count.
func TestVerifiersCatchWrongResults(t *testing.T) {
	for _, name := range []string{"sort", "sort-func", "prim-merge", "prim-scan", "prim-deletefunc"} {
		var k *Kernel
		for _, c := range All() {
			if c.Name == name {
				k = c
			}
		}
		j, err := k.Setup(Serial, 1, Quick)
		if err != nil {
			t.Fatal(err)
		}
		j.Reset() // the input, not the result
		if err := j.Verify(); err == nil {
			t.Errorf("%s: the unprocessed input passed the oracle", name)
		}
	}
	if err := IntegrateCheck(IntNQuick, 1); err == nil || !strings.Contains(err.Error(), "want") {
		t.Errorf("IntegrateCheck accepted 1: %v", err)
	}
}

// TestKernelsAgree checks the kernel functions the go test benchmarks call
// against their oracles.
func TestKernelsAgree(t *testing.T) {
	if got, want := FibSerial(FibNQuick), FibIter(FibNQuick); got != want {
		t.Errorf("FibSerial(%d) = %d, want %d", FibNQuick, got, want)
	}
	if got := FibGoroutines(FibNQuick, FibCut); got != FibIter(FibNQuick) {
		t.Errorf("FibGoroutines = %d", got)
	}
	if got := NQueensSerial(NQBoard{}, 0); got != NQWant {
		t.Errorf("NQueensSerial = %d, want %d", got, NQWant)
	}
	if got := NQueensGoroutines(NQArg{}, NQGrain); got != NQWant {
		t.Errorf("NQueensGoroutines = %d, want %d", got, NQWant)
	}
	if err := IntegrateCheck(IntNQuick, IntegrateGoroutines(IntegrateGrainRoot(IntNQuick))); err != nil {
		t.Error(err)
	}
}

// TestServerRowsReportGoroutines runs the callers-in-turn row at the Quick
// scale and checks the figures it reports beside its time: p99/mean and
// the requests per second, and the goroutines left once idle, which for
// the gofork variant is only the pool's governor (its workers end after
// the row's keep-alive) and for the goroutines baseline none.
func TestServerRowsReportGoroutines(t *testing.T) {
	var k *Kernel
	for _, c := range All() {
		if c.Name == "server-turns-p99" {
			k = c
		}
	}
	if k == nil {
		t.Fatal("no server-turns-p99 kernel")
	}
	for v, most := range map[string]float64{Serial: 0, Gofork: 1} {
		t.Run(v, func(t *testing.T) {
			j, err := k.Setup(v, 2, Quick)
			if err != nil {
				t.Fatal(err)
			}
			if j.Close != nil {
				defer j.Close()
			}
			j.Run()
			if err := j.Verify(); err != nil {
				t.Fatal(err)
			}
			m := j.Metrics()
			for _, name := range []string{"goroutines-after-run", "goroutines-after-idle", "p99/mean", "req/s"} {
				if _, ok := m[name]; !ok {
					t.Errorf("no %s among %v", name, m)
				}
			}
			if m["p99/mean"] <= 0 || m["req/s"] <= 0 {
				t.Errorf("p99/mean %v, req/s %v: want both positive", m["p99/mean"], m["req/s"])
			}
			if got := m["goroutines-after-idle"]; got > most {
				t.Errorf("%s: %v goroutines left after idle, want at most %v", v, got, most)
			}
		})
	}
}
