package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/gofork/gofork/harness/kernels"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string // substring; "" means valid
		check   func(*options) bool
	}{
		{args: nil, check: func(o *options) bool {
			return o.runs == 5 && o.suite == suiteMain && o.maxWorkers >= 1 && len(o.benchmarks) == len(benchNames(suiteMain))
		}},
		{args: []string{"-bench", "fib,nqueens,fib", "-runs", "3", "-max-workers", "4", "-quick", "-q"}, check: func(o *options) bool {
			return len(o.benchmarks) == 2 && o.benchmarks[0].Name == "fib" && o.runs == 3 && o.maxWorkers == 4 && o.quick && o.quiet
		}},
		{args: []string{"-suite", "pools"}, check: func(o *options) bool {
			for _, b := range o.benchmarks {
				if b.Suite != "pools" {
					return false
				}
			}
			return len(o.benchmarks) == 5
		}},
		{args: []string{"-suite", "all"}, check: func(o *options) bool { return len(o.benchmarks) == len(registry) }},
		{args: []string{"-max-workers", "0"}, wantErr: "-max-workers 0: need at least 1"},
		{args: []string{"-runs", "0"}, wantErr: "-runs 0: need at least 1"},
		{args: []string{"-runs", "-3"}, wantErr: "-runs -3"},
		{args: []string{"-bench", "fib,bogus"}, wantErr: `unknown benchmark "bogus"; valid: fib-cutoff, fib, `},
		{args: []string{"-suite", "nope"}, wantErr: `-suite "nope": valid: main, `},
		{args: []string{"-replot", "old.json"}, wantErr: "-replot old.json: need -out DIR"},
		{args: []string{"fib"}, wantErr: `unexpected argument "fib"`},
		{args: []string{"-no-such-flag"}, wantErr: "flag provided but not defined"},
		{args: []string{"-x-fail", "bogus"}, wantErr: `-x-fail: unknown benchmark "bogus"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			o, err := parseFlags(tt.args, &bytes.Buffer{})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, errUsage) {
					t.Fatalf("err = %v, want usage error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !tt.check(o) {
				t.Fatalf("options not as expected: %+v", *o)
			}
		})
	}
}

// TestUsageErrorsExit2 checks that bad flags give one line on stderr and status 2.
func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"-max-workers", "0"},
		{"-runs", "0"},
		{"-bench", "nosuch"},
		{"-runs", "a"},
		{"-nosuch"},
		{"-list", "-runs", "0"}, // -list: nothing runs should the check fail
	} {
		var out, errb bytes.Buffer
		if got := run(args, &out, &errb); got != exitUsage {
			t.Errorf("run(%q) = %d, want %d", args, got, exitUsage)
		}
		msg := errb.String()
		if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "forkbench: ") {
			t.Errorf("run(%q) stderr = %q, want one line starting with forkbench:", args, msg)
		}
		if out.Len() != 0 {
			t.Errorf("run(%q) wrote to stdout: %q", args, out.String())
		}
	}
	var errb bytes.Buffer
	run([]string{"-bench", "nosuch"}, &bytes.Buffer{}, &errb)
	for _, name := range benchNames(suiteAll) {
		if !strings.Contains(errb.String(), name) {
			t.Errorf("unknown-benchmark error does not list %q: %s", name, errb.String())
		}
	}
}

// TestHelpPrintsUsageOnce checks that -h prints the usage text once, to
// stderr, and exits 0.
func TestHelpPrintsUsageOnce(t *testing.T) {
	var out, errb bytes.Buffer
	if got := run([]string{"-h"}, &out, &errb); got != exitOK {
		t.Fatalf("-h: exit %d, want %d", got, exitOK)
	}
	if n := strings.Count(errb.String(), "usage: forkbench"); n != 1 || out.Len() != 0 {
		t.Errorf("-h printed the usage %d times to stderr (stdout %q), want once:\n%s", n, out.String(), errb.String())
	}
}

// TestUnwritableOutIsUsageError checks that an existing -out directory
// that cannot be written is refused before any run, with status 2.
func TestUnwritableOutIsUsageError(t *testing.T) {
	dir := unwritableDir(t)
	var out, errb bytes.Buffer
	if got := run([]string{"-bench", "fib", "-quick", "-runs", "1", "-max-workers", "1", "-out", dir}, &out, &errb); got != exitUsage {
		t.Fatalf("-out %s: exit %d, want %d\nstderr:\n%s", dir, got, exitUsage, errb.String())
	}
	msg := errb.String()
	if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "forkbench: -out: cannot write in "+dir) {
		t.Errorf("stderr = %q, want one line saying -out cannot be written", msg)
	}
	if out.Len() != 0 {
		t.Errorf("something ran: stdout %q", out.String())
	}
}

// unwritableDir returns an existing directory this process cannot create
// files in: a read-only temporary directory, or, for root, whom
// permissions do not stop, /sys (on Linux); it skips the test otherwise.
func unwritableDir(t *testing.T) string {
	t.Helper()
	writable := func(dir string) bool {
		f, err := os.CreateTemp(dir, "probe-*")
		if err != nil {
			return false
		}
		f.Close()
		os.Remove(f.Name())
		return true
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if !writable(dir) {
		return dir
	}
	if st, err := os.Stat("/sys"); err == nil && st.IsDir() && !writable("/sys") {
		return "/sys"
	}
	t.Skip("no directory here is unwritable to this process")
	return ""
}

func TestHelpHidesTestHook(t *testing.T) {
	var errb bytes.Buffer
	if _, err := parseFlags([]string{"-h"}, &errb); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: err = %v", err)
	}
	if strings.Contains(errb.String(), "x-fail") || !strings.Contains(errb.String(), "-max-workers") {
		t.Errorf("help output wrong:\n%s", errb.String())
	}
}

func TestList(t *testing.T) {
	var out bytes.Buffer
	if got := run([]string{"-list"}, &out, &bytes.Buffer{}); got != exitOK {
		t.Fatalf("-list exit %d", got)
	}
	for _, b := range registry {
		if !strings.Contains(out.String(), b.Name) || !strings.Contains(out.String(), b.Size(kernels.Full)) {
			t.Errorf("-list lacks %s (%s)", b.Name, b.Size(kernels.Full))
		}
	}
}
