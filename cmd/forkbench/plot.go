package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// plotSize is the size of every SVG.
const (
	plotWidth  = 6 * vg.Inch
	plotHeight = 4 * vg.Inch
)

// series is one line of a plot.
type series struct {
	name string
	pts  plotter.XYs
}

// writePlots writes speedup.svg, efficiency.svg and rss.svg for the main
// suite and pools-<test>.svg for each pools test; it returns the files written.
func writePlots(dir string, r *Results) ([]string, error) {
	var files []string
	title := fmt.Sprintf("%s, %d cores, %s", r.Machine.CPU, r.Machine.Cores, r.Machine.GoVersion)
	if names := r.benchOrder(suiteMain); len(names) > 0 {
		var speed, eff, rss []series
		maxP := 1
		for _, name := range names {
			var sp, ef, rs plotter.XYs
			for _, p := range r.workers(name, variantGofork) {
				g := r.find(name, variantGofork, p)
				maxP = max(maxP, p)
				if s := r.serialFor(name, p); s != nil && g.MedianNS > 0 {
					x := ratio(s.MedianNS, g.MedianNS)
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
		if err := savePlot(dir, "speedup.svg", "gofork speedup Ts/Tp — "+title, "speedup over serial", speed, ideal, maxP, &files); err != nil {
			return files, err
		}
		one := plotter.XYs{{X: 1, Y: 1}, {X: float64(maxP), Y: 1}}
		if err := savePlot(dir, "efficiency.svg", "gofork efficiency Ts/(P·Tp) — "+title, "efficiency", eff, one, maxP, &files); err != nil {
			return files, err
		}
		if err := savePlot(dir, "rss.svg", "gofork peak RSS — "+title, "peak RSS (MiB)", rss, nil, maxP, &files); err != nil {
			return files, err
		}
	}
	for _, name := range r.benchOrder(suitePools) {
		var lines []series
		maxP := 1
		for _, d := range poolDesigns {
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
		if err := savePlot(dir, "pools-"+name+".svg", name+": speedup per pool design — "+title, "speedup over serial", lines, ideal, maxP, &files); err != nil {
			return files, err
		}
	}
	return files, nil
}

// savePlot draws lines (one per series, with points) against P, plus a
// dashed reference line when ref is not nil.
func savePlot(dir, file, title, ylabel string, lines []series, ref plotter.XYs, maxP int, files *[]string) error {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(9)
	p.X.Label.Text = "workers P"
	p.Y.Label.Text = ylabel
	p.Y.Min = 0
	p.X.Min = 0.8
	p.X.Max = float64(maxP) + 0.2
	var ticks plot.ConstantTicks
	for _, q := range workerCounts(maxP) {
		ticks = append(ticks, plot.Tick{Value: float64(q), Label: strconv.Itoa(q)})
	}
	p.X.Tick.Marker = ticks
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	if ref != nil {
		l, err := plotter.NewLine(ref)
		if err != nil {
			return err
		}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Color = color.Gray{Y: 110}
		p.Add(l)
		p.Legend.Add("ideal", l)
	}
	for i, s := range lines {
		if len(s.pts) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(s.pts)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		pts.Color = plotutil.Color(i)
		pts.Shape = plotutil.Shape(i)
		p.Add(l, pts)
		p.Legend.Add(s.name, l, pts)
	}
	path := filepath.Join(dir, file)
	if err := p.Save(plotWidth, plotHeight, path); err != nil {
		return err
	}
	*files = append(*files, path)
	return nil
}

// ensureDir creates dir if needed.
func ensureDir(dir string) error { return os.MkdirAll(dir, 0o755) }
