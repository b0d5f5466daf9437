package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/gofork/gofork/harness/kernels"
)

// plannedConfig is one child process to run.
type plannedConfig struct {
	b       *benchmark
	variant string
	p       int
}

// plan lists the configurations in the order they run: per benchmark the
// serial reference (once, or per P when it depends on P), then per P the
// gofork variant and the baselines. Without the baselines (-baseline=false)
// a latency row's serial variant that is only its Go baseline is left out.
func plan(o *options, ps []int) []plannedConfig {
	var out []plannedConfig
	for _, b := range o.benchmarks {
		serial := o.baseline || !serialIsOnlyBaseline(b)
		if serial && !b.SerialPerP {
			out = append(out, plannedConfig{b, variantSerial, 1})
		}
		for _, p := range ps {
			if serial && b.SerialPerP {
				out = append(out, plannedConfig{b, variantSerial, p})
			}
			out = append(out, plannedConfig{b, variantGofork, p})
			if o.baseline {
				for _, v := range b.Variants[2:] {
					out = append(out, plannedConfig{b, v, p})
				}
			}
		}
	}
	return out
}

// serialIsOnlyBaseline reports whether b's serial variant is no serial
// program but its Go baseline (the server rows, whose time is a latency).
func serialIsOnlyBaseline(b *benchmark) bool {
	return b.Kind == kindLatency && b.BaselineVariant == variantSerial
}

// progressLine draws the live status on stderr: one line rewritten in place
// on a terminal, one line per configuration otherwise.
type progressLine struct {
	mu    sync.Mutex // the signal handler prints too
	w     io.Writer
	tty   bool
	quiet bool
	start time.Time
	last  int // length of the last line drawn, to blank it
}

func newProgress(w io.Writer, quiet bool) *progressLine {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil {
			tty = st.Mode()&os.ModeCharDevice != 0
		}
	}
	return &progressLine{w: w, tty: tty, quiet: quiet, start: time.Now()}
}

// update shows the state of configuration k of n; run is -1 before the
// first run finishes and 0 for the warm-up.
func (pl *progressLine) update(k, n int, c plannedConfig, run, runs int) {
	if pl.quiet {
		return
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	el := time.Since(pl.start).Round(time.Second)
	state := "warm-up"
	if run >= 1 {
		state = fmt.Sprintf("run %d/%d", run, runs)
	}
	line := fmt.Sprintf("forkbench [%d/%d] %s %s P=%d %s  elapsed %v", k, n, c.b.Name, c.variant, c.p, state, el)
	if pl.tty {
		pad := max(pl.last-len(line), 0)
		fmt.Fprintf(pl.w, "\r%s%*s", line, pad, "")
		pl.last = len(line)
	} else if run == -1 {
		fmt.Fprintln(pl.w, line)
	}
}

// message prints a line of its own, below the progress line.
func (pl *progressLine) message(format string, args ...any) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.clearLocked()
	fmt.Fprintf(pl.w, format+"\n", args...)
}

// clear removes the progress line.
func (pl *progressLine) clear() {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.clearLocked()
}

func (pl *progressLine) clearLocked() {
	if pl.tty && pl.last > 0 && !pl.quiet {
		fmt.Fprintf(pl.w, "\r%*s\r", pl.last, "")
		pl.last = 0
	}
}

// execute runs every planned configuration in a child process and collects
// the results. When interrupt is closed it stops after the current run.
func execute(o *options, res *Results, ps []int, interrupt <-chan struct{}, pl *progressLine) {
	cfgs := plan(o, ps)
	for k, c := range cfgs {
		select {
		case <-interrupt:
			res.Interrupted = true
			return
		default:
		}
		pl.update(k+1, len(cfgs), c, -1, o.runs)
		spec := childSpec{
			Bench: c.b.Name, Variant: c.variant, P: c.p, Runs: o.runs, Quick: o.quick,
			ForceFail: o.forceFail == c.b.Name && c.variant == variantGofork,
		}
		out, err := runChild(spec, func(i int, _ time.Duration) {
			pl.update(k+1, len(cfgs), c, i, o.runs)
		}, interrupt)
		cfg := Config{
			Bench: c.b.Name, Suite: c.b.Suite, Size: c.b.Size(kernels.ScaleOf(o.quick)),
			Variant: c.variant, P: c.p,
			WarmupNS: out.WarmupNS, RunsNS: out.RunsNS, PeakRSS: out.PeakRSS,
		}
		if cfg.RunsNS == nil {
			cfg.RunsNS = []int64{}
		}
		cfg.MedianNS, cfg.MinNS, cfg.MaxNS = summary(cfg.RunsNS)
		cfg.Metrics = medianMetrics(out.Metrics)
		switch {
		case err != nil:
			cfg.Error = err.Error()
		case out.Error != "":
			cfg.Error = out.Error
		default:
			cfg.Verified = true
		}
		if cfg.Error != "" {
			msg := fmt.Sprintf("%s %s P=%d: %s", c.b.Name, c.variant, c.p, cfg.Error)
			res.Failures = append(res.Failures, msg)
			pl.message("forkbench: VERIFICATION FAILED: %s", msg)
		}
		res.Configs = append(res.Configs, cfg)
		if out.Interrupted {
			res.Interrupted = true
			return
		}
	}
}

// fitAll fits the memory model for every non-serial variant that has a
// serial peak RSS and at least two worker counts.
func fitAll(res *Results) {
	res.Fits = res.Fits[:0]
	seen := map[[2]string]bool{}
	for _, c := range res.Configs {
		key := [2]string{c.Bench, c.Variant}
		if c.Variant == variantSerial || seen[key] {
			continue
		}
		seen[key] = true
		var ps []int
		var rss []float64
		var a float64
		for _, d := range res.Configs {
			if d.Bench == c.Bench && d.Variant == c.Variant && d.PeakRSS > 0 {
				ps = append(ps, d.P)
				rss = append(rss, float64(d.PeakRSS))
			}
			if d.Bench == c.Bench && d.Variant == variantSerial && d.PeakRSS > 0 && (a == 0 || d.P == 1) {
				a = float64(d.PeakRSS)
			}
		}
		if a == 0 {
			continue
		}
		if b, n, ok := fitMemory(a, ps, rss); ok {
			res.Fits = append(res.Fits, Fit{Bench: c.Bench, Variant: c.Variant, A: a, B: b, N: n, Points: len(ps)})
		}
	}
}
