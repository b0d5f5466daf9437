package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// svgSizeRE and svgTextRE read an SVG written by vgsvg: the canvas size in
// points, and each text's rotation, position, font size and string. Texts
// sit in a group flipped by scale(1, -1), and each text flips back, so a
// text's y attribute is minus its baseline's height above the canvas
// bottom. A y axis's label sits in a group rotated by 90 degrees, which
// swaps the two: its x attribute is the height its baseline starts at, and
// its y attribute the baseline's distance from the left edge; it reads
// upwards.
var (
	svgSizeRE = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`)
	svgTextRE = regexp.MustCompile(`(<g transform="rotate\(90\)">\s*)?<text x="([-0-9.e+]+)" y="([-0-9.e+]+)" transform="scale\(1, -1\)"\s+style="([^"]*)font-size:([0-9.]+)px">([^<]*)</text>`)
)

// capHeight is the height of Liberation Sans's capitals and digits, in
// ems: the ink of a text ends there, below the font's ascent, which leaves
// room for accents none of the plots' texts have.
const capHeight = 0.75

// svgText is one text of an SVG, and the box its ink takes drawn in the
// widest fallback font: from its left end textSlack times its width in
// plotFont to the right, from its descent below its baseline to capHeight
// above (turned by 90 degrees for a rotated text).
type svgText struct {
	text                     string
	y                        float64 // its baseline's height above the canvas bottom
	left, right, bottom, top float64
	fontFamilyListed         bool // the style names the fallback fonts
}

// readSVG returns the canvas size of an SVG plot and its texts.
func readSVG(t *testing.T, path string) (w, h float64, texts []svgText) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := svgSizeRE.FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no size:\n%.400s", path, b)
	}
	w, _ = strconv.ParseFloat(string(m[1]), 64)
	h, _ = strconv.ParseFloat(string(m[2]), 64)
	for _, m := range svgTextRE.FindAllSubmatch(b, -1) {
		x, _ := strconv.ParseFloat(string(m[2]), 64)
		y, _ := strconv.ParseFloat(string(m[3]), 64)
		size, _ := strconv.ParseFloat(string(m[5]), 64)
		txt := html.UnescapeString(string(m[6]))
		sty := textStyle(vg.Length(size))
		width := textSlack * float64(sty.Width(txt))
		descent, capTop := float64(sty.FontExtents().Descent), capHeight*size
		st := svgText{text: txt, y: -y, left: x, right: x + width, bottom: -y - descent, top: -y + capTop,
			fontFamilyListed: strings.Contains(string(m[4]), svgFontFallback)}
		if len(m[1]) > 0 { // rotated: reads upwards, its top to the left
			st = svgText{text: txt, y: x, left: y - capTop, right: y + descent, bottom: x, top: x + width,
				fontFamilyListed: st.fontFamilyListed}
		}
		texts = append(texts, st)
	}
	if len(texts) == 0 {
		t.Fatalf("%s has no text", path)
	}
	return w, h, texts
}

// plotCase describes the results of one synthetic run: its suites'
// benchmarks with their speedups, drawn from a seeded RNG.
type plotCase struct {
	ps   []int
	seed uint64
}

// longName is a benchmark name longer than any registered one.
const longName = "a-benchmark-with-a-rather-long-name-for-a-legend"

// plotBenchmarks are the benchmarks of plotResults: name, suite, kind,
// and whether it has a column per design.
var plotBenchmarks = []struct {
	name, suite, kind string
	designs           bool
}{
	{"fib-cutoff", suiteMain, kindAsWritten, false},
	{"fib", suiteMain, kindForkEverywhere, false},
	{"integrate-cutoff", suiteMain, kindAsWritten, false},
	{longName, suiteMain, kindAsWritten, false},
	{"matmul", suiteMain, kindAsWritten, false},
	{"server-p99", "realworld", kindLatency, false},
	{"mapseq", "realworld", kindAsWritten, false},
	{"light", "pools", kindForkEverywhere, true},
	{"imbalanced", "pools", kindAsWritten, true},
	{"prim-indexfunc-early", "primitives", kindAsWritten, false},
	{"prim-indexfunc-end", "primitives", kindAsWritten, false},
	{"prim-scan-inclusive", "primitives", kindAsWritten, false},
}

// plotResults returns results of every benchmark of plotBenchmarks at
// P in c.ps, speedups from 0.01 to 20, and the speedup of each at the
// largest P (of its gofork variant, for a benchmark with designs).
func plotResults(c plotCase) (*Results, map[string]float64) {
	rng := rand.New(rand.NewPCG(c.seed, 1))
	r := sampleResults()
	r.Benchmarks, r.Configs, r.Fits, r.Verdict, r.Failures = nil, nil, nil, nil, nil
	r.Settings.Workers = c.ps
	last := map[string]float64{}
	for _, b := range plotBenchmarks {
		variants := []string{variantSerial, variantGofork, variantBaseline}
		if b.designs {
			variants = []string{variantSerial, variantGofork, variantGlobal, variantLocal, variantGoroutine}
		}
		r.Benchmarks = append(r.Benchmarks, BenchInfo{Name: b.name, Suite: b.suite, Kind: b.kind, Variants: variants})
		r.Configs = append(r.Configs, Config{Bench: b.name, Suite: b.suite, Variant: variantSerial, P: 1, MedianNS: 1e6, PeakRSS: 10 << 20})
		for _, p := range c.ps {
			for _, v := range variants[1:] {
				x := math.Exp2(rng.Float64()*11 - 6.6) // 0.01 to 20
				r.Configs = append(r.Configs, Config{Bench: b.name, Suite: b.suite, Variant: v, P: p,
					MedianNS: int64(1e6 / x), PeakRSS: int64(10+rng.IntN(500)) << 20})
				if v == variantGofork && p == c.ps[len(c.ps)-1] {
					last[b.name] = ratio(1e6, int64(1e6/x))
				}
			}
		}
	}
	return r, last
}

// suiteFiles are the plot files of plotResults.
var suiteFiles = []string{
	"speedup-main.svg", "rss-main.svg",
	"speedup-realworld.svg", "rss-realworld.svg",
	"speedup-pools.svg",
	"speedup-primitives.svg", "rss-primitives.svg",
}

// TestPlotFilePerSuite checks that each suite gets its own speedup,
// and RSS plot (a suite with a column per design one speedup
// plot), whatever the number of worker counts.
func TestPlotFilePerSuite(t *testing.T) {
	for _, ps := range [][]int{{1}, {1, 2}, {1, 2, 4}, {1, 2, 4, 8, 16}} {
		r, _ := plotResults(plotCase{ps: ps, seed: 1})
		dir := t.TempDir()
		files, err := writePlots(dir, r)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			got = append(got, filepath.Base(f))
		}
		if !slices.Equal(got, suiteFiles) {
			t.Errorf("P %v: wrote %v, want %v", ps, got, suiteFiles)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != len(suiteFiles) {
			t.Errorf("P %v: %d files in the directory, want %d", ps, len(entries), len(suiteFiles))
		}
	}

	// A suite with both kinds of benchmark: the designs get a file of
	// their own.
	r, _ := plotResults(plotCase{ps: []int{1, 2}, seed: 1})
	for i := range r.Benchmarks {
		if r.Benchmarks[i].Name == "fib" {
			r.Benchmarks[i].Suite = "pools"
		}
	}
	for i := range r.Configs {
		if r.Configs[i].Bench == "fib" {
			r.Configs[i].Suite = "pools"
		}
	}
	files, err := writePlots(t.TempDir(), r)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		if strings.Contains(f, "-pools") {
			got = append(got, filepath.Base(f))
		}
	}
	if want := []string{"speedup-pools.svg", "rss-pools.svg", "speedup-pools-designs.svg"}; !slices.Equal(got, want) {
		t.Errorf("a suite with and without designs: wrote %v, want %v", got, want)
	}
}

// TestPlotBarsAtLargestP checks that every suite is drawn as bars at the
// largest P, whatever the worker counts measured, one value printed at the
// end of each bar.
func TestPlotBarsAtLargestP(t *testing.T) {
	for _, ps := range [][]int{{1}, {1, 2}, {1, 2, 4}, {1, 2, 4, 8}} {
		r, last := plotResults(plotCase{ps: ps, seed: 2})
		dir := t.TempDir()
		if _, err := writePlots(dir, r); err != nil {
			t.Fatal(err)
		}
		_, _, texts := readSVG(t, filepath.Join(dir, "speedup-main.svg"))
		for _, name := range []string{"fib-cutoff", "fib", longName, "matmul"} {
			if want := barTimes(last[name]); !slices.ContainsFunc(texts, func(x svgText) bool { return x.text == want }) {
				t.Errorf("P %v: speedup-main.svg does not print %s's speedup %s", ps, name, want)
			}
		}
	}
}

// TestPlotBarsSorted checks that a bar chart lists its benchmarks from the
// largest speedup at the top to the smallest at the bottom, and leaves out
// the latency rows.
func TestPlotBarsSorted(t *testing.T) {
	for seed := range uint64(5) {
		r, last := plotResults(plotCase{ps: []int{1, 2}, seed: seed})
		dir := t.TempDir()
		if _, err := writePlots(dir, r); err != nil {
			t.Fatal(err)
		}
		for _, suite := range []string{suiteMain, "primitives", "realworld"} {
			_, _, texts := readSVG(t, filepath.Join(dir, "speedup-"+suite+".svg"))
			var names []string
			y := map[string]float64{}
			for _, b := range plotBenchmarks {
				if b.suite != suite {
					continue
				}
				for _, x := range texts {
					if x.text == b.name {
						y[b.name] = x.y
					}
				}
				if _, ok := y[b.name]; ok != (b.kind != kindLatency) {
					t.Errorf("seed %d: speedup-%s.svg names %s: %v, want %v", seed, suite, b.name, ok, !ok)
				} else if ok {
					names = append(names, b.name)
				}
			}
			byY := slices.Clone(names)
			slices.SortFunc(byY, func(a, b string) int { return cmp.Compare(y[b], y[a]) })
			byValue := slices.Clone(names)
			slices.SortStableFunc(byValue, func(a, b string) int { return cmp.Compare(last[b], last[a]) })
			if !slices.Equal(byY, byValue) {
				t.Errorf("seed %d: speedup-%s.svg lists %v from the top, want %v (speedups %v)", seed, suite, byY, byValue, last)
			}
		}
	}
}

// TestPlotTextsWholeAndInside checks every plot for what
// makes one unreadable: every benchmark of its suite is named whole in a
// text of its own; every text lies inside the canvas and overlaps no other
// one, even drawn textSlack times wider than Liberation Sans; and the SVG
// names the fallback fonts.
func TestPlotTextsWholeAndInside(t *testing.T) {
	for _, ps := range [][]int{{1, 2}, {1, 2, 4, 8}} {
		r, _ := plotResults(plotCase{ps: ps, seed: 3})
		dir := t.TempDir()
		if _, err := writePlots(dir, r); err != nil {
			t.Fatal(err)
		}
		for _, f := range suiteFiles {
			w, h, texts := readSVG(t, filepath.Join(dir, f))
			suite := strings.TrimSuffix(f[strings.Index(f, "-")+1:], ".svg")
			for _, b := range plotBenchmarks {
				if b.suite != suite || b.kind == kindLatency && !strings.HasPrefix(f, "rss-") {
					continue
				}
				if !slices.ContainsFunc(texts, func(x svgText) bool { return x.text == b.name }) {
					t.Errorf("P %v: %s has no text %q", ps, f, b.name)
				}
			}
			for i, a := range texts {
				if !a.fontFamilyListed {
					t.Errorf("P %v: %s: text %q names no fallback font", ps, f, a.text)
				}
				if a.left < 0 || a.right > w || a.bottom < 0 || a.top > h {
					t.Errorf("P %v: %s: text %q spans x %.1f..%.1f, y %.1f..%.1f: outside the %.0fx%.0f canvas",
						ps, f, a.text, a.left, a.right, a.bottom, a.top, w, h)
				}
				for _, b := range texts[i+1:] {
					if a.left < b.right && b.left < a.right && a.bottom < b.top && b.bottom < a.top {
						t.Errorf("P %v: %s: texts %q and %q overlap", ps, f, a.text, b.text)
					}
				}
			}
		}
	}
}

// TestPlotHeightGrowsWithRows checks that a bar chart is sized from its
// rows: twice the benchmarks, more height, and the same bar thickness.
func TestPlotHeightGrowsWithRows(t *testing.T) {
	height := func(n int) vg.Length {
		b := &barChart{title: "t", log: true, tick: timesTick}
		for i := range n {
			b.groups = append(b.groups, barGroup{name: fmt.Sprint("b", i), bars: []bar{{value: 1.5, label: "1.50x"}}})
		}
		_, h := b.size()
		return h
	}
	h5, h10, h20 := height(5), height(10), height(20)
	if d1, d2 := h10-h5, h20-h10; !(d1 > 0) || math.Abs(float64(d2-2*d1)) > 1e-6 {
		t.Errorf("heights for 5, 10, 20 rows: %v, %v, %v: want a fixed height per row", h5, h10, h20)
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
	for _, f := range []string{"speedup-main.svg", "rss-main.svg"} {
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
