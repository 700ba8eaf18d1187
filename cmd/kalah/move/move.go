// Package movecmd implements "kalah move": play moves from a position and
// show what each one did.
package movecmd

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

// Options are the inputs of one "kalah move".
type Options struct {
	IO   *cmdutil.IOStreams
	Game cmdutil.GameFlags
	// Players chooses the 3- or 4-player game (players.go).
	Players cmdutil.PlayersFlags
	JSON    bool
	Moves   []string // as typed: letters or 1-based pit numbers
}

// NewCmdMove returns the move command.
func NewCmdMove(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "move MOVE...",
		Short: "Play moves; show each position, capture and extra turn",
		Long: `Play moves from a position (by default the start of Kalah(--pits, --seeds))
and print, after each one, the position, whose turn it is, what was captured
and whether the mover earned an extra turn; when the game ends, the result
(South's store minus North's) and the winner.

A move is the mover's pit letter (a..h for South, A..H for North) or its
1-based pit number counted from the mover's left. After an extra turn the
same side moves again. Every move is checked before anything is printed.

With --players 3 or 4 the moves are played in the k-player game
(--capture-target next|opposite|all; moves may name the seat, "1c").`,
		Example: `  kalah move c f
  kalah move --position 0,0,13,0,0,0,0,1,1,1,1,1,1,0 c
  kalah move --rule empty-capture --json 3 6 B`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmdutil.BadInputf("%s needs at least one move: a pit letter (a..h South, A..H North) or a 1-based pit number", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Moves = args
			return cmdutil.RunGame(cmd, &opts.Game, &opts.Players, func(r engine.Variant, p engine.Position, h cmdutil.GameHead) error {
				return run(opts, r, p, h)
			}, func(r players.Variant, p players.Position, h cmdutil.GameHead) error {
				return runPlayers(opts, r, p, h)
			})
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, true)
	cmdutil.AddPlayersFlags(cmd, &opts.Players)
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

// sowing is what a ply's record says in both games after who played
// which move: the pit, the position it left, who moves next and what it
// banked.
type sowing struct {
	Pit       int    `json:"pit"` // 1-based from the mover's left
	Position  string `json:"position"`
	ToMove    string `json:"to_move,omitempty"` // empty once the game is over
	ExtraTurn bool   `json:"extra_turn"`
	Captured  int    `json:"captured"` // seeds banked by a capture, the last seed included
}

// ply is one move played, in the JSON output.
type ply struct {
	Ply  int    `json:"ply"`
	Side string `json:"side"`
	Move string `json:"move"` // the pit letter
	sowing
	CapturedFrom string `json:"captured_from,omitempty"` // the opponent's pit emptied by the capture
	Over         bool   `json:"over"`
	SouthStore   int    `json:"south_store"`
	NorthStore   int    `json:"north_store"`
}

// record is the JSON output.
type record struct {
	// The game, and the position where the moves start.
	cmdutil.GameHead
	Plies         []ply  `json:"plies"`
	FinalPosition string `json:"final_position"`
	FinalToMove   string `json:"final_to_move,omitempty"` // empty once the game is over
	Over          bool   `json:"over"`
	SouthStore    int    `json:"south_store"`
	NorthStore    int    `json:"north_store"`
	StoreDiff     int    `json:"store_diff"`       // South's store minus North's, now
	Result        *int   `json:"result,omitempty"` // South's store minus North's at the end of the game
	Winner        string `json:"winner,omitempty"` // south, north or draw, at the end of the game
}

func run(opts *Options, r engine.Variant, p engine.Position, head cmdutil.GameHead) error {
	rec := record{GameHead: head}
	var texts []string
	for k, text := range opts.Moves {
		i, err := engine.ParseMove(p, text)
		if err != nil {
			return cmdutil.BadInputf("ply %d (position %s, %s to move): %v", k+1, p, turn(p), err)
		}
		var pl ply
		pl.Ply, pl.Side, pl.Move, pl.Pit = k+1, p.ToMove.String(), engine.MoveLetter(p.ToMove, i), i+1
		next, res := r.PlayPosition(p, i)
		if res.Capture() {
			var from int
			pl.Captured, from = captured(p, i)
			pl.CapturedFrom = engine.MoveLetter(p.ToMove.Other(), from)
		}
		pl.ExtraTurn, pl.Over = res.Extra(), res.Over()
		h := next.Holes()
		pl.Position, pl.SouthStore, pl.NorthStore = next.String(), h[next.Pits], h[2*next.Pits+1]
		if !pl.Over {
			pl.ToMove = next.ToMove.String()
		}
		capture := ""
		switch {
		case pl.Captured > 1:
			capture = fmt.Sprintf("captures %d seeds (%d from pit %s and the last seed)", pl.Captured, pl.Captured-1, pl.CapturedFrom)
		case pl.Captured == 1:
			capture = fmt.Sprintf("captures 1 seed (the last seed; pit %s was empty)", pl.CapturedFrom)
		}
		texts = append(texts, describe(pl.Ply, pl.Side, pl.Move, pl.sowing, pl.Over, capture, next.Diagram()))
		rec.Plies = append(rec.Plies, pl)
		p = next
	}
	h := p.Holes()
	rec.FinalPosition, rec.Over, rec.StoreDiff = p.String(), p.Board.Over(), p.SouthDiff()
	rec.SouthStore, rec.NorthStore = h[p.Pits], h[2*p.Pits+1]
	if rec.Over {
		d := p.SouthDiff()
		rec.Result, rec.Winner = &d, results.Winner(d)
	} else {
		rec.FinalToMove = p.ToMove.String()
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	end := fmt.Sprintf("%s to move; South's store minus North's so far %s", rec.FinalToMove, results.Signed(rec.StoreDiff))
	if rec.Over {
		end = fmt.Sprintf("game over: South %d, North %d; South's store minus North's %s: %s",
			rec.SouthStore, rec.NorthStore, results.Signed(*rec.Result), cmdutil.Outcome(*rec.Result))
	}
	writeText(opts.IO.Out, rec.GameHead, texts, end)
	return nil
}

func turn(p engine.Position) string {
	if p.Board.Over() {
		return "nobody"
	}
	return p.ToMove.String()
}

// describe tells ply n of either game in the text report: who played
// which move, what its capture took (capture, "" for none), who moves
// next, and the position it left with its diagram.
func describe(n int, who, move string, s sowing, over bool, capture, diagram string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d. %s plays %s (pit %d)", n, who, move, s.Pit)
	if capture != "" {
		fmt.Fprintf(&b, ": %s", capture)
	}
	switch {
	case over:
		fmt.Fprintf(&b, "; the game is over\n")
	case s.ExtraTurn:
		fmt.Fprintf(&b, "; last seed in the store: extra turn, %s moves again\n", s.ToMove)
	default:
		fmt.Fprintf(&b, "; %s to move\n", s.ToMove)
	}
	fmt.Fprintf(&b, "position %s\n%s", s.Position, diagram)
	return b.String()
}

// writeText writes the text report of either game: the game and where
// the moves start, each ply as describe told it, and the last line, end.
func writeText(w io.Writer, head cmdutil.GameHead, plies []string, end string) {
	fmt.Fprintln(w, head.Title())
	fmt.Fprintf(w, "from position %s, %s to move\n", head.Position, head.ToMove)
	for _, text := range plies {
		fmt.Fprint(w, text)
	}
	fmt.Fprintf(w, "\n%s\n", end)
}

// captured returns the seeds banked by the capture that sowing the mover's
// pit i of p made (the opposite pit's seeds after the sowing plus the last
// seed) and the opponent's pit they came from, counted from the opponent's
// left. It counts the seeds the sowing itself dropped into that pit: a
// sowing of 2m+1 or more seeds goes round the board.
func captured(p engine.Position, i int) (seeds, from int) {
	m := p.Pits
	s := p.Board.Pit(i)
	L := 2*m + 1            // the mover's cycle: own pits 0..m-1, own store m, opponent's pits m+1..2m
	last := (i + s) % L     // an own pit, since the sowing captured
	from = m - 1 - last     // the opponent's pit facing it
	d := (m + 1 + from) - i // seeds sown before the first one lands there (2..2m)
	hits := 0
	if d <= s {
		hits = (s-d)/L + 1
	}
	return p.Board.OppPit(from) + hits + 1, from
}
