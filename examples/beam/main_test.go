package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/gofork/gofork/examples/beam/internal/beamtest"
	"github.com/gofork/gofork/examples/beam/percentiles"
)

func TestMain(m *testing.M) { beamtest.Main(m) }

// TestProgramOutput runs the program's pipeline as main does (beamx.Run, so
// on prism when no --runner is given) and checks the file it writes against
// percentiles.Serial, line by line.
func TestProgramOutput(t *testing.T) {
	cfg := percentiles.Default()
	cfg.Records = 1_000_000
	if testing.Short() {
		cfg.Records = 100_000
	}
	cfg.Sources = 2
	out := filepath.Join(t.TempDir(), "percentiles.txt")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := beamx.Run(ctx, build(cfg, out)); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	slices.Sort(got)
	var want []string
	for _, s := range percentiles.Serial(cfg) {
		want = append(want, s.String())
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("output differs from the serial computation:\ngot:\n%s\nwant:\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
