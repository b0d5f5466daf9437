package topology

import (
	"cmp"
	"fmt"
	"slices"
)

// The distance scale of (*Machine).Distance. Two CPUs are as far apart as the
// innermost level of the tree that they do NOT share, walking down from the
// NUMA node: each level that separates them adds to the distance. The scale
// is fixed, so a level the machine does not report (no L3 in sysfs, say)
// leaves a gap rather than shifting the numbers.
const (
	// DistanceSame: the same CPU.
	DistanceSame = 0
	// DistanceSMT: two hardware threads (SMT siblings) of one core.
	DistanceSMT = 1
	// DistanceL2: different cores that share an L2 cache.
	DistanceL2 = 2
	// DistanceL3: cores that share an L3 cache but not an L2.
	DistanceL3 = 3
	// DistancePackage: the same package (socket) but no shared L2 or L3 is
	// known. Every pair of distinct CPUs of a Flat machine is at this distance.
	DistancePackage = 4
	// DistanceNode: the same NUMA node but different packages.
	DistanceNode = 5
	// DistanceRemote: different NUMA nodes; also the distance to a CPU the
	// machine does not know.
	DistanceRemote = 6
)

// A Machine is the tree of a machine's online CPUs: NUMA node > package >
// shared cache (L3, then L2) > core > CPU. It is immutable once built.
//
// The tree is node-major: on a machine whose packages are split into several
// NUMA nodes (sub-NUMA clustering) a package appears under each of its nodes,
// and CPUs on different nodes are DistanceRemote apart even inside one
// package.
//
// Build one with Read, Flat or Current; the zero Machine has no CPUs and is
// of no use.
type Machine struct {
	cpus  []cpu   // online CPUs, in tree order (node, package, L3, L2, core, id)
	index []int32 // CPU number -> position in cpus; -1 for CPUs not in the machine
	nodes []int   // distinct NUMA node numbers of the online CPUs, ascending
}

// cpu is one leaf of the tree. The cache keys (l2, l3) are the smallest
// online CPU sharing that cache, or -1 when the machine reports no such
// cache.
type cpu struct {
	id     int // CPU number (the N of cpuN)
	node   int // NUMA node number
	pkg    int // physical_package_id
	core   int // unique core key over the whole machine (package, die, core_id)
	coreID int // core_id as the kernel reports it, for String
	l2, l3 int // cache group keys, -1 if unknown
}

// Flat returns a machine of n CPUs numbered 0..n-1 with no known structure:
// one node, one package, one core per CPU and no shared caches, so every pair
// of distinct CPUs is at the same distance (DistancePackage) and a choice
// weighted by distance over it is uniform. It panics if n < 1.
func Flat(n int) *Machine {
	if n < 1 {
		panic(fmt.Sprintf("topology: Flat(%d): need at least 1 CPU", n))
	}
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return flat(ids)
}

// flat is Flat over the given (ascending, distinct) CPU numbers.
func flat(ids []int) *Machine {
	cpus := make([]cpu, len(ids))
	for i, id := range ids {
		cpus[i] = cpu{id: id, core: i, coreID: i, l2: -1, l3: -1}
	}
	return build(cpus)
}

// build sorts the leaves into tree order and fills the index.
func build(cpus []cpu) *Machine {
	slices.SortFunc(cpus, treeOrder)
	m := &Machine{cpus: cpus}
	maxID := 0
	for _, c := range cpus {
		maxID = max(maxID, c.id)
		m.nodes = append(m.nodes, c.node)
	}
	slices.Sort(m.nodes)
	m.nodes = slices.Compact(m.nodes)
	m.index = make([]int32, maxID+1)
	for i := range m.index {
		m.index[i] = -1
	}
	for i, c := range cpus {
		m.index[c.id] = int32(i)
	}
	return m
}

// treeOrder orders leaves by node, package, L3, L2, core, CPU number, so
// that every subtree is a contiguous run (see walk.go).
func treeOrder(a, b cpu) int {
	return cmp.Or(
		cmp.Compare(a.node, b.node),
		cmp.Compare(a.pkg, b.pkg),
		cmp.Compare(a.l3, b.l3),
		cmp.Compare(a.l2, b.l2),
		cmp.Compare(a.core, b.core),
		cmp.Compare(a.id, b.id),
	)
}

// NumNodes returns the number of NUMA nodes that have online CPUs (nodes with
// memory only are not counted).
func (m *Machine) NumNodes() int { return len(m.nodes) }

// NumCPUs returns the number of online CPUs.
func (m *Machine) NumCPUs() int { return len(m.cpus) }

// CPUs returns the online CPU numbers in ascending order (a fresh slice).
func (m *Machine) CPUs() []int { return ids(m.cpus) }

// ids returns the CPU numbers of leaves, ascending.
func ids(leaves []cpu) []int {
	ids := make([]int, len(leaves))
	for i, c := range leaves {
		ids[i] = c.id
	}
	slices.Sort(ids)
	return ids
}

// Nodes returns the NUMA node numbers that have online CPUs, ascending (a
// fresh slice). Node numbers need not be contiguous.
func (m *Machine) Nodes() []int { return slices.Clone(m.nodes) }

// Node returns the NUMA node number of the CPU numbered id, or -1 if it is
// not an online CPU of the machine.
func (m *Machine) Node(id int) int {
	c := m.leaf(id)
	if c == nil {
		return -1
	}
	return c.node
}

// leaf returns the record of CPU id, nil if unknown.
func (m *Machine) leaf(id int) *cpu {
	if id < 0 || id >= len(m.index) || m.index[id] < 0 {
		return nil
	}
	return &m.cpus[m.index[id]]
}

// Distance returns the topological distance between two CPUs on the fixed
// scale DistanceSame (0) < DistanceSMT (1) < DistanceL2 (2) < DistanceL3 (3) <
// DistancePackage (4) < DistanceNode (5) < DistanceRemote (6): the innermost
// level of the tree the two CPUs do not share decides it. It is symmetric.
// A CPU the machine does not know is DistanceRemote from every other CPU.
func (m *Machine) Distance(cpuA, cpuB int) int {
	if cpuA == cpuB {
		return DistanceSame
	}
	a, b := m.leaf(cpuA), m.leaf(cpuB)
	switch {
	case a == nil || b == nil || a.node != b.node:
		return DistanceRemote
	case a.pkg != b.pkg:
		return DistanceNode
	case a.core == b.core:
		return DistanceSMT
	case a.l2 >= 0 && a.l2 == b.l2:
		return DistanceL2
	case a.l3 >= 0 && a.l3 == b.l3:
		return DistanceL3
	default:
		return DistancePackage
	}
}

// Restrict returns the machine made of the CPUs of m that are in allowed (a
// process's affinity mask, say), with the structure m gives them, or m
// itself when none of them are CPUs of m.
func (m *Machine) Restrict(allowed []int) *Machine {
	var cpus []cpu
	for _, id := range allowed {
		if c := m.leaf(id); c != nil {
			cpus = append(cpus, *c)
		}
	}
	if len(cpus) == 0 {
		return m
	}
	slices.SortFunc(cpus, func(a, b cpu) int { return cmp.Compare(a.id, b.id) })
	cpus = slices.CompactFunc(cpus, func(a, b cpu) bool { return a.id == b.id })
	return build(cpus)
}
