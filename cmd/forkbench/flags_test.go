package main

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
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
			return len(o.benchmarks) == 2 && o.benchmarks[0].name == "fib" && o.runs == 3 && o.maxWorkers == 4 && o.quick && o.quiet
		}},
		{args: []string{"-suite", "pools"}, check: func(o *options) bool {
			for _, b := range o.benchmarks {
				if b.suite != suitePools {
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
		{args: []string{"-regress", "0.9"}, wantErr: "-regress 0.9"},
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
		if !strings.Contains(out.String(), b.name) || !strings.Contains(out.String(), b.size(false)) {
			t.Errorf("-list lacks %s (%s)", b.name, b.size(false))
		}
	}
}
