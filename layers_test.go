package gofork_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayers checks the layers that harness/README.md describes, on the
// non-test imports of every package of the module:
//
//   - internal/ (runtime parts) imports none of the packages built on core
//     (par, reduce, sortpar, linalg, uts, graph) and nothing under harness/;
//   - no library package (core, topology, internal/..., and those built on
//     core) imports harness/: only _test.go files do;
//   - no package imports cmd/.
func TestLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	const mod = "github.com/gofork/gofork/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	built := []string{"par", "reduce", "sortpar", "linalg", "uts", "graph"}
	library := append([]string{"core", "topology", "internal"}, built...)
	// under reports whether the module-relative path p is dir or below it.
	under := func(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }
	anyUnder := func(p string, dirs []string) bool {
		for _, d := range dirs {
			if under(p, d) {
				return true
			}
		}
		return false
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 10 {
		t.Fatalf("go list found %d packages, want the whole module", len(lines))
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], mod)
		if !ok {
			continue // the root package
		}
		for _, imp := range fields[1:] {
			dep, ok := strings.CutPrefix(imp, mod)
			if !ok {
				continue
			}
			switch {
			case under(dep, "cmd"):
				t.Errorf("%s imports %s: nothing imports a command", pkg, dep)
			case under(pkg, "internal") && (anyUnder(dep, built) || under(dep, "harness")):
				t.Errorf("%s imports %s: internal/ holds runtime parts, below the packages built on core and below harness/", pkg, dep)
			case anyUnder(pkg, library) && under(dep, "harness"):
				t.Errorf("%s imports %s: library code never imports harness/ (only _test.go files do)", pkg, dep)
			}
		}
	}
}
