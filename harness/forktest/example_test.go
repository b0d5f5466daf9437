package forktest_test

import (
	"fmt"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/forktest"
)

// A random program, checked on a pool of four workers against its serial
// interpretation.
func Example() {
	pool := core.New(core.WithWorkers(4))
	defer pool.Close()

	prog := forktest.Generate(42, forktest.Config{Leaves: 500})
	want := prog.Serial()
	got := prog.Parallel(pool)
	fmt.Println("same value:", got.Value == want.Value)
	fmt.Println("check:", forktest.Check(want, got))
	// Output:
	// same value: true
	// check: <nil>
}

// A program with faults panics with one of the faults the serial interpreter
// finds reachable; Parallel recovers it.
func ExampleProgram_Parallel() {
	pool := core.New(core.WithWorkers(2))
	defer pool.Close()

	for seed := uint64(0); ; seed++ {
		prog := forktest.Generate(seed, forktest.Config{Leaves: 200, Faults: 30})
		want := prog.Serial()
		if len(want.Faults) == 0 {
			continue
		}
		got := prog.Parallel(pool)
		_, isFault := got.Panic.(forktest.Fault)
		fmt.Println("panicked with a Fault:", isFault)
		fmt.Println("check:", forktest.Check(want, got))
		break
	}
	// Output:
	// panicked with a Fault: true
	// check: <nil>
}
