package egdbcmd

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// StatsOptions are the inputs of one "kalah egdb stats".
type StatsOptions struct {
	IO   *cmdutil.IOStreams
	DB   DBFlags
	Plot string
	JSON bool
}

// NewCmdStats returns the stats command.
func NewCmdStats(io *cmdutil.IOStreams) *cobra.Command {
	opts := &StatsOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Count won, drawn and lost positions per slice",
		Long: `For each slice of the database of --pits and --rule: the number of
positions, the share the side to move wins, draws and loses from level
stores (2g > s, 2g = s, 2g < s, where the mover banks g of the s seeds in
the pits), the mean final margin 2g - s, the distribution of g, and the
storage: each slice's format and size, and its size in the packed format
(as stored, or what 'kalah egdb convert' would write) with the share of
entries in its exception list. --plot
FILE.png draws the won/drawn/lost shares against the seed count (.svg and
.pdf work too).`,
		Example: `  kalah egdb stats
  kalah egdb stats --pits 6 --rule empty-capture --plot wdl.png`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runStats(opts) },
	}
	addDBFlags(cmd, &opts.DB, true)
	cmd.Flags().StringVar(&opts.Plot, "plot", "", "also draw the shares to this image file (.png, .svg or .pdf)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

type statsRow struct {
	egdb.SliceStats
	WonShare   float64 `json:"won_share"`
	DrawnShare float64 `json:"drawn_share"`
	LostShare  float64 `json:"lost_share"`
	MeanMargin float64 `json:"mean_margin"`
}

type statsRecord struct {
	Rule     string     `json:"rule"`
	Pits     int        `json:"pits"`
	Dir      string     `json:"dir"`
	MaxSeeds int        `json:"max_seeds"`
	Slices   []statsRow `json:"slices"`
	Plot     string     `json:"plot,omitempty"`
	results.Provenance
}

func runStats(opts *StatsOptions) error {
	rules, err := opts.DB.rules()
	if err != nil {
		return err
	}
	if opts.Plot != "" {
		switch strings.ToLower(filepath.Ext(opts.Plot)) {
		case ".png", ".svg", ".pdf":
		default:
			return cmdutil.BadInputf("--plot %q: the file name must end in .png, .svg or .pdf", opts.Plot)
		}
	}
	dir, err := opts.DB.dir()
	if err != nil {
		return err
	}
	db, err := egdb.Open(dir, rules)
	if err != nil {
		return err
	}
	defer db.Close()
	rec := statsRecord{Rule: rules.Rule.String(), Pits: rules.Pits, Dir: egdb.RuleDir(dir, rules), MaxSeeds: db.MaxSeeds(), Plot: opts.Plot, Provenance: results.Current()}
	for s := 0; s <= db.MaxSeeds(); s++ {
		st, err := db.Stats(s)
		if err != nil {
			return fmt.Errorf("%s: %w", egdb.SlicePath(dir, rules, s), err)
		}
		row := statsRow{SliceStats: st, MeanMargin: st.MeanDiff()}
		row.WonShare, row.DrawnShare, row.LostShare = st.Share()
		rec.Slices = append(rec.Slices, row)
	}
	if opts.Plot != "" {
		if err := plotStats(rec, opts.Plot); err != nil {
			return err
		}
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "Kalah(%d), rule %s, slices 0..%d in %s\n", rules.Pits, rec.Rule, rec.MaxSeeds, rec.Dir)
	fmt.Fprintf(w, "for the side to move, from level stores:\n")
	fmt.Fprintf(w, "%5s %15s %8s %8s %8s %12s\n", "seeds", "positions", "won", "drawn", "lost", "mean margin")
	for _, r := range rec.Slices {
		if r.Positions == 0 {
			continue
		}
		fmt.Fprintf(w, "%5d %15s %7.2f%% %7.2f%% %7.2f%% %+12.3f\n", r.Seeds, results.Group(r.Positions), 100*r.WonShare, 100*r.DrawnShare, 100*r.LostShare, r.MeanMargin)
	}
	fmt.Fprintf(w, "distribution of g, the seeds the mover banks (share of the slice, g = 0, 1, ..., s):\n")
	for _, r := range rec.Slices {
		if r.Positions == 0 {
			continue
		}
		parts := make([]string, len(r.Gains))
		for g, c := range r.Gains {
			parts[g] = fmt.Sprintf("%.2f%%", 100*float64(c)/float64(r.Positions))
		}
		fmt.Fprintf(w, "%5d  %s\n", r.Seeds, strings.Join(parts, " "))
	}
	fmt.Fprintf(w, "storage (payload bytes; packed: 4 bits a position, a base per 126, exceptions listed):\n")
	fmt.Fprintf(w, "%5s %7s %15s %15s %10s %12s\n", "seeds", "format", "bytes", "packed bytes", "bits/pos", "exceptions")
	for _, r := range rec.Slices {
		if r.Positions == 0 {
			continue
		}
		fmt.Fprintf(w, "%5d %7s %15s %15s %10.3f %11.4f%%\n", r.Seeds, r.Format, results.Group(r.Bytes), results.Group(r.PackedBytes),
			8*float64(r.PackedBytes)/float64(r.Positions), 100*float64(r.Exceptions)/float64(r.Positions))
	}
	if opts.Plot != "" {
		fmt.Fprintf(w, "plot written to %s\n", opts.Plot)
	}
	return nil
}

func plotStats(rec statsRecord, file string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Kalah(%d) %s: outcome for the side to move, level stores", rec.Pits, rec.Rule)
	p.X.Label.Text = "seeds in the pits"
	p.Y.Label.Text = "share of positions (%)"
	p.Y.Min, p.Y.Max = 0, 100
	var won, drawn, lost plotter.XYs
	for _, r := range rec.Slices {
		if r.Positions == 0 {
			continue
		}
		x := float64(r.Seeds)
		won = append(won, plotter.XY{X: x, Y: 100 * r.WonShare})
		drawn = append(drawn, plotter.XY{X: x, Y: 100 * r.DrawnShare})
		lost = append(lost, plotter.XY{X: x, Y: 100 * r.LostShare})
	}
	if err := plotutil.AddLinePoints(p, "won", won, "drawn", drawn, "lost", lost); err != nil {
		return err
	}
	p.Legend.Top = true
	p.X.Tick.Marker = plot.TickerFunc(seedTicks)
	if err := p.Save(8*vg.Inch, 5*vg.Inch, file); err != nil {
		return fmt.Errorf("writing the plot: %w", err)
	}
	return nil
}

// seedTicks marks whole seed counts: a labelled tick every step, with step
// 1, 2, 5 or 10 so that there are at most about 12.
func seedTicks(lo, hi float64) []plot.Tick {
	step := 1
	for _, st := range []int{1, 2, 5, 10, 20, 50} {
		step = st
		if (hi-lo)/float64(st) <= 12 {
			break
		}
	}
	var ticks []plot.Tick
	for v := int(math.Ceil(lo)); float64(v) <= hi; v++ {
		t := plot.Tick{Value: float64(v)}
		if v%step == 0 {
			t.Label = strconv.Itoa(v)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
