package core

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// The distance scale of (*Topology).Distance. Two CPUs are as far apart as
// the innermost level of the machine tree that they do NOT share, walking
// down from the NUMA node: each level that separates them adds to the
// distance. The scale is fixed, so a level the machine does not report (no L3
// in sysfs, say) leaves a gap rather than shifting the numbers.
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
	// known. Every pair of distinct CPUs in a FlatTopology is at this distance.
	DistancePackage = 4
	// DistanceNode: the same NUMA node but different packages.
	DistanceNode = 5
	// DistanceRemote: different NUMA nodes; also the distance to a CPU the
	// topology does not know.
	DistanceRemote = 6
)

// topoMaxCPU bounds the CPU numbers ReadTopology accepts, so a garbage range
// like "0-4000000000" is an error and not a huge allocation. Linux's NR_CPUS
// is at most 8192 on every architecture today.
const topoMaxCPU = 1 << 16

// Topology is the machine as a tree: NUMA node > package (socket) > shared
// cache (L3, then L2) > core > CPU (hardware thread). It describes the online
// CPUs only and is immutable once built, so it may be shared freely between
// goroutines.
//
// The tree is node-major: on a machine whose packages are split into several
// NUMA nodes (sub-NUMA clustering) a package appears under each of its nodes,
// and CPUs on different nodes are DistanceRemote apart even inside one package.
//
// Build one with ReadTopology (a sysfs tree), FlatTopology (no structure) or
// CurrentTopology (this machine); the zero Topology has no CPUs and is of no use.
type Topology struct {
	cpus  []topoCPU // online CPUs, in tree order (node, package, L3, L2, core, id)
	index []int32   // CPU number -> position in cpus; -1 for CPUs not in the topology
	nodes []int     // distinct NUMA node numbers of the online CPUs, ascending
}

// topoCPU is one leaf of the tree. Group keys (l2, l3) are the smallest
// online CPU sharing that cache, or -1 when sysfs reports no such cache.
type topoCPU struct {
	id     int // CPU number (the N of cpuN)
	node   int // NUMA node number
	pkg    int // physical_package_id
	core   int // unique core key over the whole machine (package, die, core_id)
	coreID int // core_id as the kernel reports it, for String
	l2, l3 int // cache group keys, -1 if unknown
}

// ReadTopology reads the machine tree from a sysfs tree rooted at sysfsRoot:
// "/sys" for this machine, or a recorded copy in tests. It reads
//
//	<root>/devices/system/cpu/online                      online CPUs (a CPU list)
//	<root>/devices/system/node/node*/cpulist              CPUs of each NUMA node
//	<root>/devices/system/cpu/cpuN/topology/physical_package_id, core_id, die_id
//	<root>/devices/system/cpu/cpuN/cache/index*/{level,type,shared_cpu_list}
//
// Only online CPUs are read. A tree without node directories (a kernel built
// without NUMA) is one node 0; a CPU without a cache directory has no shared
// caches; die_id is optional. Anything else missing or malformed (an unreadable
// file, a CPU list such as "0-", "a,b" or "3-1", a CPU in two nodes or in
// none, cache lists that disagree) makes ReadTopology return a flat topology
// together with an error that names the file and quotes its content. It never
// panics on bad input. The flat fallback covers the CPUs of cpu/online when
// that file could be parsed, runtime.NumCPU() CPUs otherwise.
func ReadTopology(sysfsRoot string) (*Topology, error) {
	r := topoReader{root: sysfsRoot}
	t, err := r.read()
	if err != nil {
		if r.online != nil {
			return topoFlat(r.online), err
		}
		return FlatTopology(runtime.NumCPU()), err
	}
	return t, nil
}

// FlatTopology returns a topology of n CPUs numbered 0..n-1 with no known
// structure: one node, one package, one core per CPU and no shared caches, so
// every pair of distinct CPUs is at the same distance (DistancePackage) and
// victim selection over it is uniform. It panics if n < 1.
func FlatTopology(n int) *Topology {
	if n < 1 {
		panic(fmt.Sprintf("core: FlatTopology(%d): need at least 1 CPU", n))
	}
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return topoFlat(ids)
}

// topoFlat is FlatTopology over the given (ascending, distinct) CPU numbers.
func topoFlat(ids []int) *Topology {
	cpus := make([]topoCPU, len(ids))
	for i, id := range ids {
		cpus[i] = topoCPU{id: id, core: i, coreID: i, l2: -1, l3: -1}
	}
	return topoBuild(cpus)
}

// topoBuild sorts the leaves into tree order and fills the index.
func topoBuild(cpus []topoCPU) *Topology {
	slices.SortFunc(cpus, topoTreeOrder)
	t := &Topology{cpus: cpus}
	maxID := 0
	for _, c := range cpus {
		maxID = max(maxID, c.id)
		if len(t.nodes) == 0 || t.nodes[len(t.nodes)-1] != c.node {
			t.nodes = append(t.nodes, c.node)
		}
	}
	slices.Sort(t.nodes)
	t.nodes = slices.Compact(t.nodes)
	t.index = make([]int32, maxID+1)
	for i := range t.index {
		t.index[i] = -1
	}
	for i, c := range cpus {
		t.index[c.id] = int32(i)
	}
	return t
}

// topoTreeOrder orders leaves by node, package, L3, L2, core, CPU number, so
// that every subtree is a contiguous run.
func topoTreeOrder(a, b topoCPU) int {
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
func (t *Topology) NumNodes() int { return len(t.nodes) }

// NumCPUs returns the number of online CPUs.
func (t *Topology) NumCPUs() int { return len(t.cpus) }

// CPUs returns the online CPU numbers in ascending order (a fresh slice).
func (t *Topology) CPUs() []int {
	ids := make([]int, len(t.cpus))
	for i, c := range t.cpus {
		ids[i] = c.id
	}
	slices.Sort(ids)
	return ids
}

// Nodes returns the NUMA node numbers that have online CPUs, ascending (a
// fresh slice). Node numbers need not be contiguous.
func (t *Topology) Nodes() []int { return slices.Clone(t.nodes) }

// Node returns the NUMA node number of cpu, or -1 if cpu is not an online
// CPU of the topology.
func (t *Topology) Node(cpu int) int {
	c := t.leaf(cpu)
	if c == nil {
		return -1
	}
	return c.node
}

// leaf returns the record of cpu, nil if unknown.
func (t *Topology) leaf(cpu int) *topoCPU {
	if cpu < 0 || cpu >= len(t.index) || t.index[cpu] < 0 {
		return nil
	}
	return &t.cpus[t.index[cpu]]
}

// Distance returns the topological distance between two CPUs on the fixed
// scale DistanceSame (0) < DistanceSMT (1) < DistanceL2 (2) < DistanceL3 (3) <
// DistancePackage (4) < DistanceNode (5) < DistanceRemote (6): the innermost
// level of the tree the two CPUs do not share decides it. It is symmetric.
// A CPU the topology does not know is DistanceRemote from every other CPU.
func (t *Topology) Distance(cpuA, cpuB int) int {
	if cpuA == cpuB {
		return DistanceSame
	}
	a, b := t.leaf(cpuA), t.leaf(cpuB)
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

// restrict returns the topology of the CPUs of t that are in allowed (the
// process's affinity mask, say), or t itself when none of them are.
func (t *Topology) restrict(allowed []int) *Topology {
	var cpus []topoCPU
	for _, id := range allowed {
		if c := t.leaf(id); c != nil {
			cpus = append(cpus, *c)
		}
	}
	if len(cpus) == 0 {
		return t
	}
	slices.SortFunc(cpus, func(a, b topoCPU) int { return cmp.Compare(a.id, b.id) })
	cpus = slices.CompactFunc(cpus, func(a, b topoCPU) bool { return a.id == b.id })
	return topoBuild(cpus)
}

// String prints the tree, one level per line, indented, e.g.
//
//	topology: 4 CPUs, 1 NUMA node
//	node 0
//	  package 0
//	    L3 cpus 0-3
//	      L2 cpus 0-1
//	        core 0: cpu 0
//
// Levels the machine does not report (a missing L3, say) are left out.
func (t *Topology) String() string {
	var sb strings.Builder
	nodeWord := "nodes"
	if len(t.nodes) == 1 {
		nodeWord = "node"
	}
	fmt.Fprintf(&sb, "topology: %d CPUs, %d NUMA %s\n", len(t.cpus), len(t.nodes), nodeWord)
	// Walk the leaves in tree order and open a level whenever its key changes.
	type lvl struct {
		key   func(c *topoCPU) int
		label func(run []topoCPU) string
	}
	members := func(run []topoCPU) string {
		ids := make([]int, len(run))
		for i, c := range run {
			ids[i] = c.id
		}
		slices.Sort(ids)
		return topoFormatCPUList(ids)
	}
	levels := []lvl{
		{func(c *topoCPU) int { return c.node }, func(r []topoCPU) string { return fmt.Sprintf("node %d", r[0].node) }},
		{func(c *topoCPU) int { return c.pkg }, func(r []topoCPU) string { return fmt.Sprintf("package %d", r[0].pkg) }},
		{func(c *topoCPU) int { return c.l3 }, func(r []topoCPU) string { return "L3 cpus " + members(r) }},
		{func(c *topoCPU) int { return c.l2 }, func(r []topoCPU) string { return "L2 cpus " + members(r) }},
		{func(c *topoCPU) int { return c.core }, func(r []topoCPU) string {
			word := "cpu"
			if len(r) > 1 {
				word = "cpus"
			}
			return fmt.Sprintf("core %d: %s %s", r[0].coreID, word, members(r))
		}},
	}
	var walk func(run []topoCPU, level, depth int)
	walk = func(run []topoCPU, level, depth int) {
		if level == len(levels) {
			return
		}
		l := levels[level]
		for len(run) > 0 {
			k := l.key(&run[0])
			n := 1
			for n < len(run) && l.key(&run[n]) == k {
				n++
			}
			sub := run[:n]
			run = run[n:]
			if k < 0 && (level == 2 || level == 3) { // cache level not reported
				walk(sub, level+1, depth)
				continue
			}
			fmt.Fprintf(&sb, "%s%s\n", strings.Repeat("  ", depth), l.label(sub))
			walk(sub, level+1, depth+1)
		}
	}
	walk(t.cpus, 0, 0)
	return sb.String()
}

// topoReader reads one sysfs tree; online is set as soon as cpu/online parsed.
type topoReader struct {
	root   string
	online []int
}

func (r *topoReader) path(elem ...string) string {
	return filepath.Join(append([]string{r.root, "devices", "system"}, elem...)...)
}

// file reads a sysfs attribute, trimmed of surrounding white space.
func (r *topoReader) file(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("core: topology: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// list reads a sysfs CPU list file ("0-3,8").
func (r *topoReader) list(p string) ([]int, error) {
	s, err := r.file(p)
	if err != nil {
		return nil, err
	}
	ids, err := topoParseCPUList(s)
	if err != nil {
		return nil, fmt.Errorf("core: topology: %s: content %q: %w", p, s, err)
	}
	return ids, nil
}

// int reads a sysfs file holding one decimal integer.
func (r *topoReader) int(p string) (int, error) {
	s, err := r.file(p)
	if err != nil {
		return 0, err
	}
	// Parsed as 32 bits so the bound is the same on every platform, and so it
	// compiles where int is 32 bits (where 1<<31 does not fit an int).
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil || v < -1 {
		return 0, fmt.Errorf("core: topology: %s: content %q: not a small integer", p, s)
	}
	return int(v), nil
}

func (r *topoReader) read() (*Topology, error) {
	online, err := r.list(r.path("cpu", "online"))
	if err != nil {
		return nil, err
	}
	if len(online) == 0 {
		return nil, fmt.Errorf("core: topology: %s: content \"\": no online CPUs", r.path("cpu", "online"))
	}
	r.online = online
	isOnline := make(map[int]bool, len(online))
	for _, id := range online {
		isOnline[id] = true
	}

	// NUMA nodes: node0, node1, ... each with a cpulist.
	nodeOf := make(map[int]int, len(online))
	nodeDirs, _ := filepath.Glob(r.path("node", "node[0-9]*"))
	for _, dir := range nodeDirs {
		num, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), "node"))
		if err != nil {
			continue // not a node directory (node0x?); sysfs never has one
		}
		ids, err := r.list(filepath.Join(dir, "cpulist"))
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if !isOnline[id] {
				continue
			}
			if prev, dup := nodeOf[id]; dup {
				return nil, fmt.Errorf("core: topology: %s: cpu %d is in node %d and node %d",
					filepath.Join(dir, "cpulist"), id, prev, num)
			}
			nodeOf[id] = num
		}
	}

	cpus := make([]topoCPU, 0, len(online))
	type coreKey struct{ pkg, die, core int }
	cores := map[coreKey]int{}
	// shared[level][cpu] is the member list of cpu's cache at level (online
	// CPUs only) and the file it came from.
	type sharedList struct{ list, path string }
	shared := [4]map[int]sharedList{2: {}, 3: {}}
	for _, id := range online {
		c := topoCPU{id: id, l2: -1, l3: -1}
		if len(nodeDirs) > 0 {
			n, ok := nodeOf[id]
			if !ok {
				return nil, fmt.Errorf("core: topology: %s: online cpu %d is in no node's cpulist",
					r.path("node"), id)
			}
			c.node = n
		}
		cpuDir := r.path("cpu", "cpu"+strconv.Itoa(id))
		if c.pkg, err = r.int(filepath.Join(cpuDir, "topology", "physical_package_id")); err != nil {
			return nil, err
		}
		if c.coreID, err = r.int(filepath.Join(cpuDir, "topology", "core_id")); err != nil {
			return nil, err
		}
		die := 0
		if p := filepath.Join(cpuDir, "topology", "die_id"); topoExists(p) {
			if die, err = r.int(p); err != nil {
				return nil, err
			}
		}
		k := coreKey{c.pkg, die, c.coreID}
		if _, ok := cores[k]; !ok {
			cores[k] = len(cores)
		}
		c.core = cores[k]

		indexDirs, _ := filepath.Glob(filepath.Join(cpuDir, "cache", "index[0-9]*"))
		for _, dir := range indexDirs {
			level, err := r.int(filepath.Join(dir, "level"))
			if err != nil {
				return nil, err
			}
			typ, err := r.file(filepath.Join(dir, "type"))
			if err != nil {
				return nil, err
			}
			switch typ {
			case "Data", "Unified", "Instruction":
			default:
				return nil, fmt.Errorf("core: topology: %s: content %q: unknown cache type",
					filepath.Join(dir, "type"), typ)
			}
			if (level != 2 && level != 3) || typ == "Instruction" {
				continue
			}
			key := &c.l2
			if level == 3 {
				key = &c.l3
			}
			if *key >= 0 {
				continue // a second L2/L3 of this CPU (split data/unified): keep the first
			}
			p := filepath.Join(dir, "shared_cpu_list")
			ids, err := r.list(p)
			if err != nil {
				return nil, err
			}
			if !slices.Contains(ids, id) {
				return nil, fmt.Errorf("core: topology: %s: content %q: does not contain cpu %d itself",
					p, topoFormatCPUList(ids), id)
			}
			ids = slices.DeleteFunc(ids, func(x int) bool { return !isOnline[x] })
			*key = ids[0]
			shared[level][id] = sharedList{topoFormatCPUList(ids), p}
		}
		cpus = append(cpus, c)
	}

	// Every member of a cache must report the same member list.
	for _, level := range []int{2, 3} {
		for _, id := range online {
			s, ok := shared[level][id]
			if !ok {
				continue
			}
			ids, _ := topoParseCPUList(s.list)
			for _, other := range ids {
				o := shared[level][other]
				if o.list != s.list {
					return nil, fmt.Errorf("core: topology: %s: content %q (online cpus), but cpu %d's L%d lists %q",
						s.path, s.list, other, level, o.list)
				}
			}
		}
	}
	return topoBuild(cpus), nil
}

func topoExists(p string) bool {
	_, err := os.Stat(p)
	return !errors.Is(err, fs.ErrNotExist)
}

// topoParseCPUList parses the kernel's CPU list format ("0-3,8,10-11"; empty
// means no CPUs) into ascending distinct CPU numbers. Ranges must not be
// reversed ("3-1"), open ("0-") or name CPUs beyond topoMaxCPU.
func topoParseCPUList(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var ids []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := topoParseCPU(lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if hi == "" {
				return nil, fmt.Errorf("open range %q", part)
			}
			if b, err = topoParseCPU(hi); err != nil {
				return nil, err
			}
			if b < a {
				return nil, fmt.Errorf("reversed range %q", part)
			}
		}
		for id := a; id <= b; id++ {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

func topoParseCPU(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty CPU number")
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, fmt.Errorf("bad CPU number %q", s)
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || v >= topoMaxCPU {
		return 0, fmt.Errorf("CPU number %q out of range (max %d)", s, topoMaxCPU-1)
	}
	return v, nil
}

// topoFormatCPUList formats ascending distinct CPU numbers in the kernel's CPU
// list format, collapsing runs into ranges: [0 1 2 5] -> "0-2,5".
func topoFormatCPUList(ids []int) string {
	var sb strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if sb.Len() > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(ids[i]))
		if j > i {
			sb.WriteByte('-')
			sb.WriteString(strconv.Itoa(ids[j]))
		}
		i = j + 1
	}
	return sb.String()
}
