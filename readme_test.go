package gofork_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// goBlock matches a fenced Go block of a Markdown file.
var goBlock = regexp.MustCompile("(?ms)^```go\n(.*?)^```\n")

// readmeBlocks returns the Go blocks of README.md.
func readmeBlocks(t *testing.T) []string {
	t.Helper()
	md, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range goBlock.FindAllStringSubmatch(string(md), -1) {
		blocks = append(blocks, m[1])
	}
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go block")
	}
	return blocks
}

// TestREADMEFragmentsAreExamples checks that every Go block of the README
// that is not a whole program is the body of an Example in
// readme_example_test.go (indented one tab there), or a top-level
// declaration of that file, word for word, so that go test compiles it and
// checks its output.
func TestREADMEFragmentsAreExamples(t *testing.T) {
	src, err := os.ReadFile("readme_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range readmeBlocks(t) {
		if strings.HasPrefix(b, "package main\n") {
			continue
		}
		var body strings.Builder
		for _, line := range strings.SplitAfter(b, "\n") {
			if strings.TrimSpace(line) != "" {
				body.WriteString("\t")
			}
			body.WriteString(line)
		}
		// Inside an Example's body (one tab in), or a top-level declaration.
		if !strings.Contains(string(src), body.String()) && !strings.Contains(string(src), b) {
			t.Errorf("README Go block %d is not the body of an Example in readme_example_test.go:\n%s", i+1, b)
		}
	}
}

// TestREADMEProgramsBuild builds every Go block of the README that is a
// whole program (it starts with "package main"), in a module of its own
// that requires this one from the working tree.
func TestREADMEProgramsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	// The module requires what this one requires, plus this one from the
	// working tree, so that it resolves from the same go.sum.
	mod := regexp.MustCompile(`(?m)^module .*$`).ReplaceAllString(string(gomod), "module readmecheck")
	mod += "\nrequire github.com/gofork/gofork v0.0.0\n\nreplace github.com/gofork/gofork => " + strconv.Quote(root) + "\n"
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "go.mod"), []byte(mod))
	if sum, err := os.ReadFile("go.sum"); err == nil {
		write(filepath.Join(dir, "go.sum"), sum)
	}
	var pkgs []string
	for i, b := range readmeBlocks(t) {
		if !strings.HasPrefix(b, "package main\n") {
			continue
		}
		p := "./block" + strconv.Itoa(i+1)
		write(filepath.Join(dir, p, "main.go"), []byte(b))
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("README.md has no whole program (a Go block starting with package main)")
	}
	cmd := exec.Command(gobin, append([]string{"build", "-mod=mod"}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's programs do not build: %v\n%s", err, out)
	}
}
