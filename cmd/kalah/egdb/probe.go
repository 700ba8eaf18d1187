package egdbcmd

import (
	"fmt"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// ProbeOptions are the inputs of one "kalah egdb probe".
type ProbeOptions struct {
	IO       *cmdutil.IOStreams
	Dir      string
	Rule     string
	Position string
	ToMove   string
	JSON     bool
}

// NewCmdProbe returns the probe command.
func NewCmdProbe(io *cmdutil.IOStreams) *cobra.Command {
	opts := &ProbeOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "probe",
		Short: "Look a position up in the endgame database",
		Long: `Look a position up in the endgame database of its pit count and --rule:
how many of the seeds in the pits the side to move banks under perfect play,
the final store difference that implies (counting what the stores already
hold), and the same for each legal move. Only the database is read, no
search: the position must hold at most as many seeds in its pits as the
database covers.`,
		Example: `  kalah egdb probe --position 0,0,0,2,1,3,20,1,0,0,0,2,1,18
  kalah egdb probe --position 1,0,0,0,0,1,30,0,0,2,0,0,0,14 --to-move north \
      --rule empty-capture --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runProbe(opts) },
	}
	cmd.Flags().StringVar(&opts.Dir, "egdb", "", "database directory (default: $XDG_DATA_HOME/kalah/egdb or ~/.local/share/kalah/egdb)")
	cmd.Flags().StringVar(&opts.Rule, "rule", engine.NoEmptyCapture.String(), "capture convention: no-empty-capture or empty-capture")
	cmd.Flags().StringVar(&opts.Position, "position", "", "the position: 2m+2 comma-separated counts, South's pits a.., South's store, North's pits A.., North's store (required)")
	cmd.Flags().StringVar(&opts.ToMove, "to-move", "south", "side to move: south or north")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

type moveValue struct {
	Move        string `json:"move"`
	Gain        int    `json:"gain"`         // seeds of the board the mover banks after this move
	Margin      int    `json:"margin"`       // the mover's final store minus the opponent's
	SouthMargin int    `json:"south_margin"` // South's final store minus North's
	Best        bool   `json:"best"`
}

type probeRecord struct {
	Rule        string      `json:"rule"`
	Pits        int         `json:"pits"`
	Position    string      `json:"position"`
	ToMove      string      `json:"to_move"`
	SeedsInPlay int         `json:"seeds_in_play"`
	Over        bool        `json:"over"`
	Gain        int         `json:"gain"`         // seeds of the board the mover banks under perfect play
	Margin      int         `json:"margin"`       // the mover's final store minus the opponent's
	SouthMargin int         `json:"south_margin"` // South's final store minus North's
	Result      string      `json:"result"`       // "south wins", "north wins" or "draw"
	Moves       []moveValue `json:"moves"`
	MaxSeeds    int         `json:"max_seeds"` // the database covers slices 0..max_seeds (0 when the game is over)
	Dir         string      `json:"dir"`
	results.Provenance
}

func runProbe(opts *ProbeOptions) error {
	if opts.Position == "" {
		return cmdutil.BadInputf("--position is required (2m+2 comma-separated counts)")
	}
	c, err := engine.ParseRule(opts.Rule)
	if err != nil {
		return cmdutil.BadInput(err)
	}
	side, err := engine.ParseSide(opts.ToMove)
	if err != nil {
		return cmdutil.BadInput(err)
	}
	p, err := engine.ParsePosition(opts.Position, side)
	if err != nil {
		return cmdutil.BadInput(err)
	}
	rules := engine.Variant{Pits: p.Pits, Rule: c}
	dir := opts.Dir
	if dir == "" {
		if dir, err = egdb.DefaultDir(); err != nil {
			return err
		}
	}
	b := p.Board
	s := b.Seeds()
	rec := probeRecord{Rule: c.String(), Pits: p.Pits, Position: p.String(), ToMove: side.String(), SeedsInPlay: s,
		Over: b.Over(), Moves: []moveValue{}, Dir: egdb.RuleDir(dir, rules), Provenance: results.Current()}
	sign := 1
	if side == engine.North {
		sign = -1
	}
	if !b.Over() {
		db, err := egdb.OpenMax(dir, rules, s)
		if err != nil {
			return err
		}
		defer db.Close()
		rec.MaxSeeds = max(db.MaxSeeds(), egdb.Covered(dir, rules))
		g, ok := db.Probe(b)
		if !ok {
			return cmdutil.BadInputf("the position has %d seeds in its pits, but the %v database in %s covers at most %d (extend it with: kalah egdb build --pits %d --rule %v --max-seeds %d)",
				s, rules, rec.Dir, db.MaxSeeds(), p.Pits, c, s)
		}
		rec.Gain = g
		for _, i := range b.MoveList() {
			mg, _ := db.MoveGain(b, i)
			m := b.StoreDiff() + 2*mg - s
			rec.Moves = append(rec.Moves, moveValue{Move: engine.MoveLetter(side, i), Gain: mg, Margin: m, SouthMargin: sign * m, Best: mg == g})
		}
	}
	rec.Margin = b.StoreDiff() + 2*rec.Gain - s
	rec.SouthMargin = sign * rec.Margin
	rec.Result = cmdutil.Outcome(rec.SouthMargin)
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	w := opts.IO.Out
	if rec.Over {
		fmt.Fprintf(w, "Kalah(%d), rule %s\n", p.Pits, rec.Rule)
		fmt.Fprintf(w, "position %s: the game is over, %s, South's margin %s\n", rec.Position, rec.Result, results.Signed(rec.SouthMargin))
		return nil
	}
	fmt.Fprintf(w, "Kalah(%d), rule %s, database %s (slices 0..%d)\n", p.Pits, rec.Rule, rec.Dir, rec.MaxSeeds)
	fmt.Fprintf(w, "position %s, %s to move, %d seeds in the pits\n", rec.Position, rec.ToMove, s)
	fmt.Fprintf(w, "value: %s banks %d of the %d seeds in the pits; final margin %s for %s, South's margin %s (%s)\n",
		rec.ToMove, rec.Gain, s, results.Signed(rec.Margin), rec.ToMove, results.Signed(rec.SouthMargin), rec.Result)
	fmt.Fprintf(w, "%-5s %5s %7s %13s\n", "move", "gain", "margin", "south margin")
	for _, m := range rec.Moves {
		best := ""
		if m.Best {
			best = "  best"
		}
		fmt.Fprintf(w, "%-5s %5d %7s %13s%s\n", m.Move, m.Gain, results.Signed(m.Margin), results.Signed(m.SouthMargin), best)
	}
	return nil
}
