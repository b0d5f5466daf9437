package kernels

import "testing"

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
