package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gofork/gofork/uts"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestRun(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		out    []string // each must appear in stdout
		errOut []string // each must appear in stderr
	}{
		{[]string{"-tree", "default"}, exitOK,
			[]string{"Tree size = 1732, tree depth = 6, num leaves = 1050", "Counts match the published default", "workers"}, nil},
		{[]string{"-tree=default", "-serial", "-workers", "3"}, exitOK,
			[]string{"Tree size = 1732", "(gofork, serial)", "Counts match"}, nil},
		{[]string{"-t", "1", "-a", "0", "-d", "6", "-b", "4", "-r", "0", "-workers=2"}, exitOK,
			[]string{"Tree size = 1732, tree depth = 6, num leaves = 1050", "2 workers", "GEO parameters: gen_mx = 6"}, nil},
		{[]string{"-tree", "default", "-r", "3"}, exitOK, // changed: nothing to check
			[]string{"root seed = 3"}, nil},
		{[]string{"-t", "3", "-b", "3", "-d", "4", "--serial"}, exitOK,
			[]string{"Tree size = 121, tree depth = 4, num leaves = 81", "BALANCED"}, nil},
		{[]string{"-t", "2", "-d", "4", "-b", "2", "-q", "0.2", "-r", "1"}, exitOK,
			[]string{"HYBRID", "BIN parameters"}, nil},
		{[]string{"-h"}, exitOK, []string{"usage: uts"}, nil},
		{[]string{"-tree", "T9"}, exitUsage, nil, []string{`unknown tree "T9"`}},
		{[]string{"-tree"}, exitUsage, nil, []string{"-tree: missing value"}},
		{[]string{"-workers", "0"}, exitUsage, nil, []string{"-workers", `"0"`}},
		{[]string{"-serial=maybe"}, exitUsage, nil, []string{"-serial"}},
		{[]string{"-q", "2"}, exitUsage, nil, []string{"-q", `"2"`, "out of range"}},
		{[]string{"-z", "1"}, exitUsage, nil, []string{"unknown flag -z"}},
		{[]string{"-d"}, exitUsage, nil, []string{"-d: missing value"}},
	} {
		var out, errOut bytes.Buffer
		if got := run(c.args, &out, &errOut); got != c.status {
			t.Errorf("run(%q) = %d, want %d; stderr:\n%s", c.args, got, c.status, errOut.String())
		}
		for _, w := range c.out {
			if !strings.Contains(out.String(), w) {
				t.Errorf("run(%q): stdout lacks %q:\n%s", c.args, w, out.String())
			}
		}
		for _, w := range c.errOut {
			if !strings.Contains(errOut.String(), w) {
				t.Errorf("run(%q): stderr lacks %q:\n%s", c.args, w, errOut.String())
			}
		}
	}
}

func TestNamedTreesParse(t *testing.T) {
	for name, n := range trees {
		if _, err := parseArgs([]string{"-tree", name}); err != nil {
			t.Errorf("-tree %s: %v", name, err)
		}
		if _, err := uts.Parse(n.args); err != nil {
			t.Errorf("-tree %s: %v", name, err)
		}
		var out, errOut bytes.Buffer
		if name != "default" {
			continue // the others are millions of nodes; the uts tests check them
		}
		if run([]string{"-tree", name}, &out, &errOut) != exitOK || n.nodes != 1732 {
			t.Errorf("-tree %s failed: %s%s", name, out.String(), errOut.String())
		}
	}
}
