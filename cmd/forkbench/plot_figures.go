package main

import (
	"fmt"
	"image/color"
	"slices"
)

// What each plot of a suite shows: a bar chart at the largest P measured,
// rows sorted by value. The figures at every P are in the tables and in
// results.csv.

// idealRef is the reference line at the ideal speedup P, for a bar chart
// whose largest value is hi: drawn only when it fits, within one doubling
// of hi on the log axis, so that it does not squeeze the bars.
func idealRef(maxP int, hi float64) []refLine {
	if maxP <= 1 || float64(maxP) > 2*hi {
		return nil
	}
	return []refLine{{x: float64(maxP), name: fmt.Sprintf("%dx: ideal speedup at P = %d", maxP, maxP), dashed: true}}
}

// serialRef is the line bars of a ratio start from.
var serialRef = refLine{x: 1, name: "1x: as fast as the serial program"}

// kindSwatches lists the colours of the kinds of rows in groups.
func kindSwatches(groups []barGroup) []swatch {
	var out []swatch
	for _, k := range kinds {
		c := kindColor[k]
		if slices.ContainsFunc(groups, func(g barGroup) bool { return g.bars[0].color == c }) {
			out = append(out, swatch{name: kindTitle[k], color: c})
		}
	}
	return out
}

// ratioBars is a bar per row of value f(row) at P = maxP, coloured by its
// kind of row; rows not measured at maxP are left out.
func ratioBars(rows []plotRow, maxP int, f func(plotRow) (float64, bool), label func(float64) string) (gs []barGroup, hi float64) {
	for _, row := range rows {
		v, ok := f(row)
		if !ok || !(v > 0) {
			continue
		}
		gs = append(gs, barGroup{name: row.name, bars: []bar{{value: v, label: label(v), color: kindColor[row.kind]}}})
		hi = max(hi, v)
	}
	sortGroups(gs)
	return gs, hi
}

// speedupFigure is a suite's speedup Ts/TP plot; nil when nothing has one.
func speedupFigure(s suitePlot, machine string) *barChart {
	maxP := s.ps[len(s.ps)-1]
	gs, hi := ratioBars(s.rows, maxP, func(r plotRow) (float64, bool) { return at(r.speedup, maxP) }, barTimes)
	if len(gs) == 0 {
		return nil
	}
	return &barChart{
		title:    fmt.Sprintf("%s suite: speedup over the serial program, Ts/T%d, at P = %d\n%s", s.name, maxP, maxP, machine),
		xLabel:   fmt.Sprintf("speedup Ts/T%d (log scale)", maxP),
		log:      true,
		tick:     timesTick,
		groups:   gs,
		refs:     append([]refLine{serialRef}, idealRef(maxP, hi)...),
		swatches: kindSwatches(gs),
	}
}

// goforkColor fills gofork's bars in the RSS plots.
var goforkColor color.Color = palette[0]

// rssFigure is a suite's peak RSS plot, the latency rows included; nil
// when no peak RSS was read.
func rssFigure(s suitePlot, machine string) *barChart {
	maxP := s.ps[len(s.ps)-1]
	mb := func(v float64) string {
		if v >= 100 {
			return fmt.Sprintf("%.0f MiB", v)
		}
		return fmt.Sprintf("%.1f MiB", v)
	}
	var gs []barGroup
	serial := false
	for _, row := range s.rows {
		v, ok := at(row.rss, maxP)
		if !ok {
			continue
		}
		g := barGroup{name: row.name, bars: []bar{{value: v, label: mb(v), color: goforkColor}}}
		if row.serialRSS > 0 {
			g.bars = append(g.bars, bar{value: row.serialRSS, label: mb(row.serialRSS), color: serialColor})
			serial = true
		}
		gs = append(gs, g)
	}
	if len(gs) == 0 {
		return nil
	}
	sortGroups(gs)
	sw := []swatch{{name: fmt.Sprintf("gofork at P = %d", maxP), color: goforkColor}}
	if serial {
		sw = append(sw, swatch{name: "the serial program", color: serialColor})
	}
	return &barChart{
		title:    fmt.Sprintf("%s suite: peak RSS of gofork at P = %d and of the serial program\n%s", s.name, maxP, machine),
		xLabel:   "peak RSS (MiB)",
		tick:     mibTick,
		groups:   gs,
		swatches: sw,
	}
}

// designsFigure is the speedup of each design of a suite's benchmarks with
// a column per design (the pools suite) over the serial run of the same
// tasks; nil when nothing was measured.
func designsFigure(r *Results, s suitePlot, machine string) *barChart {
	maxP := s.ps[len(s.ps)-1]
	designs := r.designColumns(s.designs)
	speedup := func(name, d string, p int) (float64, bool) {
		c, sr := r.find(name, d, p), r.serialFor(name, p)
		if c == nil || sr == nil || c.MedianNS <= 0 || sr.MedianNS <= 0 {
			return 0, false
		}
		return ratio(sr.MedianNS, c.MedianNS), true
	}
	var gs []barGroup
	var hi float64
	used := make([]bool, len(designs))
	for _, name := range s.designs {
		g := barGroup{name: name}
		for i, d := range designs {
			if v, ok := speedup(name, d, maxP); ok {
				g.bars = append(g.bars, bar{value: v, label: barTimes(v), color: palette[i%len(palette)]})
				used[i] = true
				hi = max(hi, v)
			}
		}
		if len(g.bars) > 0 {
			gs = append(gs, g)
		}
	}
	if len(gs) == 0 {
		return nil
	}
	sortGroups(gs)
	var sw []swatch
	for i, d := range designs {
		if used[i] {
			sw = append(sw, swatch{name: d, color: palette[i%len(palette)]})
		}
	}
	return &barChart{
		title:    fmt.Sprintf("%s suite: speedup of each design over the serial program at P = %d\n%s", s.name, maxP, machine),
		xLabel:   fmt.Sprintf("speedup Ts/T%d (log scale)", maxP),
		log:      true,
		tick:     timesTick,
		groups:   gs,
		refs:     append([]refLine{serialRef}, idealRef(maxP, hi)...),
		swatches: sw,
	}
}
