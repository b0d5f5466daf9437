package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// svgSizeRE and svgTextRE read an SVG written by vgsvg: the canvas size in
// points, and each text's position, font size and string. Texts sit in a
// group flipped by scale(1, -1), and each text flips back, so a text's y
// attribute is minus its baseline's height above the canvas bottom.
var (
	svgSizeRE = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`)
	svgTextRE = regexp.MustCompile(`<text x="([-0-9.e+]+)" y="([-0-9.e+]+)" transform="scale\(1, -1\)"\s+style="[^"]*font-size:([0-9.]+)px">([^<]*)</text>`)
)

// TestPlotLegendInsideCanvas draws the speedup plot of as many benchmarks
// as -suite all has, some with long names, and checks in the SVG that
// every legend entry lies inside the canvas: from its left edge to the end
// of its text, and from its baseline down by the font's descent and up by
// its ascent.
func TestPlotLegendInsideCanvas(t *testing.T) {
	r := sampleResults()
	r.Benchmarks, r.Configs = nil, nil
	want := []string{"ideal"}
	for i := range 40 {
		name := fmt.Sprintf("bench-%02d", i)
		if i%7 == 3 {
			name = fmt.Sprintf("a-benchmark-with-a-rather-long-name-%02d", i)
		}
		want = append(want, name)
		r.Benchmarks = append(r.Benchmarks, BenchInfo{Name: name, Suite: suiteMain, Kind: kindAsWritten,
			Variants: []string{variantSerial, variantGofork}})
		r.Configs = append(r.Configs,
			Config{Bench: name, Suite: suiteMain, Variant: variantSerial, P: 1, MedianNS: 100, PeakRSS: 1 << 20},
			Config{Bench: name, Suite: suiteMain, Variant: variantGofork, P: 1, MedianNS: int64(100 + i), PeakRSS: 1 << 20},
			Config{Bench: name, Suite: suiteMain, Variant: variantGofork, P: 2, MedianNS: int64(50 + i), PeakRSS: 1 << 20})
	}
	dir := t.TempDir()
	if _, err := writePlots(dir, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "speedup.svg"))
	if err != nil {
		t.Fatal(err)
	}
	m := svgSizeRE.FindSubmatch(b)
	if m == nil {
		t.Fatalf("speedup.svg has no size:\n%.400s", b)
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	seen := map[string]bool{}
	for _, m := range svgTextRE.FindAllSubmatch(b, -1) {
		name := string(m[4])
		if !strings.HasPrefix(name, "bench-") && !strings.HasPrefix(name, "a-benchmark") && name != "ideal" {
			continue // a title, a label or a tick
		}
		seen[name] = true
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		y, _ := strconv.ParseFloat(string(m[2]), 64)
		size, _ := strconv.ParseFloat(string(m[3]), 64)
		sty := text.Style{Font: font.From(plot.DefaultFont, vg.Length(size)), Handler: plot.DefaultTextHandler}
		ext := sty.FontExtents()
		left, right := x, x+float64(sty.Width(name))
		bottom, top := -y-float64(ext.Descent), -y+float64(ext.Ascent)
		if left < 0 || right > w || bottom < 0 || top > h {
			t.Errorf("legend entry %q spans x %.1f..%.1f, y %.1f..%.1f: outside the %.0fx%.0f canvas", name, left, right, bottom, top, w, h)
		}
	}
	for _, name := range want {
		if !seen[name] {
			t.Errorf("no legend entry %q in speedup.svg", name)
		}
	}
}

// TestReplot checks that -replot draws the plots of a results file into
// -out without running anything.
func TestReplot(t *testing.T) {
	r := sampleResults()
	r.Configs = append(r.Configs, Config{Bench: "fib", Suite: suiteMain, Variant: variantGofork, P: 1, MedianNS: 120, PeakRSS: 9 << 20})
	src := filepath.Join(t.TempDir(), "results.json")
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if got := run([]string{"-replot", src, "-out", dir}, &out, &errb); got != exitOK {
		t.Fatalf("-replot: exit %d\n%s", got, errb.String())
	}
	if out.Len() != 0 {
		t.Errorf("-replot printed a table: %q", out.String())
	}
	for _, f := range []string{"speedup.svg", "efficiency.svg", "rss.svg"} {
		if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || !bytes.Contains(b, []byte("<svg")) {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err == nil {
		t.Errorf("-replot wrote results.json")
	}
	errb.Reset()
	if got := run([]string{"-replot", filepath.Join(dir, "missing.json"), "-out", dir}, &out, &errb); got != exitUsage ||
		!strings.HasPrefix(errb.String(), "forkbench: -replot: ") {
		t.Errorf("-replot of a missing file: exit %d, stderr %q", got, errb.String())
	}
}
