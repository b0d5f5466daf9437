package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWorkSpanEndToEnd runs -workspan on two benchmarks and checks the
// table and workspan.csv: Cilkscale's columns, a row per benchmark, and
// the fork count fib's dag has by construction.
func TestWorkSpanEndToEnd(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := []string{"-workspan", "-quick", "-runs", "1", "-max-workers", "2", "-q", "-bench", "fib,sort", "-out", dir}
	if got := run(args, &out, &errb); got != exitOK {
		t.Fatalf("run(%q) = %d\nstdout:\n%s\nstderr:\n%s", args, got, out.String(), errb.String())
	}
	for _, want := range []string{"parallelism", "burdened", "P=256", "fib", "sort"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table has no %q:\n%s", want, out.String())
		}
	}
	f, err := os.Open(filepath.Join(dir, "workspan.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("workspan.csv has %d records, want a header and 2 rows: %q", len(recs), recs)
	}
	for _, col := range []string{"tag", "work (seconds)", "span (seconds)", "parallelism", "burdened_span (seconds)", "burdened_parallelism"} {
		if !slices.Contains(recs[0], col) {
			t.Errorf("workspan.csv header %q lacks Cilkscale's column %q", recs[0], col)
		}
	}
	forks := slices.Index(recs[0], "forks")
	// fib(25) forks at every call with n >= 2: fib(26)-1 = 121392 Joins.
	if recs[1][0] != "fib" || recs[1][forks] != "121392" {
		t.Errorf("fib row %q: want tag fib and 121392 forks", recs[1])
	}
}
