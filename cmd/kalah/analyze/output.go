package analyzecmd

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// value writes a value, or its bounds when it is one.
func value(v int, b *kalah.Interval) string {
	if b != nil && b.Lower != b.Upper {
		return fmt.Sprintf("[%s,%s]", results.Signed(b.Lower), results.Signed(b.Upper))
	}
	return results.Signed(v)
}

func loss(m kalah.MoveAnalysis) string {
	if m.LossBounds != nil && m.LossBounds.Lower != m.LossBounds.Upper {
		return fmt.Sprintf("%d-%d", m.LossBounds.Lower, m.LossBounds.Upper)
	}
	return fmt.Sprint(m.Loss)
}

// printText writes one game's analysis as a table of its moves and a line
// for each side.
func printText(w io.Writer, n int, in input, a *kalah.Analysis) {
	game := fmt.Sprintf("Kalah(%d,%d)", a.Pits, a.Seeds)
	if a.Game.Position != nil {
		game = fmt.Sprintf("Kalah(%d) from %s, %s to move", a.Pits, a.Start, a.ToMove)
	}
	if n > 1 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "game %d (%s): %s, rule %s, %s: %s\n", n, in.where(), game, a.Rule, plural(len(a.Moves), "move"), a.Line)
	fmt.Fprintf(w, "values: South's final store minus North's under perfect play; loss: seeds of margin the mover gave away\n")
	fmt.Fprintf(w, "%4s  %-5s  %4s  %7s  %7s  %5s  %-10s  %s\n", "ply", "side", "move", "before", "after", "loss", "class", "best")
	for _, m := range a.Moves {
		best := strings.Join(m.Best, " ")
		if m.Loss == 0 && len(m.Best) == 1 && m.Best[0] == m.Move {
			best = ""
		}
		if m.ExtraTurn {
			best = strings.TrimSpace(best + " (extra turn)")
		}
		line := fmt.Sprintf("%4d  %-5s  %4s  %7s  %7s  %5s  %-10s  %s", m.Ply, m.Side, m.Move, value(m.Before, m.BeforeBounds),
			value(m.After, m.AfterBounds), loss(m), m.Class, best)
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	for _, s := range []kalah.SideAnalysis{a.South, a.North} {
		if s.Moves == 0 {
			fmt.Fprintf(w, "%s: no moves\n", s.Side)
			continue
		}
		total := fmt.Sprint(s.Loss)
		if s.LossUpper != nil && *s.LossUpper != s.Loss {
			total = fmt.Sprintf("%d-%d", s.Loss, *s.LossUpper)
		}
		var counts []string
		for _, c := range kalah.Classes[1:] {
			if s.Classes[c] > 0 {
				counts = append(counts, fmt.Sprintf("%d %s", s.Classes[c], c))
			}
		}
		fmt.Fprintf(w, "%s: %s, %d best (accuracy %.1f%%), loss %s", s.Side, plural(s.Moves, "move"), s.Best, 100*s.Accuracy, total)
		if len(counts) > 0 {
			fmt.Fprintf(w, "; %s", strings.Join(counts, ", "))
		}
		if len(s.Largest) > 0 {
			var l []string
			for _, m := range s.Largest {
				l = append(l, fmt.Sprintf("ply %d %s (%d, %s)", m.Ply, m.Move, m.Loss, m.Class))
			}
			fmt.Fprintf(w, "; largest: %s", strings.Join(l, ", "))
		}
		fmt.Fprintln(w)
	}
	end := "the game goes on"
	if a.Over {
		end = "game over"
	}
	fmt.Fprintf(w, "start %s, end %s (%s)", results.Signed(a.Value), results.Signed(a.End), end)
	if a.Bound {
		fmt.Fprintf(w, "; some figures are bounds (--position-time)")
	}
	fmt.Fprintf(w, "; %.2f s\n", a.Seconds)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writePlot draws each game's value along its plies into file, SVG or PNG
// by its extension: the value before each move and the game's end, the
// moves that lost at least a mistake's seeds marked.
func writePlot(file string, as []*kalah.Analysis) error {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".svg", ".png":
	default:
		return fmt.Errorf("--plot %s: want a .svg or .png file", file)
	}
	p := plot.New()
	p.Title.Text = "kalah analyze: the value along the game"
	p.X.Label.Text = "ply"
	p.Y.Label.Text = "value for South (seeds)"
	p.Add(plotter.NewGrid())
	for i, a := range as {
		xys := make(plotter.XYs, 0, len(a.Moves)+1)
		var bad plotter.XYs
		for _, m := range a.Moves {
			xys = append(xys, plotter.XY{X: float64(m.Ply - 1), Y: float64(m.Before)})
			if m.Class == kalah.ClassMistake || m.Class == kalah.ClassBlunder {
				bad = append(bad, plotter.XY{X: float64(m.Ply), Y: float64(m.After)})
			}
		}
		xys = append(xys, plotter.XY{X: float64(len(a.Moves)), Y: float64(a.End)})
		l, err := plotter.NewLine(xys)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.StepStyle = plotter.PostStep
		p.Add(l)
		if len(as) > 1 {
			p.Legend.Add(fmt.Sprintf("game %d", i+1), l)
		}
		if len(bad) > 0 {
			s, err := plotter.NewScatter(bad)
			if err != nil {
				return err
			}
			s.Color, s.Shape = plotutil.Color(i), draw.CrossGlyph{}
			p.Add(s)
			if i == 0 {
				p.Legend.Add("mistake or blunder", s)
			}
		}
	}
	p.Legend.Top = true
	if err := p.Save(9*vg.Inch, 4*vg.Inch, file); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return nil
}
