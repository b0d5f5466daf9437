package kernels

import (
	"strings"
	"testing"
)

// TestPoolSortsAllDesigns runs both recursive tests on every design at a size
// with a few levels of recursion.
func TestPoolSortsAllDesigns(t *testing.T) {
	for _, merge := range []bool{false, true} {
		for _, v := range poolsVariants {
			j, err := setupPoolSort(v, 2, 5*poolsSortCutoff+17, merge)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				j.Reset()
				j.Run()
				if err := j.Verify(); err != nil {
					t.Errorf("merge=%v %s: %v", merge, v, err)
				}
			}
			if j.Close != nil {
				j.Close()
			}
		}
	}
}

// TestPoolsVerifiersCatchWrongResults corrupts a pools test's result after
// a run and checks its oracle notices.
func TestPoolsVerifiersCatchWrongResults(t *testing.T) {
	ft := &flatTest{name: "light", n: 100}
	fj, _ := setupFlat(Serial, 1, ft)
	fj.Reset()
	fj.Run()
	if err := fj.Verify(); err != nil {
		t.Fatalf("light: %v", err)
	}
	ft.hits[7].Add(1) // task 7 "ran twice"
	if err := fj.Verify(); err == nil || !strings.Contains(err.Error(), "exactly once") {
		t.Errorf("double run not caught: %v", err)
	}
	sj, _ := setupPoolSort(Serial, 1, 10_000, true)
	sj.Reset()
	sj.Run()
	if err := sj.Verify(); err != nil {
		t.Fatalf("mergesort: %v", err)
	}
	sj.Reset() // unsorted input again
	if err := sj.Verify(); err == nil {
		t.Errorf("unsorted result not caught")
	}
}
