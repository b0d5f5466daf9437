package main

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot layout: the plot area has a fixed size, and the legend takes a
// column to its right sized from its entries (see layoutFor).
const (
	plotWidth      = 4.7 * vg.Inch // the plot area, axes and title included
	plotHeight     = 4 * vg.Inch   // the least height of the canvas
	legendFontSize = 8             // points
	legendMargin   = 6             // points around the legend column
)

// lineColors is the Tableau 10 palette: ten lines without a repeat.
var lineColors = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0x76, 0xb7, 0xb2, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

// series is one line of a plot.
type series struct {
	name string
	pts  plotter.XYs
}

// writePlots writes speedup.svg, efficiency.svg and rss.svg for the
// benchmarks of the standard tables (the speedup and efficiency plots leave
// out the latency rows, which have no serial program) and
// <suite>-<test>.svg for each benchmark with a column per design
// (pools-imbalanced.svg); it returns the files written.
func writePlots(dir string, r *Results) ([]string, error) { return writePlotsAs(dir, ".svg", r) }

// writePlotsAs is writePlots with the file extension (".svg" or ".png").
func writePlotsAs(dir, ext string, r *Results) ([]string, error) {
	var files []string
	title := fmt.Sprintf("%s, %d cores, %s", r.Machine.CPU, r.Machine.Cores, r.Machine.GoVersion)
	var names, designs []string
	suiteOf := map[string]string{}
	for _, g := range r.groups() {
		for _, name := range g.names {
			suiteOf[name] = g.suite
		}
		if g.designs {
			designs = append(designs, g.names...)
		} else {
			names = append(names, g.names...)
		}
	}
	if len(names) > 0 {
		var speed, eff, rss []series
		maxP := 1
		for _, name := range names {
			var sp, ef, rs plotter.XYs
			for _, p := range r.workers(name, variantGofork) {
				g := r.find(name, variantGofork, p)
				maxP = max(maxP, p)
				if x, ok := r.speedup(g); ok {
					sp = append(sp, plotter.XY{X: float64(p), Y: x})
					ef = append(ef, plotter.XY{X: float64(p), Y: x / float64(p)})
				}
				if g.PeakRSS > 0 {
					rs = append(rs, plotter.XY{X: float64(p), Y: float64(g.PeakRSS) / (1 << 20)})
				}
			}
			speed = append(speed, series{name, sp})
			eff = append(eff, series{name, ef})
			rss = append(rss, series{name, rs})
		}
		ideal := plotter.XYs{{X: 1, Y: 1}, {X: float64(maxP), Y: float64(maxP)}}
		if err := savePlot(dir, "speedup"+ext, "gofork speedup Ts/Tp — "+title, "speedup over serial (log scale)", speed, ideal, maxP, true, &files); err != nil {
			return files, err
		}
		one := plotter.XYs{{X: 1, Y: 1}, {X: float64(maxP), Y: 1}}
		if err := savePlot(dir, "efficiency"+ext, "gofork efficiency Ts/(P·Tp) — "+title, "efficiency Ts/(P·Tp) (log scale)", eff, one, maxP, true, &files); err != nil {
			return files, err
		}
		if err := savePlot(dir, "rss"+ext, "gofork peak RSS — "+title, "peak RSS (MiB)", rss, nil, maxP, false, &files); err != nil {
			return files, err
		}
	}
	for _, name := range designs {
		var lines []series
		maxP := 1
		for _, d := range r.designColumns([]string{name}) {
			var sp plotter.XYs
			for _, p := range r.workers(name, d) {
				c := r.find(name, d, p)
				maxP = max(maxP, p)
				if s := r.serialFor(name, p); s != nil && c.MedianNS > 0 {
					sp = append(sp, plotter.XY{X: float64(p), Y: ratio(s.MedianNS, c.MedianNS)})
				}
			}
			if len(sp) > 0 {
				lines = append(lines, series{d, sp})
			}
		}
		ideal := plotter.XYs{{X: 1, Y: 1}, {X: float64(maxP), Y: float64(maxP)}}
		if err := savePlot(dir, suiteOf[name]+"-"+name+ext, name+": speedup per design — "+title, "speedup over serial (log scale)", lines, ideal, maxP, true, &files); err != nil {
			return files, err
		}
	}
	return files, nil
}

// savePlot draws lines (one per series, with points) against P, plus a
// dashed reference line when ref is not nil, with the legend to the right
// of the plot, as SVG (or PNG when file ends in .png). logY puts the y axis
// on a log2 scale, for speedups that range from well below 1 to well above P.
func savePlot(dir, file, title, ylabel string, lines []series, ref plotter.XYs, maxP int, logY bool, files *[]string) error {
	if !slices.ContainsFunc(lines, func(s series) bool { return len(s.pts) > 0 }) {
		return nil // nothing measured (an early interrupt): no plot
	}
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(9)
	p.X.Label.Text = "workers P"
	p.Y.Label.Text = ylabel
	p.X.Min = 0.8
	p.X.Max = float64(maxP) + 0.2
	var ticks plot.ConstantTicks
	for _, q := range workerCounts(maxP) {
		ticks = append(ticks, plot.Tick{Value: float64(q), Label: strconv.Itoa(q)})
	}
	p.X.Tick.Marker = ticks
	legend := plot.NewLegend()
	legend.Top = true
	legend.Left = true
	legend.TextStyle.Font.Size = vg.Points(legendFontSize)
	p.Add(plotter.NewGrid())
	lo, hi := math.Inf(1), math.Inf(-1)
	if ref != nil {
		l, err := plotter.NewLine(ref)
		if err != nil {
			return err
		}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Color = color.Gray{Y: 110}
		p.Add(l)
		legend.Add("ideal", l)
		for _, pt := range ref {
			lo, hi = min(lo, pt.Y), max(hi, pt.Y)
		}
	}
	for i, s := range lines {
		if len(s.pts) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(s.pts)
		if err != nil {
			return err
		}
		l.Color = lineColors[i%len(lineColors)]
		l.Width = vg.Points(1.5)
		pts.Color = lineColors[i%len(lineColors)]
		pts.Shape = plotutil.Shape(i)
		p.Add(l, pts)
		legend.Add(s.name, l, pts)
		for _, pt := range s.pts {
			lo, hi = min(lo, pt.Y), max(hi, pt.Y)
		}
	}
	if logY && lo > 0 && !math.IsInf(lo, 0) {
		p.Y.Scale = plot.LogScale{}
		var yt plot.ConstantTicks
		first := math.Floor(math.Log2(lo))
		last := max(math.Ceil(math.Log2(hi)), first+1)
		for e := first; e <= last; e++ {
			v := math.Exp2(e)
			yt = append(yt, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 3, 64)})
		}
		p.Y.Tick.Marker = yt
		p.Y.Min, p.Y.Max = math.Exp2(first), math.Exp2(last)
	} else {
		p.Y.Min = 0
	}

	lay := layoutFor(&legend)
	var c vg.CanvasWriterTo = vgsvg.New(lay.width, lay.height)
	if filepath.Ext(file) == ".png" {
		c = vgimg.PngCanvas{Canvas: vgimg.New(lay.width, lay.height)}
	}
	dc := draw.New(c)
	m := vg.Points(legendMargin)
	p.Draw(draw.Crop(dc, 0, -lay.legendW, 0, 0))
	legend.Draw(draw.Crop(dc, lay.width-lay.legendW+m, -m, m, -m))
	path := filepath.Join(dir, file)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	*files = append(*files, path)
	return nil
}

// plotLayout is the canvas savePlot draws on: the plot in its left
// width-legendW, the legend in a column of legendW to its right.
type plotLayout struct {
	width, height, legendW vg.Length
}

// layoutFor sizes the canvas for legend l, one entry a line: its column is
// as wide as the widest entry (thumbnail and text) plus a margin each side,
// and the canvas is plotHeight tall, or taller when the entries need it.
func layoutFor(l *plot.Legend) plotLayout {
	r := l.Rectangle(draw.Canvas{}) // the entries' extent; Draw adds the last one's descent below
	m := vg.Points(legendMargin)
	legendW := r.Size().X + 2*m
	legendH := r.Size().Y + l.TextStyle.FontExtents().Descent + 2*m
	return plotLayout{width: plotWidth + legendW, height: max(plotHeight, legendH), legendW: legendW}
}
