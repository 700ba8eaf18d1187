// Package showcmd implements "kalah show": draw a position as an ASCII
// board, North on top.
package showcmd

import (
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah show".
type Options struct {
	IO   *cmdutil.IOStreams
	Game cmdutil.GameFlags
	// Players chooses the 3- or 4-player game (players.go).
	Players cmdutil.PlayersFlags
	JSON    bool
}

// NewCmdShow returns the show command.
func NewCmdShow(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Draw a position as an ASCII board, North on top",
		Long: `Draw a position: North's pits (A.. from North's left, so right to left on
the page) on top, South's pits (a..) below, North's store on the left and
South's on the right. Without --position it draws the start of
Kalah(--pits, --seeds).

With --players 3 or 4 it draws the k-player game instead: one row per
player in seat order (docs/rules.md, "Three and four players").`,
		Example: `  kalah show
  kalah show --pits 4 --seeds 3
  kalah show --position 0,0,13,0,0,0,0,1,1,1,1,1,1,0 --to-move south --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Game.CheckConflicts(cmd.Flags().Changed); err != nil {
				return err
			}
			if err := opts.Players.Check(cmd.Flags().Changed); err != nil {
				return err
			}
			if opts.Players.Multi() {
				return runPlayers(opts, cmd.Flags().Changed)
			}
			return run(opts)
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, true)
	cmdutil.AddPlayersFlags(cmd, &opts.Players)
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

// record is the JSON output.
type record struct {
	Rule        string   `json:"rule"`
	Pits        int      `json:"pits"`
	Seeds       int      `json:"seeds,omitempty"` // start positions only
	Position    string   `json:"position"`
	ToMove      string   `json:"to_move"`
	Holes       []int    `json:"holes"`
	SouthStore  int      `json:"south_store"`
	NorthStore  int      `json:"north_store"`
	SeedsInPlay int      `json:"seeds_in_play"`
	TotalSeeds  int      `json:"total_seeds"`
	Over        bool     `json:"over"`
	Moves       []string `json:"moves"`
	Diagram     string   `json:"diagram"`
}

func run(opts *Options) error {
	r, p, start, err := opts.Game.Resolve()
	if err != nil {
		return err
	}
	h := p.Holes()
	rec := record{
		Rule:        r.Capture.String(),
		Pits:        p.Pits,
		Position:    p.String(),
		ToMove:      p.ToMove.String(),
		Holes:       h,
		SouthStore:  h[p.Pits],
		NorthStore:  h[2*p.Pits+1],
		SeedsInPlay: p.Board.Seeds(),
		TotalSeeds:  p.Board.Total(),
		Over:        p.Board.Over(),
		Moves:       cmdutil.LegalMoves(p),
		Diagram:     p.Diagram(),
	}
	if start {
		rec.Seeds = opts.Game.Seeds
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "%s, rule %s\n", cmdutil.GameName(p, opts.Game.Seeds, start), rec.Rule)
	fmt.Fprintf(w, "position %s, %s to move\n", rec.Position, rec.ToMove)
	fmt.Fprint(w, rec.Diagram)
	if rec.Over {
		d := p.SouthDiff()
		fmt.Fprintf(w, "game over: South %d, North %d (South %s): %s\n", rec.SouthStore, rec.NorthStore, cmdutil.Signed(d), cmdutil.Outcome(d))
		return nil
	}
	fmt.Fprintf(w, "seeds in play %d of %d; legal moves: %s\n", rec.SeedsInPlay, rec.TotalSeeds, strings.Join(rec.Moves, " "))
	return nil
}
