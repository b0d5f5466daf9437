package main

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A bar chart has a row per benchmark, the largest value on top, the
// benchmark's full name left of its row, the value at the end of each bar,
// and the legend under the x axis. Its height grows with the number of
// bars.
const (
	barAreaWidth = 330 // points: the bars' area with its x axis
	slotSingle   = 15  // points a row takes when every row has one bar
	slotGrouped  = 11  // points a bar takes in rows of several bars
	groupGap     = 0.7 // slots between two rows of several bars
	barFill      = 0.7 // of its slot a bar fills
	xAxisHeight  = 44  // points: about what the x axis, its ticks and label take
	labelGap     = 3   // points between a bar's end and its value
)

// bar is one bar: its value, the text printed at its end, its colour.
type bar struct {
	value float64
	label string
	color color.Color
}

// barGroup is one row of a bar chart: a benchmark and its bars, one per
// variant drawn.
type barGroup struct {
	name string
	bars []bar
}

// refLine is a vertical reference line across the bars, named in the legend.
type refLine struct {
	x      float64
	name   string
	dashed bool
}

// swatch is a legend entry for the bars of one colour.
type swatch struct {
	name  string
	color color.Color
}

// Thumbnail implements plot.Thumbnailer: a square of the swatch's colour.
func (s swatch) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	x := c.Min.X + (c.Max.X-c.Min.X-h)/2
	c.FillPolygon(s.color, []vg.Point{{X: x, Y: c.Min.Y}, {X: x + h, Y: c.Min.Y}, {X: x + h, Y: c.Max.Y}, {X: x, Y: c.Max.Y}})
}

// barChart is a horizontal bar chart, rows sorted by their first bar,
// descending. With log set the x axis is log2 and bars start at 1 (a ratio:
// right of 1 gofork is faster, left slower); else it is linear and bars
// start at 0.
type barChart struct {
	title, xLabel string
	log           bool
	tick          func(v float64) string // an x tick's label
	groups        []barGroup
	refs          []refLine
	swatches      []swatch
}

// sortGroups puts the groups in descending order of their first bar, ties
// by name.
func sortGroups(gs []barGroup) {
	slices.SortStableFunc(gs, func(a, b barGroup) int {
		if c := cmp.Compare(b.bars[0].value, a.bars[0].value); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
}

// slot is the height of one bar's slot in points.
func (b *barChart) slot() vg.Length {
	for _, g := range b.groups {
		if len(g.bars) > 1 {
			return slotGrouped
		}
	}
	return slotSingle
}

// layout places the bars in y data units, one slot each, the first group
// on top: it returns each group's bars' centres and the axis's height.
func (b *barChart) layout() (ys [][]float64, top float64) {
	y := 0.0
	ys = make([][]float64, len(b.groups))
	for i := len(b.groups) - 1; i >= 0; i-- {
		g := b.groups[i]
		if i < len(b.groups)-1 && b.slot() == slotGrouped {
			y += groupGap
		}
		ys[i] = make([]float64, len(g.bars))
		for j := len(g.bars) - 1; j >= 0; j-- {
			ys[i][j] = y + 0.5
			y++
		}
	}
	return ys, y
}

// legends returns the legend's columns, drawn side by side under the x
// axis: the bars' colours, then the reference lines; empty ones left out.
func (b *barChart) legends() []plot.Legend {
	var out []plot.Legend
	if len(b.swatches) > 0 {
		l := newLegend()
		for _, s := range b.swatches {
			l.Add(s.name, s)
		}
		out = append(out, l)
	}
	if len(b.refs) > 0 {
		l := newLegend()
		l.ThumbnailWidth = vg.Points(24)
		for _, r := range b.refs {
			l.Add(r.name, &plotter.Line{LineStyle: refStyle(r)})
		}
		out = append(out, l)
	}
	return out
}

// legendsSize is the extent of the legend's columns side by side.
func (b *barChart) legendsSize() (w, h vg.Length) {
	ls := b.legends()
	for i := range ls {
		w += legendWidth(&ls[i])
		h = max(h, legendHeight(&ls[i]))
	}
	return w, h
}

// nameWidth is the width of the names' column, a gap after it included.
func (b *barChart) nameWidth() vg.Length {
	var w vg.Length
	for _, g := range b.groups {
		w = max(w, textWidth(textStyle(labelFontSize), g.name))
	}
	return w + vg.Points(8)
}

func (b *barChart) size() (w, h vg.Length) {
	_, slots := b.layout()
	lw, lh := b.legendsSize()
	m := vg.Points(margin)
	w = max(b.nameWidth()+max(barAreaWidth, lw), titleWidth(b.title)) + 2*m
	th := textStyle(titleFontSize).Height(b.title) + vg.Points(8)
	h = th + vg.Length(slots)*b.slot() + xAxisHeight + lh + 2*m
	return w, h
}

func (b *barChart) draw(dc draw.Canvas) {
	m := vg.Points(margin)
	c := drawTitle(draw.Crop(dc, m, -m, m, -m), b.title)
	nw := b.nameWidth()
	_, lh := b.legendsSize()
	x := c.Min.X + nw - m // the legend's margin lines its thumbnails up with the axis
	for _, l := range b.legends() {
		lw := legendWidth(&l)
		l.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x + m, Y: c.Min.Y + m},
			Max: vg.Point{X: x + lw - m, Y: c.Min.Y + lh - m},
		}})
		x += lw
	}
	area := draw.Crop(c, nw, 0, lh, 0)

	ys, top := b.layout()
	p := newPlot("")
	p.HideY()
	p.Y.Min, p.Y.Max = 0, top
	p.X.Label.Text = b.xLabel
	// A log axis is linear in log2 of the values: gonum's LogScale
	// misplaces the axis label's glyph box, which squeezes the plot.
	pos := func(v float64) float64 { return v }
	base := 0.0
	if b.log {
		pos, base = math.Log2, 1
	}
	bars := &barsPlotter{base: pos(base), half: barFill / 2, style: textStyle(smallFontSize)}
	lo, hi := base, base
	for i, g := range b.groups {
		for j, br := range g.bars {
			bars.bars = append(bars.bars, placedBar{bar: br, x: pos(br.value), y: ys[i][j]})
			lo, hi = min(lo, br.value), max(hi, br.value)
		}
	}
	for _, r := range b.refs {
		lo, hi = min(lo, r.x), max(hi, r.x)
	}
	var ticks []plot.Tick
	if b.log {
		lo, hi = snapPow2(lo, math.Floor), snapPow2(hi, math.Ceil)
		ticks = log2Ticks(lo, hi, b.tick)
	} else {
		for _, t := range (plot.DefaultTicks{}).Ticks(0, hi) {
			if t.Label != "" {
				t.Label = b.tick(t.Value)
			}
			ticks = append(ticks, t)
		}
	}
	p.X.Min, p.X.Max = pos(lo), pos(hi)
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	p.Add(grid)
	for _, r := range b.refs {
		if r.x != base {
			p.Add(refPlotter{r, pos(r.x)})
		}
	}
	p.Add(bars)
	for _, r := range b.refs {
		if r.x == base {
			p.Add(refPlotter{r, pos(r.x)})
		}
	}
	p.Draw(area)

	// The names, left of their rows.
	dataC := p.DataCanvas(area)
	_, trY := p.Transforms(&dataC)
	sty := textStyle(labelFontSize)
	sty.YAlign = draw.YCenter
	for i, g := range b.groups {
		y := (ys[i][0] + ys[i][len(ys[i])-1]) / 2
		c.FillText(sty, vg.Point{X: c.Min.X, Y: trY(y)}, g.name)
	}
}

// snapPow2 moves v to the power of two round(log2(v)) when that is less
// than half a doubling away, so that the log axis ends at a tick there.
func snapPow2(v float64, round func(float64) float64) float64 {
	p := math.Exp2(round(math.Log2(v)))
	if max(p, v)/min(p, v) < 1.5 {
		return p
	}
	return v
}

// placedBar is a bar with the x its end is drawn at and the y of its
// centre, in the axes' units.
type placedBar struct {
	bar
	x, y float64
}

// barsPlotter draws horizontal bars from base, each with its label at its
// end: right of it, or left of it for a bar that goes left of base.
type barsPlotter struct {
	base  float64 // in the x axis's units
	half  float64 // half a bar's thickness, in y data units
	bars  []placedBar
	style draw.TextStyle
}

// labelBox is where bar b's label goes, relative to the bar's end: after
// labelGap, as wide as a fallback font draws it, centred on the bar.
func (bp *barsPlotter) labelBox(b placedBar) vg.Rectangle {
	w := textWidth(bp.style, b.label)
	ext := bp.style.FontExtents()
	h := ext.Ascent + ext.Descent
	r := vg.Rectangle{Min: vg.Point{X: labelGap, Y: -h / 2}, Max: vg.Point{X: labelGap + w, Y: h / 2}}
	if b.x < bp.base {
		r.Min.X, r.Max.X = -labelGap-w, -labelGap
	}
	return r
}

// Plot implements plot.Plotter.
func (bp *barsPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := bp.style
	sty.YAlign = draw.YCenter
	for _, b := range bp.bars {
		x0, x1 := trX(bp.base), trX(b.x)
		y0, y1 := trY(b.y-bp.half), trY(b.y+bp.half)
		c.FillPolygon(b.color, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		// The label on a white box, which hides the grid and the
		// reference lines under it.
		box := bp.labelBox(b).Add(vg.Point{X: x1, Y: trY(b.y)})
		c.FillPolygon(color.White, []vg.Point{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}})
		c.FillText(sty, vg.Point{X: box.Min.X, Y: trY(b.y)}, b.label)
	}
}

// DataRange implements plot.DataRanger.
func (bp *barsPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = bp.base, bp.base
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, b := range bp.bars {
		xmin, xmax = min(xmin, b.x), max(xmax, b.x)
		ymin, ymax = min(ymin, b.y-bp.half), max(ymax, b.y+bp.half)
	}
	return xmin, xmax, ymin, ymax
}

// GlyphBoxes implements plot.GlyphBoxer: the labels, so that the plot
// leaves room for them.
func (bp *barsPlotter) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var boxes []plot.GlyphBox
	for _, b := range bp.bars {
		boxes = append(boxes, plot.GlyphBox{X: p.X.Norm(b.x), Y: p.Y.Norm(b.y), Rectangle: bp.labelBox(b)})
	}
	return boxes
}

// refStyle is how reference line r is drawn: grey, dashed or solid.
func refStyle(r refLine) draw.LineStyle {
	s := draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(1.2)}
	if r.dashed {
		s.Color = color.Gray{Y: 110}
		s.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	return s
}

// refPlotter draws a reference line across the whole height of the data,
// at x in the x axis's units.
type refPlotter struct {
	refLine
	x float64
}

// Plot implements plot.Plotter.
func (r refPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(r.x)
	c.StrokeLine2(refStyle(r.refLine), x, c.Min.Y, x, c.Max.Y)
}

// DataRange implements plot.DataRanger: the line's x, and no y.
func (r refPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	return r.x, r.x, math.Inf(1), math.Inf(-1)
}

// timesTick labels a tick at a power of two: "1/4x", "1x", "16x".
func timesTick(v float64) string {
	if v < 1 {
		return "1/" + strconv.FormatFloat(1/v, 'f', -1, 64) + "x"
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + "x"
}

// barTimes prints a ratio at a bar's end: "0.012x", "0.41x", "9.62x", "14x".
func barTimes(x float64) string {
	if x < 0.1 {
		return fmt.Sprintf("%.2gx", x)
	}
	return fmtTimes(x)
}

// mibTick labels an RSS tick in MiB.
func mibTick(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

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
