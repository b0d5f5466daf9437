package main

import (
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Text in the plots: Liberation Sans, which gonum/plot bundles and measures,
// and which has the metrics of Arial, the first fallback the SVG names (see
// svgFontFallback). A viewer with neither draws the text in its own sans
// serif (DejaVu Sans, say), up to textSlack times wider: the SVG places
// each text by its left end, so every text is left-aligned and has that
// much room to its right.
var plotFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

const (
	textSlack     = 1.25 // a fallback font's width over Liberation Sans's: DejaVu Sans's is 1.12-1.18
	titleFontSize = 10   // points
	labelFontSize = 9    // points: axis labels and benchmark names
	smallFontSize = 8    // points: ticks, values at the bars' ends and legends
	margin        = 6    // points around the canvas and the legend column
)

// svgFontFamily is how vgsvg names plotFont, and svgFontFallback what
// saveFigure writes instead: the same family, then fonts with its metrics,
// then any sans serif.
const (
	svgFontFamily   = "font-family:Liberation Sans;"
	svgFontFallback = "font-family:Liberation Sans,Arial,Helvetica,sans-serif;"
)

// palette is the Tableau 10 palette: ten colours without a repeat.
var palette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0x76, 0xb7, 0xb2, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

// kindColor is the colour of a kind of row's bars: blue as a user writes
// it, orange forking everywhere. The latency rows have no speedup bars.
var kindColor = map[string]color.Color{
	kindAsWritten:      palette[0],
	kindForkEverywhere: palette[1],
}

// serialColor fills the serial program's bars in the RSS plots.
var serialColor = color.RGBA{0xc8, 0xc8, 0xc8, 0xff}

// textStyle is plotFont at size points, aligned left and on its baseline.
func textStyle(size vg.Length) text.Style {
	return text.Style{Color: color.Black, Font: font.From(plotFont, size), Handler: plot.DefaultTextHandler}
}

// newPlot returns a plot whose texts are all plotFont, titled title.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(plotFont, titleFontSize)
	p.Title.Padding = vg.Points(8)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(plotFont, labelFontSize)
		a.Tick.Label.Font = font.From(plotFont, smallFontSize)
	}
	return p
}

// newLegend returns a legend in plotFont, its entries from the top left.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle = textStyle(smallFontSize)
	l.Padding = vg.Points(2)
	return l
}

// legendWidth is the width of the column that holds legend l: its widest
// entry, thumbnail and text, the text as wide as a fallback font draws it,
// and a margin each side; 0 for an empty legend.
func legendWidth(l *plot.Legend) vg.Length {
	r := l.Rectangle(draw.Canvas{})
	if r.Size().X == 0 {
		return 0
	}
	return vg.Length(textSlack)*r.Size().X + 2*vg.Points(margin)
}

// legendHeight is the height legend l takes, its last entry's descent and a
// margin each side included.
func legendHeight(l *plot.Legend) vg.Length {
	r := l.Rectangle(draw.Canvas{})
	return r.Size().Y + l.TextStyle.FontExtents().Descent + 2*vg.Points(margin)
}

// textWidth is how wide txt may be drawn in style s: as wide as a
// fallback font draws it.
func textWidth(s text.Style, txt string) vg.Length { return vg.Length(textSlack) * s.Width(txt) }

// titleWidth is how wide a title's longest line may be drawn.
func titleWidth(title string) vg.Length { return textWidth(textStyle(titleFontSize), title) }

// drawTitle writes title at the top left of c and returns c below it.
func drawTitle(c draw.Canvas, title string) draw.Canvas {
	sty := textStyle(titleFontSize)
	sty.YAlign = draw.YTop
	c.FillText(sty, vg.Point{X: c.Min.X, Y: c.Max.Y}, title)
	c.Max.Y -= sty.Height(title) + vg.Points(8)
	return c
}

// suitePlot is one suite's measurements as its plots draw them.
type suitePlot struct {
	name    string
	ps      []int     // every worker count measured in the suite, ascending
	rows    []plotRow // the benchmarks with a serial program, a Go baseline or none
	designs []string  // the benchmarks with a column per design (the pools suite)
}

// plotRow is one benchmark of a suite's speedup and RSS plots.
type plotRow struct {
	name, kind string
	// speedup holds (P, Ts/TP); none for a latency row, whose serial
	// variant is no serial program.
	speedup plotter.XYs
	rss     plotter.XYs // (P, peak RSS in MiB)
	// serialRSS is the serial program's peak RSS in MiB; 0 when there is
	// none (a latency row).
	serialRSS float64
}

// at returns the value of xys at P = p.
func at(xys plotter.XYs, p int) (float64, bool) {
	for _, pt := range xys {
		if pt.X == float64(p) {
			return pt.Y, true
		}
	}
	return 0, false
}

const mib = 1 << 20

// plotSuites gathers the results suite by suite, in the order of the tables.
func (r *Results) plotSuites() []suitePlot {
	var out []suitePlot
	for _, g := range r.groups() {
		if len(out) == 0 || out[len(out)-1].name != g.suite {
			out = append(out, suitePlot{name: g.suite})
		}
		s := &out[len(out)-1]
		for _, name := range g.names {
			for _, c := range r.Configs {
				if c.Bench == name && c.Variant != variantSerial && !slices.Contains(s.ps, c.P) {
					s.ps = append(s.ps, c.P)
				}
			}
			if g.designs {
				s.designs = append(s.designs, name)
				continue
			}
			row := plotRow{name: name, kind: r.kind(name)}
			for _, p := range r.workers(name, variantGofork) {
				c := r.find(name, variantGofork, p)
				if x, ok := r.speedup(c); ok {
					row.speedup = append(row.speedup, plotter.XY{X: float64(p), Y: x})
				}
				if c.PeakRSS > 0 {
					row.rss = append(row.rss, plotter.XY{X: float64(p), Y: float64(c.PeakRSS) / mib})
				}
			}
			if sc := r.serialFor(name, 1); sc != nil && row.kind != kindLatency {
				row.serialRSS = float64(sc.PeakRSS) / mib
			}
			s.rows = append(s.rows, row)
		}
	}
	for i := range out {
		slices.Sort(out[i].ps)
	}
	return out
}

// writePlots writes the plots of r into dir, for each suite:
// speedup-<suite>.svg and rss-<suite>.svg for its benchmarks with a
// serial program (the speedup plot leaves
// out the latency rows, which have none), and, for its benchmarks with a
// column per design, speedup-<suite>.svg (speedup-<suite>-designs.svg when
// the suite has both kinds). Each plot is a sorted bar chart at the largest
// P measured in the suite. It returns the files written.
func writePlots(dir string, r *Results) ([]string, error) {
	var files []string
	machine := fmt.Sprintf("%s, %d cores, %s", r.Machine.CPU, r.Machine.Cores, r.Machine.GoVersion)
	for _, s := range r.plotSuites() {
		if len(s.ps) == 0 {
			continue // nothing measured (an early interrupt)
		}
		type plotFile struct {
			name string
			fig  *barChart
		}
		var out []plotFile
		if len(s.rows) > 0 {
			out = append(out,
				plotFile{"speedup-" + s.name, speedupFigure(s, machine)},
				plotFile{"rss-" + s.name, rssFigure(s, machine)})
		}
		if len(s.designs) > 0 {
			name := "speedup-" + s.name
			if len(s.rows) > 0 {
				name += "-designs"
			}
			out = append(out, plotFile{name, designsFigure(r, s, machine)})
		}
		for _, f := range out {
			if err := saveFigure(filepath.Join(dir, f.name+".svg"), f.fig, &files); err != nil {
				return files, err
			}
		}
	}
	return files, nil
}

// saveFigure draws f into path as SVG and appends path to files; a nil f
// (nothing measured) writes nothing.
func saveFigure(path string, f *barChart, files *[]string) error {
	if f == nil {
		return nil
	}
	w, h := f.size()
	c := vgsvg.New(w, h)
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return err
	}
	b := bytes.ReplaceAll(buf.Bytes(), []byte(svgFontFamily), []byte(svgFontFallback))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	*files = append(*files, path)
	return nil
}
