package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/uts"
)

// Exit statuses.
const (
	exitOK       = 0
	exitMismatch = 1 // the counts differ from the published ones
	exitUsage    = 2 // bad flags
)

// named is a tree of the UTS 2.1 distribution's sample_trees.sh, with its
// published counts (leaves < 0: not published).
type named struct {
	args                 string
	nodes, leaves, depth int64
}

var trees = map[string]named{
	"default": {"", 1732, 1050, 6},
	"T1":      {uts.T1.String(), 4130071, 3305118, 10},
	"T1L":     {uts.T1L.String(), 102181082, 81746377, 13},
	"T1XXL":   {uts.T1XXL.String(), 4230646601, -1, 15},
	"T2":      {"-t 1 -a 2 -d 16 -b 6 -r 502", 4117769, 2342762, 81},
	"T2L":     {"-t 1 -a 2 -d 23 -b 7 -r 220", 96793510, 53791152, 67},
	"T3":      {uts.T3.String(), 4112897, 3599034, 1572},
	"T3L":     {uts.T3L.String(), 111345631, 89076904, 17844},
	"T3XXL":   {uts.T3XXL.String(), 2793220501, 1396611250, 99049},
	"T4":      {"-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4", 4132453, 3108986, 134},
	"T5":      {"-t 1 -a 0 -d 20 -b 4 -r 34", 4147582, 2181318, 20},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: uts [-tree NAME] [-workers N] [-serial] [-t int] [-a int] [-d int] [-b float] [-r int] [-q float] [-m int] [-f float] [-g int]
  -tree NAME  start from a named tree: default, T1, T1L, T1XXL, T2, T2L, T3, T3L, T3XXL, T4, T5
  -workers N  pool size (default GOMAXPROCS)
  -serial     search on one goroutine, without the pool
  tree flags  as the reference: -t type, -a shape, -d depth, -b root branching,
              -r seed, -q non-leaf probability, -m non-leaf children,
              -f hybrid shift fraction, -g granularity (ignored)
`

// options are the command's own flags; the rest go to uts.Parse.
type options struct {
	workers  int
	serial   bool
	name     string
	treeArgs []string
}

func parseArgs(args []string) (options, error) {
	o := options{workers: runtime.GOMAXPROCS(0)}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			name = ""
		}
		value := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag %s: missing value", a)
			}
			i++
			return args[i], nil
		}
		switch strings.TrimPrefix(name, "-") {
		case "workers":
			v, err := value()
			if err != nil {
				return o, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return o, fmt.Errorf("flag -workers: invalid value %q: want a count >= 1", v)
			}
			o.workers = n
		case "serial":
			o.serial = true
			if hasVal {
				b, err := strconv.ParseBool(val)
				if err != nil {
					return o, fmt.Errorf("flag -serial: invalid value %q", val)
				}
				o.serial = b
			}
		case "tree":
			v, err := value()
			if err != nil {
				return o, err
			}
			if _, ok := trees[v]; !ok {
				return o, fmt.Errorf("flag -tree: unknown tree %q", v)
			}
			o.name = v
			// The named tree's flags go first so that later ones override them.
			o.treeArgs = append([]string{trees[v].args}, o.treeArgs...)
		case "h", "help":
			return o, errHelp
		default:
			o.treeArgs = append(o.treeArgs, a)
		}
	}
	return o, nil
}

var errHelp = fmt.Errorf("help requested")

// run is the whole command without the process around it; it returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseArgs(args)
	if err == errHelp {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "uts: %v\n%s", err, usage)
		return exitUsage
	}
	tree, err := uts.Parse(strings.Join(o.treeArgs, " "))
	if err != nil {
		fmt.Fprintf(stderr, "%v\n%s", err, usage)
		return exitUsage
	}

	how := fmt.Sprintf("gofork, %d workers", o.workers)
	pes := o.workers
	if o.serial {
		how, pes = "gofork, serial", 1
	}
	fmt.Fprintf(stdout, "UTS - Unbalanced Tree Search (%s)\n", how)
	printParams(stdout, tree)

	var res uts.Result
	start := time.Now()
	if o.serial {
		res = uts.SearchSerial(tree)
	} else {
		pool := core.New(core.WithWorkers(o.workers))
		start = time.Now()
		res = uts.Search(tree, par.WithPool(pool))
		pool.Close()
	}
	sec := time.Since(start).Seconds()

	fmt.Fprintf(stdout, "Tree size = %d, tree depth = %d, num leaves = %d (%.2f%%)\n",
		res.Nodes, res.MaxDepth, res.Leaves, float64(res.Leaves)/float64(res.Nodes)*100)
	fmt.Fprintf(stdout, "Wallclock time = %.3f sec, performance = %.0f nodes/sec (%.0f nodes/sec per PE)\n",
		sec, float64(res.Nodes)/sec, float64(res.Nodes)/sec/float64(pes))

	if o.name != "" {
		ref, err := uts.Parse(trees[o.name].args)
		if err != nil {
			panic("uts: bad built-in tree " + o.name + ": " + err.Error())
		}
		if ref != tree {
			return exitOK // flags changed the named tree: nothing to check
		}
		want := trees[o.name]
		if res.Nodes != want.nodes || int64(res.MaxDepth) != want.depth || want.leaves >= 0 && res.Leaves != want.leaves {
			fmt.Fprintf(stdout, "MISMATCH: %s is published as %d nodes, depth %d, %d leaves\n",
				o.name, want.nodes, want.depth, want.leaves)
			return exitMismatch
		}
		fmt.Fprintf(stdout, "Counts match the published %s.\n", o.name)
	}
	return exitOK
}

// printParams describes the tree as the reference program does.
func printParams(w io.Writer, t uts.Tree) {
	fmt.Fprintf(w, "Tree type:  %d (%v)\n", int(t.Type), t.Type)
	fmt.Fprintf(w, "Tree shape parameters:\n")
	fmt.Fprintf(w, "  root branching factor b_0 = %.1f, root seed = %d\n", t.B0, t.Seed)
	if t.Type == uts.Geometric || t.Type == uts.Hybrid {
		fmt.Fprintf(w, "  GEO parameters: gen_mx = %d, shape function = %d (%v)\n", t.Depth, int(t.Shape), t.Shape)
	}
	if t.Type == uts.Binomial || t.Type == uts.Hybrid {
		qm := t.Q * float64(t.M)
		fmt.Fprintf(w, "  BIN parameters:  q = %f, m = %d, E(n) = %f, E(s) = %.2f\n", t.Q, t.M, qm, 1/(1-qm))
	}
	if t.Type == uts.Hybrid {
		fmt.Fprintf(w, "  HYBRID:  GEO from root to depth %g, then BIN\n", t.ShiftDepth*float64(t.Depth))
	}
	if t.Type == uts.Balanced {
		fmt.Fprintf(w, "  BALANCED parameters: gen_mx = %d\n", t.Depth)
	}
	fmt.Fprintf(w, "Random number generator: SHA-1 (state size = 20B)\n")
}
