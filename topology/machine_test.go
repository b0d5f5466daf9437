package topology

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// testRoot is where the recorded sysfs trees live (see testdata/sysfs/README).
func testRoot(name string) string { return filepath.Join("testdata", "sysfs", name) }

func TestTopologyRecorded(t *testing.T) {
	const (
		S, T, L2, L3, P, N, R = DistanceSame, DistanceSMT, DistanceL2, DistanceL3, DistancePackage, DistanceNode, DistanceRemote
	)
	tests := []struct {
		tree  string
		cpus  []int
		nodes []int
		node  map[int]int // cpu -> node, for every online CPU
		dist  [][]int     // Distance(cpus[a], cpus[b]) for the CPUs listed, in order
	}{
		{
			tree: "2socket", cpus: []int{0, 1, 2, 3, 4, 5, 6, 7}, nodes: []int{0, 1},
			node: map[int]int{0: 0, 1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 1, 7: 1},
			dist: [][]int{
				{S, L3, L3, L3, R, R, R, R},
				{L3, S, L3, L3, R, R, R, R},
				{L3, L3, S, L3, R, R, R, R},
				{L3, L3, L3, S, R, R, R, R},
				{R, R, R, R, S, L3, L3, L3},
				{R, R, R, R, L3, S, L3, L3},
				{R, R, R, R, L3, L3, S, L3},
				{R, R, R, R, L3, L3, L3, S},
			},
		},
		{
			tree: "1node-2l2", cpus: []int{0, 1, 2, 3}, nodes: []int{0},
			node: map[int]int{0: 0, 1: 0, 2: 0, 3: 0},
			dist: [][]int{
				{S, L2, L3, L3},
				{L2, S, L3, L3},
				{L3, L3, S, L2},
				{L3, L3, L2, S},
			},
		},
		{
			// cpu 2 is offline; cpus 1 and 3 are SMT siblings of core 1.
			tree: "offline", cpus: []int{0, 1, 3}, nodes: []int{0},
			node: map[int]int{0: 0, 1: 0, 3: 0, 2: -1},
			dist: [][]int{
				{S, L3, L3},
				{L3, S, T},
				{L3, T, S},
			},
		},
		{
			tree: "2pkg-1node", cpus: []int{0, 1, 2, 3}, nodes: []int{0},
			node: map[int]int{0: 0, 1: 0, 2: 0, 3: 0},
			dist: [][]int{
				{S, L3, N, N},
				{L3, S, N, N},
				{N, N, S, L3},
				{N, N, L3, S},
			},
		},
		{
			// No node directory (one node 0) and no L3: distinct cores are
			// only known to share the package.
			tree: "nonuma", cpus: []int{0, 1}, nodes: []int{0},
			node: map[int]int{0: 0, 1: 0},
			dist: [][]int{{S, P}, {P, S}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.tree, func(t *testing.T) {
			topo, err := Read(testRoot(tc.tree))
			if err != nil {
				t.Fatalf("ReadTopology: %v", err)
			}
			if got := topo.CPUs(); !slices.Equal(got, tc.cpus) {
				t.Errorf("CPUs() = %v, want %v", got, tc.cpus)
			}
			if got := topo.NumCPUs(); got != len(tc.cpus) {
				t.Errorf("NumCPUs() = %d, want %d", got, len(tc.cpus))
			}
			if got := topo.Nodes(); !slices.Equal(got, tc.nodes) {
				t.Errorf("Nodes() = %v, want %v", got, tc.nodes)
			}
			if got := topo.NumNodes(); got != len(tc.nodes) {
				t.Errorf("NumNodes() = %d, want %d", got, len(tc.nodes))
			}
			for cpu, want := range tc.node {
				if got := topo.Node(cpu); got != want {
					t.Errorf("Node(%d) = %d, want %d", cpu, got, want)
				}
			}
			for a, row := range tc.dist {
				for b, want := range row {
					if got := topo.Distance(tc.cpus[a], tc.cpus[b]); got != want {
						t.Errorf("Distance(%d, %d) = %d, want %d", tc.cpus[a], tc.cpus[b], got, want)
					}
				}
			}
			topoCheckMetric(t, topo)
		})
	}
}

// topoCheckMetric checks what any topology must satisfy: 0 exactly on the
// diagonal, symmetric, on the documented scale, and an ultrametric (a tree
// distance: d(a,c) <= max(d(a,b), d(b,c))).
func topoCheckMetric(t *testing.T, topo *Machine) {
	t.Helper()
	cpus := topo.CPUs()
	for _, a := range cpus {
		for _, b := range cpus {
			d := topo.Distance(a, b)
			if (d == 0) != (a == b) || d < DistanceSame || d > DistanceRemote {
				t.Fatalf("Distance(%d, %d) = %d", a, b, d)
			}
			if e := topo.Distance(b, a); e != d {
				t.Fatalf("Distance(%d, %d) = %d but Distance(%d, %d) = %d", a, b, d, b, a, e)
			}
			for _, c := range cpus {
				if ac := topo.Distance(a, c); ac > max(d, topo.Distance(b, c)) {
					t.Fatalf("not a tree distance: d(%d,%d)=%d > max(d(%d,%d)=%d, d(%d,%d)=%d)",
						a, c, ac, a, b, d, b, c, topo.Distance(b, c))
				}
			}
		}
	}
	// Unknown CPUs are remote, never a panic.
	for _, u := range []int{-1, 1 << 20} {
		if d := topo.Distance(cpus[0], u); d != DistanceRemote {
			t.Errorf("Distance(%d, unknown %d) = %d, want DistanceRemote", cpus[0], u, d)
		}
		if n := topo.Node(u); n != -1 {
			t.Errorf("Node(unknown %d) = %d, want -1", u, n)
		}
	}
}

func TestTopologyGarbage(t *testing.T) {
	tests := []struct {
		tree     string
		want     []string // substrings of the error: the file and the bad content
		flatCPUs int      // NumCPUs of the flat fallback; 0: runtime.NumCPU()
	}{
		{"missing-online", []string{"cpu/online", "no such file"}, 0},
		{"open-range", []string{"cpu/online", `"0-"`, "open range"}, 0},
		{"huge-range", []string{"cpu/online", `"0-4000000000"`, "out of range"}, 0},
		{"empty-online", []string{"cpu/online", "no online CPUs"}, 0},
		{"letters", []string{"node0/cpulist", `"a,b"`, "bad CPU number"}, 2},
		{"reversed", []string{"cpu0/cache/index0/shared_cpu_list", `"3-1"`, "reversed range"}, 2},
		{"missing-core-id", []string{"cpu1/topology/core_id", "no such file"}, 2},
		{"bad-package", []string{"cpu0/topology/physical_package_id", `"zero"`}, 2},
		{"bad-level", []string{"cpu1/cache/index1/level", `"three"`}, 2},
		{"bad-type", []string{"cpu1/cache/index0/type", `"Magic"`}, 2},
		{"missing-shared", []string{"cpu0/cache/index1/shared_cpu_list", "no such file"}, 2},
		{"not-self", []string{"cpu1/cache/index0/shared_cpu_list", `"0"`, "cpu 1 itself"}, 2},
		{"inconsistent-l3", []string{"shared_cpu_list", `"0-1"`, `cpu 1's L3 lists "1"`}, 2},
		{"no-node", []string{"online cpu 1 is in no node"}, 2},
		{"two-nodes", []string{"node1/cpulist", "cpu 1 is in node 0 and node 1"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.tree, func(t *testing.T) {
			topo, err := Read(testRoot(filepath.Join("garbage", tc.tree)))
			if err == nil {
				t.Fatalf("ReadTopology: no error; got\n%v", topo)
			}
			msg := filepath.ToSlash(err.Error())
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %q", msg, w)
				}
			}
			if !strings.HasPrefix(msg, "topology: ") {
				t.Errorf("error %q lacks the package prefix", msg)
			}
			want := tc.flatCPUs
			if want == 0 {
				want = runtime.NumCPU()
			}
			if topo == nil || topo.NumCPUs() != want || topo.NumNodes() != 1 {
				t.Fatalf("fallback = %v, want flat with %d CPUs", topo, want)
			}
			topoCheckFlat(t, topo)
		})
	}
}

// topoCheckFlat checks that every pair of distinct CPUs is equally far apart.
func topoCheckFlat(t *testing.T, topo *Machine) {
	t.Helper()
	for _, a := range topo.CPUs() {
		for _, b := range topo.CPUs() {
			if a != b && topo.Distance(a, b) != DistancePackage {
				t.Fatalf("flat Distance(%d, %d) = %d, want DistancePackage", a, b, topo.Distance(a, b))
			}
		}
	}
	topoCheckMetric(t, topo)
}

func TestFlat(t *testing.T) {
	for _, n := range []int{1, 2, 7} {
		topo := Flat(n)
		if topo.NumCPUs() != n || topo.NumNodes() != 1 || topo.Node(n-1) != 0 {
			t.Errorf("Flat(%d): %d CPUs, %d nodes", n, topo.NumCPUs(), topo.NumNodes())
		}
		topoCheckFlat(t, topo)
	}
	for _, n := range []int{0, -3} {
		func() {
			defer func() {
				want := fmt.Sprintf("topology: Flat(%d): need at least 1 CPU", n)
				if r := recover(); r != want {
					t.Errorf("Flat(%d) panicked with %v, want %q", n, r, want)
				}
			}()
			Flat(n)
		}()
	}
}

func TestRestrict(t *testing.T) {
	topo, err := Read(testRoot("2socket"))
	if err != nil {
		t.Fatal(err)
	}
	r := topo.Restrict([]int{6, 1, 5, 99, 1})
	if got := r.CPUs(); !slices.Equal(got, []int{1, 5, 6}) {
		t.Fatalf("Restrict CPUs = %v", got)
	}
	if r.NumNodes() != 2 || r.Distance(5, 6) != DistanceL3 || r.Distance(1, 5) != DistanceRemote {
		t.Fatalf("Restrict lost structure:\n%v", r)
	}
	if r := topo.Restrict([]int{42}); r != topo {
		t.Fatalf("Restrict to no known CPU should return the topology itself")
	}
}

// TestTopologyThisMachine reads the real /sys: on a normal Linux it must not
// fail, and it must agree with what the process sees.
func TestTopologyThisMachine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no sysfs on " + runtime.GOOS)
	}
	if _, err := os.Stat("/sys/devices/system/cpu/online"); err != nil {
		t.Skipf("no /sys here: %v", err)
	}
	topo, err := Read("/sys")
	if err != nil {
		t.Fatalf("Read(/sys): %v", err)
	}
	t.Logf("this machine:\n%v", topo)
	if topo.NumCPUs() < runtime.NumCPU() {
		t.Errorf("%d online CPUs < runtime.NumCPU() = %d", topo.NumCPUs(), runtime.NumCPU())
	}
	if topo.NumNodes() < 1 {
		t.Errorf("NumNodes() = %d", topo.NumNodes())
	}
	topoCheckMetric(t, topo)
	if cur := Current(); cur != Current() || cur.String() != topo.String() {
		t.Errorf("Current differs from Read(/sys) or from itself")
	}
}
