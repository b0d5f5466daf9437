package kernels

import (
	"fmt"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/uts"
)

// uts-t1, uts-t3: the Unbalanced Tree Search trees T1 (geometric, 4.13 M
// nodes) and T3 (binomial, 4.11 M nodes, depth 1572) of the libfork suite,
// searched by uts.Search and checked against the published node, leaf and
// depth counts. -quick uses smaller trees of the same kinds, whose counts
// were taken from uts.SearchSerial. The uts package does not export a node's
// children, so there is no goroutine baseline.
type utsCase struct {
	name  string
	label string // the tree's name in the libfork suite
	order int
	full  uts.Tree
	want  uts.Result
	quick string // uts.Parse arguments of the -quick tree
	wantQ uts.Result
}

var utsCases = []utsCase{
	{name: "uts-t1", label: "T1", order: 50, full: uts.T1,
		want:  uts.Result{Nodes: 4_130_071, Leaves: 3_305_118, MaxDepth: 10},
		quick: "-t 1 -a 3 -d 8 -b 4 -r 19", wantQ: uts.Result{Nodes: 257_042, Leaves: 205_878, MaxDepth: 8}},
	{name: "uts-t3", label: "T3", order: 51, full: uts.T3,
		want:  uts.Result{Nodes: 4_112_897, Leaves: 3_599_034, MaxDepth: 1572},
		quick: "-t 0 -b 2000 -q 0.1235 -m 8 -r 42", wantQ: uts.Result{Nodes: 391_273, Leaves: 342_613, MaxDepth: 333}},
}

func init() {
	for _, c := range utsCases {
		add(&Kernel{
			Name:  c.name,
			Suite: SuiteMain,
			Order: c.order,
			Note:  "no goroutine baseline: package uts does not export a node's children",
			About: "unbalanced tree search (SHA-1 per node), counts checked against the published ones; no baseline",
			Size: func(q Scale) string {
				if q == Quick {
					return fmt.Sprintf("%s (%d nodes)", c.quick, c.wantQ.Nodes)
				}
				return fmt.Sprintf("%s (%d nodes)", c.label, c.want.Nodes)
			},
			Cutoff:   "uts.Search's own: a few forks as a task starts, more only for a hungry worker",
			Variants: []string{Serial, Gofork},
			Setup: func(variant string, p int, quick Scale) (*Job, error) {
				return setupUTS(c, variant, p, quick)
			},
		})
	}
}

func setupUTS(c utsCase, variant string, p int, quick Scale) (*Job, error) {
	tree, want := c.full, c.want
	if quick == Quick {
		t, err := uts.Parse(c.quick)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.name, err)
		}
		tree, want = t, c.wantQ
	}
	var got uts.Result
	j := &Job{Verify: func() error {
		if got != want {
			return fmt.Errorf("%s: counted %+v, published %+v", c.name, got, want)
		}
		return nil
	}}
	switch variant {
	case Serial:
		j.Run = func() { got = uts.SearchSerial(tree) }
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		j.Run = func() { got = uts.Search(tree, par.WithPool(pool)) }
		j.Close = pool.Close
		j.Pool = pool
	default:
		return nil, fmt.Errorf("%s: no variant %q", c.name, variant)
	}
	return j, nil
}
