package topology

import (
	"fmt"
	"strings"
)

// The levels of the tree below the machine, outermost first. The leaves of
// a Machine are in tree order (treeOrder), so the CPUs under one group of a
// level form a contiguous run, and a run splits into its groups at the next
// level by comparing neighbours' keys (groups). String and Spread are the
// two walks over this one description.
const (
	levelNode = iota
	levelPackage
	levelL3
	levelL2
	levelCore
	numLevels
)

// key returns c's group at level l: a node, package or cache key, or a core.
// A cache level the machine does not report gives -1 for every CPU without
// that cache: a group that String does not print.
func key(c *cpu, l int) int {
	switch l {
	case levelNode:
		return c.node
	case levelPackage:
		return c.pkg
	case levelL3:
		return c.l3
	case levelL2:
		return c.l2
	default:
		return c.core
	}
}

// groups splits run, a subtree's leaves in tree order, into the groups of
// level l: the maximal runs of leaves with the same key.
func groups(run []cpu, l int) [][]cpu {
	var gs [][]cpu
	for len(run) > 0 {
		k, n := key(&run[0], l), 1
		for n < len(run) && key(&run[n], l) == k {
			n++
		}
		gs = append(gs, run[:n])
		run = run[n:]
	}
	return gs
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
func (m *Machine) String() string {
	var sb strings.Builder
	nodeWord := "nodes"
	if len(m.nodes) == 1 {
		nodeWord = "node"
	}
	fmt.Fprintf(&sb, "topology: %d CPUs, %d NUMA %s\n", len(m.cpus), len(m.nodes), nodeWord)
	var walk func(run []cpu, l, depth int)
	walk = func(run []cpu, l, depth int) {
		if l == numLevels {
			return
		}
		for _, g := range groups(run, l) {
			if (l == levelL3 || l == levelL2) && key(&g[0], l) < 0 { // a cache level not reported
				walk(g, l+1, depth)
				continue
			}
			fmt.Fprintf(&sb, "%s%s\n", strings.Repeat("  ", depth), label(g, l))
			walk(g, l+1, depth+1)
		}
	}
	walk(m.cpus, levelNode, 0)
	return sb.String()
}

// label names the group g of level l in String.
func label(g []cpu, l int) string {
	switch l {
	case levelNode:
		return fmt.Sprintf("node %d", g[0].node)
	case levelPackage:
		return fmt.Sprintf("package %d", g[0].pkg)
	case levelL3:
		return "L3 cpus " + formatCPUList(ids(g))
	case levelL2:
		return "L2 cpus " + formatCPUList(ids(g))
	}
	word := "cpu"
	if len(g) > 1 {
		word = "cpus"
	}
	return fmt.Sprintf("core %d: %s %s", g[0].coreID, word, formatCPUList(ids(g)))
}

// Spread returns every CPU of the machine once, in the order that spreads
// threads over it from the top of the tree down: round-robin over NUMA
// nodes first, then within a node over packages, then over L3 and L2
// groups, then over cores, and only then over the SMT siblings of a core.
// On two 4-core sockets (CPUs 0-3 and 4-7) it is 0,4,1,5,2,6,3,7. Every
// prefix is the best-spread choice of that many CPUs, so a program that
// places its k-th thread on Spread()[k] keeps its placement as it grows.
func (m *Machine) Spread() []int { return spread(m.cpus, levelNode) }

// spread orders the CPUs of one subtree by interleaving the orders of its
// groups at level l.
func spread(run []cpu, l int) []int {
	if l == numLevels {
		ids := make([]int, len(run)) // the SMT siblings of one core
		for i, c := range run {
			ids[i] = c.id
		}
		return ids
	}
	var children [][]int
	for _, g := range groups(run, l) {
		children = append(children, spread(g, l+1))
	}
	if len(children) == 1 {
		return children[0]
	}
	var out []int
	for round := 0; ; round++ {
		added := false
		for _, ch := range children {
			if round < len(ch) {
				out = append(out, ch[round])
				added = true
			}
		}
		if !added {
			return out
		}
	}
}
