package main

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A line chart draws a value against P, a line per benchmark (or design),
// with the legend in a column on the right, in the order of the lines'
// ends from top to bottom.
const (
	lineAreaWidth  = 4.7 * vg.Inch // the plot with its axes
	lineAreaHeight = 3.6 * vg.Inch // the least height of the plot with its axes
	panelWidth     = 2.6 * vg.Inch // one panel of a panelsChart
	panelHeight    = 2.4 * vg.Inch
	panelColumns   = 3
)

// series is one line of a line chart.
type series struct {
	name string
	pts  plotter.XYs
}

// sortSeries puts lines in descending order of their last point, ties by
// name, so the legend lists them as their ends stack up.
func sortSeries(ls []series) {
	last := func(s series) float64 {
		if len(s.pts) == 0 {
			return math.Inf(-1)
		}
		return s.pts[len(s.pts)-1].Y
	}
	slices.SortStableFunc(ls, func(a, b series) int {
		if c := cmp.Compare(last(b), last(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
}

// lineChart draws lines against P, and a grey dashed reference line (the
// ideal speedup, or efficiency 1) when ref is set. With yTick set the y
// axis is on a log2 scale, for ratios that range from well below 1 to well
// above P, and yTick labels its ticks; else it is linear from 0.
type lineChart struct {
	title, yLabel string
	lines         []series
	ref           plotter.XYs
	refName       string
	ps            []int
	yTick         func(v float64) string
}

func (lc *lineChart) legend() plot.Legend {
	l := newLegend()
	l.ThumbnailWidth = vg.Points(24)
	if lc.ref != nil {
		l.Add(lc.refName, &plotter.Line{LineStyle: refStyle(refLine{dashed: true})})
	}
	for i, s := range lc.lines {
		l.Add(s.name, lineThumbs(i)...)
	}
	return l
}

// lineThumbs is the legend thumbnail of the i-th line: its colour, its
// dashes and its point shape, as lineOf draws it.
func lineThumbs(i int) []plot.Thumbnailer {
	l, g := lineOf(i)
	return []plot.Thumbnailer{&plotter.Line{LineStyle: l}, &plotter.Scatter{GlyphStyle: g}}
}

// lineOf is the style of the i-th line: a colour of the palette, then the
// same colours dashed, and a point shape of its own.
func lineOf(i int) (draw.LineStyle, draw.GlyphStyle) {
	c := palette[i%len(palette)]
	l := draw.LineStyle{Color: c, Width: vg.Points(1.5)}
	if (i/len(palette))%2 == 1 {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(2)}
	}
	return l, draw.GlyphStyle{Color: c, Radius: vg.Points(2.5), Shape: plotutil.Shape(i)}
}

func (lc *lineChart) size() (w, h vg.Length) {
	l := lc.legend()
	return legendFrameSize(lc.title, &l, lineAreaWidth, lineAreaHeight)
}

func (lc *lineChart) draw(dc draw.Canvas) {
	l := lc.legend()
	area := legendFrame(dc, lc.title, &l)
	lo, hi := yRange(lc.lines, lc.ref, lc.yTick != nil)
	linePlot(lc.lines, lc.ref, lc.ps, lc.yLabel, lo, hi, lc.yTick).Draw(area)
}

// legendFrameSize is the size of a figure with a title over an area of
// w by h, or as tall as legend l, and l in a column on the right.
func legendFrameSize(title string, l *plot.Legend, w, h vg.Length) (fw, fh vg.Length) {
	m := vg.Points(margin)
	fw = max(w+legendWidth(l), titleWidth(title)) + 2*m
	th := textStyle(titleFontSize).Height(title) + vg.Points(8)
	return fw, th + max(h, legendHeight(l)) + 2*m
}

// legendFrame draws the title at the top of dc and legend l in a column on
// the right, and returns the area left for the plot.
func legendFrame(dc draw.Canvas, title string, l *plot.Legend) draw.Canvas {
	m := vg.Points(margin)
	lw := legendWidth(l)
	c := drawTitle(draw.Crop(dc, m, -m, m, -m), title)
	l.Draw(draw.Crop(c, c.Max.X-c.Min.X-lw+m, 0, 0, 0))
	return draw.Crop(c, 0, -lw, 0, 0)
}

// linePlot is the plot of lines against the worker counts ps, with a
// dashed reference line when ref is set, its y axis from 0 to hi, or on a
// log2 scale from lo to hi (both powers of two) when yTick is set. A log
// axis is linear in log2 of the values: gonum's LogScale misplaces the
// axis label's glyph box, which squeezes the plot.
func linePlot(lines []series, ref plotter.XYs, ps []int, yLabel string, lo, hi float64, yTick func(float64) string) *plot.Plot {
	p := newPlot("")
	p.X.Label.Text = "workers P"
	p.Y.Label.Text = yLabel
	maxP := ps[len(ps)-1]
	logX := maxP >= 8 // P = 1, 2, 4, ... evenly spaced
	posX := func(x float64) float64 { return x }
	if logX {
		posX = math.Log2
	}
	posY := func(y float64) float64 { return y }
	if yTick != nil {
		posY = math.Log2
	}
	var ticks plot.ConstantTicks
	for _, q := range ps {
		ticks = append(ticks, plot.Tick{Value: posX(float64(q)), Label: strconv.Itoa(q)})
	}
	p.X.Tick.Marker = ticks
	p.X.Min, p.X.Max = posX(0.8), posX(float64(maxP)*1.1)
	if yTick != nil {
		p.Y.Tick.Marker = log2Ticks(lo, hi, yTick)
		p.Y.Min, p.Y.Max = posY(lo), posY(hi)
	} else {
		p.Y.Min, p.Y.Max = 0, hi
	}
	place := func(xys plotter.XYs) plotter.XYs {
		out := make(plotter.XYs, len(xys))
		for i, pt := range xys {
			out[i] = plotter.XY{X: posX(pt.X), Y: posY(pt.Y)}
		}
		return out
	}
	p.Add(plotter.NewGrid())
	if ref != nil {
		if l, err := plotter.NewLine(place(ref)); err == nil {
			l.LineStyle = refStyle(refLine{dashed: true})
			p.Add(l)
		}
	}
	for i, s := range lines {
		if len(s.pts) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(place(s.pts))
		if err != nil {
			continue // a NaN or Inf: nothing to draw
		}
		l.LineStyle, pts.GlyphStyle = lineOf(i)
		p.Add(l, pts)
	}
	return p
}

// yRange is the range of the lines' and ref's values: for a log axis
// (logY), widened to powers of two that log2Ticks puts ticks at.
func yRange(lines []series, ref plotter.XYs, logY bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, xys := range append([]plotter.XYs{ref}, seriesPoints(lines)...) {
		for _, pt := range xys {
			lo, hi = min(lo, pt.Y), max(hi, pt.Y)
		}
	}
	if !logY {
		return 0, hi
	}
	first, last := math.Floor(math.Log2(lo)), math.Ceil(math.Log2(hi))
	step := log2Step(first, max(last, first+1))
	first, last = math.Floor(first/step)*step, math.Ceil(last/step)*step
	return math.Exp2(first), math.Exp2(max(last, first+step))
}

func seriesPoints(lines []series) []plotter.XYs {
	var out []plotter.XYs
	for _, s := range lines {
		out = append(out, s.pts)
	}
	return out
}

// maxLogTicks is the most ticks a log2 axis gets.
const maxLogTicks = 9

// log2Step is the number of doublings between two ticks of a log2 axis
// from 2^first to 2^last: enough for at most maxLogTicks ticks.
func log2Step(first, last float64) float64 {
	return max(math.Ceil((last-first)/(maxLogTicks-1)), 1)
}

// log2Ticks puts ticks at the powers of two between lo and hi whose
// exponents are multiples of log2Step, labelled by label, on an axis in
// log2 of the values: a tick's value is its exponent.
func log2Ticks(lo, hi float64, label func(float64) string) plot.ConstantTicks {
	first, last := math.Ceil(math.Log2(lo)), math.Floor(math.Log2(hi))
	step := log2Step(first, last)
	var ticks plot.ConstantTicks
	for e := math.Ceil(first/step) * step; e <= last; e += step {
		ticks = append(ticks, plot.Tick{Value: e, Label: label(math.Exp2(e))})
	}
	return ticks
}

// panelsChart draws one small line chart per benchmark, in rows of
// panelColumns, with one legend for all: the speedup of each design of
// the pools suite against P.
type panelsChart struct {
	title  string
	panels []panel
	names  []string // the lines of every panel, in legend order
	ps     []int
	yLabel string
}

// panel is one benchmark's small chart.
type panel struct {
	name  string
	lines []series // one per name of the chart, empty where not measured
	ref   plotter.XYs
}

func (pc *panelsChart) legend() plot.Legend {
	l := newLegend()
	l.ThumbnailWidth = vg.Points(24)
	l.Add("ideal speedup P", &plotter.Line{LineStyle: refStyle(refLine{dashed: true})})
	for i, n := range pc.names {
		l.Add(n, lineThumbs(i)...)
	}
	return l
}

func (pc *panelsChart) grid() (cols, rows int) {
	cols = min(panelColumns, len(pc.panels))
	return cols, (len(pc.panels) + cols - 1) / cols
}

func (pc *panelsChart) size() (w, h vg.Length) {
	l := pc.legend()
	cols, rows := pc.grid()
	return legendFrameSize(pc.title, &l, vg.Length(cols)*panelWidth, vg.Length(rows)*panelHeight)
}

func (pc *panelsChart) draw(dc draw.Canvas) {
	l := pc.legend()
	area := legendFrame(dc, pc.title, &l)
	cols, rows := pc.grid()
	var all []series
	for _, pn := range pc.panels {
		all = append(all, pn.lines...)
		all = append(all, series{pts: pn.ref})
	}
	lo, hi := yRange(all, nil, true) // one y axis for all, so that panels compare
	tiles := draw.Tiles{Cols: cols, Rows: rows, PadX: vg.Points(10), PadY: vg.Points(10)}
	for i, pn := range pc.panels {
		p := linePlot(pn.lines, pn.ref, pc.ps, pc.yLabel, lo, hi, timesTick)
		p.Title.Text = pn.name
		p.Title.TextStyle.Font = textStyle(labelFontSize).Font
		p.Draw(tiles.At(area, i%cols, i/cols))
	}
}
