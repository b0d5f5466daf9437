package topology_test

import (
	"fmt"

	"github.com/gofork/gofork/topology"
)

func ExampleRead() {
	// A recorded sysfs tree: one node, four cores, two L2 caches of two cores.
	topo, err := topology.Read("testdata/sysfs/1node-2l2")
	if err != nil {
		panic(err)
	}
	fmt.Print(topo)
	fmt.Println("cpu 0 to 1:", topo.Distance(0, 1), "(shared L2)")
	fmt.Println("cpu 0 to 2:", topo.Distance(0, 2), "(shared L3)")
	// Output:
	// topology: 4 CPUs, 1 NUMA node
	// node 0
	//   package 0
	//     L3 cpus 0-3
	//       L2 cpus 0-1
	//         core 0: cpu 0
	//         core 1: cpu 1
	//       L2 cpus 2-3
	//         core 2: cpu 2
	//         core 3: cpu 3
	// cpu 0 to 1: 2 (shared L2)
	// cpu 0 to 2: 3 (shared L3)
}

func ExampleMachine_Distance() {
	topo, _ := topology.Read("testdata/sysfs/2socket")
	fmt.Println(topo.NumNodes(), "nodes,", topo.NumCPUs(), "CPUs")
	fmt.Println("same CPU:   ", topo.Distance(5, 5))
	fmt.Println("same socket:", topo.Distance(5, 6))
	fmt.Println("other node: ", topo.Distance(1, 6))
	// Output:
	// 2 nodes, 8 CPUs
	// same CPU:    0
	// same socket: 3
	// other node:  6
}

func ExampleMachine_Spread() {
	// Two sockets of four cores: threads placed in spread order alternate
	// between the sockets, so any first k of them are spread evenly.
	m, _ := topology.Read("testdata/sysfs/2socket")
	fmt.Println(m.Spread())
	// Output:
	// [0 4 1 5 2 6 3 7]
}
