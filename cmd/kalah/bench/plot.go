package benchcmd

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"time"

	"github.com/kalah-solver/kalah/bench"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// writePlots draws the run's PNG plots into dir and returns their paths:
// time and nodes per position, the speed-up by threads (when there is more
// than one thread count) and the growth of the start positions with the
// seeds.
func writePlots(dir string, reps []*bench.Report, growth []bench.Cell, limit time.Duration) ([]string, error) {
	var files []string
	save := func(p *plot.Plot, name string, w, h vg.Length) error {
		f := filepath.Join(dir, name)
		if err := p.Save(w, h, f); err != nil {
			return fmt.Errorf("writing %s: %w", f, err)
		}
		files = append(files, f)
		return nil
	}
	for _, q := range []struct {
		name, label string
		get         func(bench.Result) float64
		fmt         func(float64) string
	}{
		{"bench-time.png", "seconds (log scale)", func(r bench.Result) float64 { return r.Seconds }, fmtSeconds},
		{"bench-nodes.png", "nodes (log scale)", func(r bench.Result) float64 { return float64(r.Nodes) }, fmtCount},
	} {
		p, err := casesPlot(reps, q.label, q.get, q.fmt)
		if err != nil {
			return files, err
		}
		if err := save(p, q.name, 11*vg.Inch, 5.5*vg.Inch); err != nil {
			return files, err
		}
	}
	if len(reps) > 1 {
		p, err := speedupPlot(reps)
		if err != nil {
			return files, err
		}
		if err := save(p, "bench-speedup.png", 6*vg.Inch, 4.5*vg.Inch); err != nil {
			return files, err
		}
	}
	if len(growth) > 0 {
		for _, q := range []struct {
			name, label string
			get         func(bench.Result) float64
			fmt         func(float64) string
		}{
			{"bench-growth-time.png", "seconds (log scale)", func(r bench.Result) float64 { return r.Seconds }, fmtSeconds},
			{"bench-growth-nodes.png", "nodes (log scale)", func(r bench.Result) float64 { return float64(r.Nodes) }, fmtCount},
		} {
			p, err := growthPlot(growth, reps[0], limit, q.label, q.get, q.fmt)
			if err != nil {
				return files, err
			}
			if err := save(p, q.name, 7*vg.Inch, 4.5*vg.Inch); err != nil {
				return files, err
			}
		}
	}
	return files, nil
}

// casesPlot draws one quantity per position, a line per thread count, on
// a log scale, the positions named along the x axis.
func casesPlot(reps []*bench.Report, label string, get func(bench.Result) float64, format func(float64) string) (*plot.Plot, error) {
	p := plot.New()
	first := reps[0]
	p.Title.Text = fmt.Sprintf("kalah bench: %s per position (a fresh solver each)", label[:len(label)-len(" (log scale)")])
	p.Y.Label.Text = label
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{format}
	var names []string
	for _, c := range first.Cases {
		names = append(names, c.Case)
	}
	var args []any
	var ys []float64
	for _, r := range reps {
		xys := make(plotter.XYs, 0, len(r.Cases))
		for i, c := range r.Cases {
			if v := get(c); v > 0 {
				xys = append(xys, plotter.XY{X: float64(i), Y: v})
				ys = append(ys, v)
			}
		}
		args = append(args, cmdutil.Plural(r.Threads, "thread"), xys)
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return nil, err
	}
	logRange(&p.Y, ys)
	p.Y.Max *= 2.5 // room for the legend
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p, nil
}

// speedupPlot draws each run's speed-up over the first against its
// thread count, with the ideal (linear) speed-up for comparison.
func speedupPlot(reps []*bench.Report) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "kalah bench: speed-up by threads"
	p.X.Label.Text = "threads"
	p.Y.Label.Text = fmt.Sprintf("speed-up over %s", cmdutil.Plural(reps[0].Threads, "thread"))
	sp := bench.Speedups(reps)
	var got, ideal plotter.XYs
	maxT := 0
	for i, r := range reps {
		got = append(got, plotter.XY{X: float64(r.Threads), Y: sp[i]})
		ideal = append(ideal, plotter.XY{X: float64(r.Threads), Y: float64(r.Threads) / float64(reps[0].Threads)})
		maxT = max(maxT, r.Threads)
	}
	if err := plotutil.AddLinePoints(p, "measured", got, "linear", ideal); err != nil {
		return nil, err
	}
	p.X.Min, p.Y.Min = 0, 0
	p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var ts []plot.Tick
		for t := 0; float64(t) <= hi; t++ {
			ts = append(ts, plot.Tick{Value: float64(t), Label: strconv.Itoa(t)})
		}
		return ts
	})
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	return p, nil
}

// growthPlot draws one quantity of the start positions against the seeds
// per pit, a line per rule, on a log scale; skipped cells are named in the
// legend.
func growthPlot(cells []bench.Cell, rep *bench.Report, limit time.Duration, label string, get func(bench.Result) float64, format func(float64) string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Kalah(6,n) start positions: %s, %s", label[:len(label)-len(" (log scale)")], cmdutil.Plural(rep.Threads, "thread"))
	p.X.Label.Text = "seeds per pit, n"
	p.Y.Label.Text = label
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{format}
	var args []any
	var ys []float64
	maxN := 0
	for _, rule := range []string{"no-empty-capture", "empty-capture"} {
		var xys plotter.XYs
		skipped := 0
		for _, c := range cells {
			if c.Rule != rule {
				continue
			}
			maxN = max(maxN, c.Seeds)
			if c.Result == nil {
				if skipped == 0 {
					skipped = c.Seeds
				}
				continue
			}
			if v := get(*c.Result); v > 0 {
				xys = append(xys, plotter.XY{X: float64(c.Seeds), Y: v})
				ys = append(ys, v)
			}
		}
		name := rule
		if skipped > 0 {
			name += fmt.Sprintf(" (n >= %d skipped: over %s)", skipped, shortDuration(limit))
		}
		if len(xys) > 0 {
			args = append(args, name, xys)
		}
	}
	if len(args) > 0 {
		if err := plotutil.AddLinePoints(p, args...); err != nil {
			return nil, err
		}
	}
	logRange(&p.Y, ys)
	p.X.Min, p.X.Max = 0.5, float64(maxN)+0.5
	p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var ts []plot.Tick
		for n := 1; n <= maxN; n++ {
			ts = append(ts, plot.Tick{Value: float64(n), Label: strconv.Itoa(n)})
		}
		return ts
	})
	p.Legend.Top, p.Legend.Left = false, false // the curves rise to the right
	p.Add(plotter.NewGrid())
	return p, nil
}

// logRange sets a log axis to span the values with some room, at least a
// factor of ten, so that a single point or none still draws.
func logRange(a *plot.Axis, ys []float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	if len(ys) == 0 {
		lo, hi = 1, 10
	}
	lo, hi = lo/1.3, hi*1.3
	if hi < 10*lo {
		mid := math.Sqrt(lo * hi)
		lo, hi = mid/math.Sqrt(10), mid*math.Sqrt(10)
	}
	a.Min, a.Max = lo, hi
}

// logTicks labels 1, 2 and 5 times each power of ten when the axis spans
// at most three decades, else the powers of ten only, with unlabelled
// minor ticks between.
type logTicks struct{ format func(float64) string }

func (t logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 {
		lo = math.SmallestNonzeroFloat64
	}
	e0, e1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	fine := e1-e0 <= 3
	var ts []plot.Tick
	for e := e0; e <= e1; e++ {
		base := math.Pow(10, float64(e))
		for k := 1; k <= 9; k++ {
			v := float64(k) * base
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			tk := plot.Tick{Value: v}
			if k == 1 || fine && (k == 2 || k == 5) {
				tk.Label = t.format(v)
			}
			ts = append(ts, tk)
		}
	}
	return ts
}

// fmtSeconds writes a time in seconds without trailing zeros: 0.05, 2, 300.
func fmtSeconds(v float64) string {
	if v >= 1 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', int(math.Ceil(-math.Log10(v)-1e-9)), 64)
}

// fmtCount writes a count with a k, M or G suffix: 500, 20k, 1M, 5G.
func fmtCount(v float64) string {
	for _, u := range []struct {
		div float64
		suf string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= u.div {
			return strconv.FormatFloat(v/u.div, 'f', 0, 64) + u.suf
		}
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}
