package main

import (
	"encoding/json"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// testMainEnv makes the test binary act as the forkbench command itself
// (its value is a JSON list of arguments), so tests can signal it.
const testMainEnv = "GOFORK_FORKBENCH_TEST_MAIN"

func TestMain(m *testing.M) {
	// The runner re-executes os.Executable(), which under go test is this
	// binary: answer as a child would.
	if spec, ok := os.LookupEnv(childEnv); ok {
		os.Exit(childMain(spec, os.Stdout))
	}
	if args, ok := os.LookupEnv(testMainEnv); ok {
		var a []string
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			panic(err)
		}
		os.Exit(run(a, os.Stdout, os.Stderr))
	}
	goleak.VerifyTestMain(m)
}
