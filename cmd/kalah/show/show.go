// Package showcmd implements "kalah show": draw a position as an ASCII
// board, North on top.
package showcmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/players"
	"github.com/kalah-solver/kalah/results"
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
			return cmdutil.RunGame(cmd, &opts.Game, &opts.Players,
				func(r engine.Variant, p engine.Position, h cmdutil.GameHead) error { return run(opts, p, h) },
				func(r players.Variant, p players.Position, h cmdutil.GameHead) error { return runPlayers(opts, p, h) })
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, true)
	cmdutil.AddPlayersFlags(cmd, &opts.Players)
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

// record is the JSON output.
type record struct {
	cmdutil.GameHead
	Holes       []int    `json:"holes"`
	SouthStore  int      `json:"south_store"`
	NorthStore  int      `json:"north_store"`
	SeedsInPlay int      `json:"seeds_in_play"`
	TotalSeeds  int      `json:"total_seeds"`
	Over        bool     `json:"over"`
	Moves       []string `json:"moves"`
	Diagram     string   `json:"diagram"`
}

func run(opts *Options, p engine.Position, head cmdutil.GameHead) error {
	h := p.Holes()
	rec := record{
		GameHead:    head,
		Holes:       h,
		SouthStore:  h[p.Pits],
		NorthStore:  h[2*p.Pits+1],
		SeedsInPlay: p.Board.Seeds(),
		TotalSeeds:  p.Board.Total(),
		Over:        p.Board.Over(),
		Moves:       cmdutil.LegalMoves(p),
		Diagram:     p.Diagram(),
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	over := ""
	if rec.Over {
		d := p.SouthDiff()
		over = fmt.Sprintf("South %d, North %d (South %s): %s", rec.SouthStore, rec.NorthStore, results.Signed(d), cmdutil.Outcome(d))
	}
	writeText(opts.IO.Out, rec.GameHead, rec.Diagram, over, rec.SeedsInPlay, rec.TotalSeeds, rec.Moves)
	return nil
}

// writeText draws a position in either game: its game and position, the
// board, and what the game came to (over, when it is over) or the legal
// moves.
func writeText(w io.Writer, h cmdutil.GameHead, diagram, over string, seeds, total int, moves []string) {
	fmt.Fprintln(w, h.Title())
	fmt.Fprintf(w, "position %s, %s to move\n", h.Position, h.ToMove)
	fmt.Fprint(w, diagram)
	if over != "" {
		fmt.Fprintf(w, "game over: %s\n", over)
		return
	}
	fmt.Fprintf(w, "seeds in play %d of %d; legal moves: %s\n", seeds, total, strings.Join(moves, " "))
}
