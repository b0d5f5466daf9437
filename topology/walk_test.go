package topology

import (
	"slices"
	"testing"
)

func TestString(t *testing.T) {
	topo, err := Read(testRoot("offline"))
	if err != nil {
		t.Fatal(err)
	}
	want := `topology: 3 CPUs, 1 NUMA node
node 0
  package 0
    L3 cpus 0-1,3
      L2 cpus 0
        core 0: cpu 0
      L2 cpus 1,3
        core 1: cpus 1,3
`
	if got := topo.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	want = `topology: 2 CPUs, 1 NUMA node
node 0
  package 0
    core 0: cpu 0
    core 1: cpu 1
`
	if got := Flat(2).String(); got != want {
		t.Errorf("flat String() =\n%s\nwant\n%s", got, want)
	}
}

// TestSpread checks the spread order on the recorded trees: nodes, then
// packages, caches and cores round-robin, SMT siblings last; and that it
// names every CPU once.
func TestSpread(t *testing.T) {
	tests := []struct {
		tree string
		want []int
	}{
		{"2socket", []int{0, 4, 1, 5, 2, 6, 3, 7}},
		{"1node-2l2", []int{0, 2, 1, 3}},
		{"offline", []int{0, 1, 3}}, // cores before SMT siblings
		{"2pkg-1node", []int{0, 2, 1, 3}},
		{"nonuma", []int{0, 1}},
	}
	for _, tc := range tests {
		m, err := Read(testRoot(tc.tree))
		if err != nil {
			t.Fatal(err)
		}
		got := m.Spread()
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: Spread() = %v, want %v", tc.tree, got, tc.want)
		}
		if sorted := slices.Sorted(slices.Values(got)); !slices.Equal(sorted, m.CPUs()) {
			t.Errorf("%s: Spread() = %v is not a permutation of CPUs() = %v", tc.tree, got, m.CPUs())
		}
	}
	if got := Flat(3).Spread(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("Flat(3).Spread() = %v", got)
	}
}
