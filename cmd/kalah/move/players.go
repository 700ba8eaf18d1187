package movecmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/multi"
)

// playersPly is one move played, in the JSON output for --players 3 or 4.
type playersPly struct {
	Ply          int      `json:"ply"`
	Seat         string   `json:"seat"` // P1..Pk
	Move         string   `json:"move"` // seat and pit letter, "1c"
	Pit          int      `json:"pit"`  // 1-based from the mover's left
	Position     string   `json:"position"`
	ToMove       string   `json:"to_move,omitempty"` // empty once the game is over
	ExtraTurn    bool     `json:"extra_turn"`
	Captured     int      `json:"captured"`                // seeds banked by a capture, the last seed included
	CapturedFrom []string `json:"captured_from,omitempty"` // the seats whose pits the capture emptied
	Over         bool     `json:"over"`
	Stores       []int    `json:"stores"`

	diagram string
}

// playersRecord is the JSON output for --players 3 or 4.
type playersRecord struct {
	// The game, and the position where the moves start.
	cmdutil.GameHead
	Plies         []playersPly `json:"plies"`
	FinalPosition string       `json:"final_position"`
	FinalToMove   string       `json:"final_to_move,omitempty"` // empty once the game is over
	Over          bool         `json:"over"`
	Stores        []int        `json:"stores"`
	Ranks         []int        `json:"ranks,omitempty"` // by seat, at the end of the game; equal stores share a rank
}

func runPlayers(opts *Options, r multi.Rules, p multi.Position, head cmdutil.GameHead) error {
	rec := playersRecord{GameHead: head}
	for k, text := range opts.Moves {
		i, err := multi.ParseMove(p, text)
		if err != nil {
			return cmdutil.BadInputf("ply %d (position %s, %s to move): %v", k+1, p, multi.SeatName(p.ToMove()), err)
		}
		mover := p.ToMove()
		pl := playersPly{Ply: k + 1, Seat: multi.SeatName(mover), Move: multi.MoveName(mover, i), Pit: i + 1}
		capt := r.CaptureOf(p.Board, i)
		next, res := r.PlayPosition(p, i)
		pl.Captured = capt.Seeds
		for _, s := range capt.From {
			pl.CapturedFrom = append(pl.CapturedFrom, multi.SeatName(s))
		}
		pl.ExtraTurn, pl.Over = res.Extra(), res.Over()
		pl.Position, pl.Stores = next.String(), next.Stores()
		if !pl.Over {
			pl.ToMove = multi.SeatName(next.ToMove())
		}
		pl.diagram = next.Diagram()
		rec.Plies = append(rec.Plies, pl)
		p = next
	}
	rec.FinalPosition, rec.Over, rec.Stores = p.String(), p.Board.Over(), p.Stores()
	if rec.Over {
		rec.Ranks = multi.Ranks(rec.Stores)
	} else {
		rec.FinalToMove = multi.SeatName(p.ToMove())
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	writePlayersText(opts.IO.Out, rec)
	return nil
}

func writePlayersText(w io.Writer, rec playersRecord) {
	fmt.Fprintln(w, rec.Title())
	fmt.Fprintf(w, "from position %s, %s to move\n", rec.Position, rec.ToMove)
	for _, pl := range rec.Plies {
		fmt.Fprintf(w, "\n%d. %s plays %s (pit %d)", pl.Ply, pl.Seat, pl.Move, pl.Pit)
		if pl.Captured > 0 {
			fmt.Fprintf(w, ": captures %d seeds (%d from %s and the last seed)", pl.Captured, pl.Captured-1, strings.Join(pl.CapturedFrom, " and "))
		}
		switch {
		case pl.Over:
			fmt.Fprintf(w, "; the game is over\n")
		case pl.ExtraTurn:
			fmt.Fprintf(w, "; last seed in the store: extra turn, %s moves again\n", pl.ToMove)
		default:
			fmt.Fprintf(w, "; %s to move\n", pl.ToMove)
		}
		fmt.Fprintf(w, "position %s\n%s", pl.Position, pl.diagram)
	}
	fmt.Fprintln(w)
	stores := make([]string, len(rec.Stores))
	for s, v := range rec.Stores {
		stores[s] = fmt.Sprintf("%s %d", multi.SeatName(s), v)
	}
	if rec.Over {
		parts := make([]string, len(rec.Stores))
		for s, v := range rec.Stores {
			parts[s] = fmt.Sprintf("%s %d (rank %d)", multi.SeatName(s), v, rec.Ranks[s])
		}
		fmt.Fprintf(w, "game over: %s\n", strings.Join(parts, ", "))
		return
	}
	fmt.Fprintf(w, "%s to move; stores so far %s\n", rec.FinalToMove, strings.Join(stores, ", "))
}
