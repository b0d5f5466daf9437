package topology

import (
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

// Read reads the machine tree from a sysfs tree rooted at sysfsRoot: "/sys"
// for this machine, or a recorded copy in tests. It reads
//
//	<root>/devices/system/cpu/online                      online CPUs (a CPU list)
//	<root>/devices/system/node/node*/cpulist              CPUs of each NUMA node
//	<root>/devices/system/cpu/cpuN/topology/physical_package_id, core_id, die_id
//	<root>/devices/system/cpu/cpuN/cache/index*/{level,type,shared_cpu_list}
//
// Only online CPUs are read. A tree without node directories (a kernel built
// without NUMA) is one node 0; a CPU without a cache directory has no shared
// caches; die_id is optional. Anything else missing or malformed (an
// unreadable file, a CPU list such as "0-", "a,b" or "3-1", a CPU in two
// nodes or in none, cache lists that disagree) makes Read return a flat
// machine together with an error that names the file and quotes its content.
// It never panics on bad input. The flat fallback covers the CPUs of
// cpu/online when that file could be parsed, runtime.NumCPU() CPUs
// otherwise.
func Read(sysfsRoot string) (*Machine, error) {
	r := reader{root: sysfsRoot}
	m, err := r.read()
	if err != nil {
		if r.online != nil {
			return flat(r.online), err
		}
		return Flat(runtime.NumCPU()), err
	}
	return m, nil
}

// reader reads one sysfs tree, a level at a time: the online CPUs, the
// NUMA nodes, each CPU's package and core, each CPU's caches, and last the
// agreement of the cache lists.
type reader struct {
	root     string
	online   []int        // set as soon as cpu/online parsed
	isOnline map[int]bool // the CPUs of online
	nodeOf   map[int]int  // online CPU -> node; nil when the tree has no node directories
	cores    map[core]int // (package, die, core_id) -> unique core key
	// caches[level][cpu] is the member list of cpu's cache at level 2 or 3
	// (online CPUs only) and the file it came from.
	caches [4]map[int]cacheList
}

type core struct{ pkg, die, id int }

type cacheList struct{ list, path string }

func (r *reader) read() (*Machine, error) {
	if err := r.readOnline(); err != nil {
		return nil, err
	}
	if err := r.readNodes(); err != nil {
		return nil, err
	}
	r.cores = map[core]int{}
	r.caches = [4]map[int]cacheList{2: {}, 3: {}}
	cpus := make([]cpu, 0, len(r.online))
	for _, id := range r.online {
		c := cpu{id: id, l2: -1, l3: -1}
		if err := r.readNode(&c); err != nil {
			return nil, err
		}
		dir := r.path("cpu", "cpu"+strconv.Itoa(id))
		if err := r.readCore(&c, dir); err != nil {
			return nil, err
		}
		if err := r.readCaches(&c, dir); err != nil {
			return nil, err
		}
		cpus = append(cpus, c)
	}
	if err := r.checkCaches(); err != nil {
		return nil, err
	}
	return build(cpus), nil
}

// readOnline reads the online CPUs.
func (r *reader) readOnline() error {
	p := r.path("cpu", "online")
	online, err := r.list(p)
	if err != nil {
		return err
	}
	if len(online) == 0 {
		return fmt.Errorf("topology: %s: content \"\": no online CPUs", p)
	}
	r.online = online
	r.isOnline = make(map[int]bool, len(online))
	for _, id := range online {
		r.isOnline[id] = true
	}
	return nil
}

// readNodes reads the NUMA nodes node0, node1, ..., each with a cpulist.
func (r *reader) readNodes() error {
	dirs, _ := filepath.Glob(r.path("node", "node[0-9]*"))
	if len(dirs) == 0 {
		return nil
	}
	r.nodeOf = make(map[int]int, len(r.online))
	for _, dir := range dirs {
		num, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), "node"))
		if err != nil {
			continue // not a node directory (node0x?); sysfs never has one
		}
		p := filepath.Join(dir, "cpulist")
		ids, err := r.list(p)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if !r.isOnline[id] {
				continue
			}
			if prev, dup := r.nodeOf[id]; dup {
				return fmt.Errorf("topology: %s: cpu %d is in node %d and node %d", p, id, prev, num)
			}
			r.nodeOf[id] = num
		}
	}
	return nil
}

// readNode sets c's node: the one whose cpulist names it, or 0 on a tree
// without nodes.
func (r *reader) readNode(c *cpu) error {
	if r.nodeOf == nil {
		return nil
	}
	n, ok := r.nodeOf[c.id]
	if !ok {
		return fmt.Errorf("topology: %s: online cpu %d is in no node's cpulist", r.path("node"), c.id)
	}
	c.node = n
	return nil
}

// readCore sets c's package and core from the CPU directory dir.
func (r *reader) readCore(c *cpu, dir string) error {
	var err error
	if c.pkg, err = r.int(filepath.Join(dir, "topology", "physical_package_id")); err != nil {
		return err
	}
	if c.coreID, err = r.int(filepath.Join(dir, "topology", "core_id")); err != nil {
		return err
	}
	die := 0
	if p := filepath.Join(dir, "topology", "die_id"); exists(p) {
		if die, err = r.int(p); err != nil {
			return err
		}
	}
	k := core{c.pkg, die, c.coreID}
	if _, ok := r.cores[k]; !ok {
		r.cores[k] = len(r.cores)
	}
	c.core = r.cores[k]
	return nil
}

// readCaches sets c's L2 and L3 keys from the CPU directory dir and records
// their member lists for checkCaches.
func (r *reader) readCaches(c *cpu, dir string) error {
	indexDirs, _ := filepath.Glob(filepath.Join(dir, "cache", "index[0-9]*"))
	for _, dir := range indexDirs {
		level, err := r.int(filepath.Join(dir, "level"))
		if err != nil {
			return err
		}
		typ, err := r.file(filepath.Join(dir, "type"))
		if err != nil {
			return err
		}
		switch typ {
		case "Data", "Unified", "Instruction":
		default:
			return fmt.Errorf("topology: %s: content %q: unknown cache type", filepath.Join(dir, "type"), typ)
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
			return err
		}
		if !slices.Contains(ids, c.id) {
			return fmt.Errorf("topology: %s: content %q: does not contain cpu %d itself", p, formatCPUList(ids), c.id)
		}
		ids = slices.DeleteFunc(ids, func(x int) bool { return !r.isOnline[x] })
		*key = ids[0]
		r.caches[level][c.id] = cacheList{formatCPUList(ids), p}
	}
	return nil
}

// checkCaches checks that every member of a cache reports the same member
// list.
func (r *reader) checkCaches() error {
	for _, level := range []int{2, 3} {
		for _, id := range r.online {
			s, ok := r.caches[level][id]
			if !ok {
				continue
			}
			ids, _ := parseCPUList(s.list)
			for _, other := range ids {
				if o := r.caches[level][other]; o.list != s.list {
					return fmt.Errorf("topology: %s: content %q (online cpus), but cpu %d's L%d lists %q",
						s.path, s.list, other, level, o.list)
				}
			}
		}
	}
	return nil
}

func (r *reader) path(elem ...string) string {
	return filepath.Join(append([]string{r.root, "devices", "system"}, elem...)...)
}

// file reads a sysfs attribute, trimmed of surrounding white space.
func (r *reader) file(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("topology: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// list reads a sysfs CPU list file ("0-3,8").
func (r *reader) list(p string) ([]int, error) {
	s, err := r.file(p)
	if err != nil {
		return nil, err
	}
	ids, err := parseCPUList(s)
	if err != nil {
		return nil, fmt.Errorf("topology: %s: content %q: %w", p, s, err)
	}
	return ids, nil
}

// int reads a sysfs file holding one decimal integer.
func (r *reader) int(p string) (int, error) {
	s, err := r.file(p)
	if err != nil {
		return 0, err
	}
	// Parsed as 32 bits so the bound is the same on every platform, and so it
	// compiles where int is 32 bits (where 1<<31 does not fit an int).
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil || v < -1 {
		return 0, fmt.Errorf("topology: %s: content %q: not a small integer", p, s)
	}
	return int(v), nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return !errors.Is(err, fs.ErrNotExist)
}
