package movecmd

import (
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/players"
)

// playersPly is one move played, in the JSON output for --players 3 or 4.
type playersPly struct {
	Ply  int    `json:"ply"`
	Seat string `json:"seat"` // P1..Pk
	Move string `json:"move"` // seat and pit letter, "1c"
	sowing
	CapturedFrom []string `json:"captured_from,omitempty"` // the seats whose pits the capture emptied
	Over         bool     `json:"over"`
	Stores       []int    `json:"stores"`
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

func runPlayers(opts *Options, r players.Variant, p players.Position, head cmdutil.GameHead) error {
	rec := playersRecord{GameHead: head}
	var texts []string
	for k, text := range opts.Moves {
		i, err := players.ParseMove(p, text)
		if err != nil {
			return cmdutil.BadInputf("ply %d (position %s, %s to move): %v", k+1, p, players.SeatName(p.ToMove()), err)
		}
		mover := p.ToMove()
		pl := playersPly{Ply: k + 1, Seat: players.SeatName(mover), Move: players.MoveName(mover, i)}
		pl.Pit = i + 1
		capt := r.CaptureOf(p.Board, i)
		next, res := r.PlayPosition(p, i)
		pl.Captured = capt.Seeds
		for _, s := range capt.From {
			pl.CapturedFrom = append(pl.CapturedFrom, players.SeatName(s))
		}
		pl.ExtraTurn, pl.Over = res.Extra(), res.Over()
		pl.Position, pl.Stores = next.String(), next.Stores()
		if !pl.Over {
			pl.ToMove = players.SeatName(next.ToMove())
		}
		capture := ""
		if pl.Captured > 0 {
			capture = fmt.Sprintf("captures %d seeds (%d from %s and the last seed)", pl.Captured, pl.Captured-1, strings.Join(pl.CapturedFrom, " and "))
		}
		texts = append(texts, describe(pl.Ply, pl.Seat, pl.Move, pl.sowing, pl.Over, capture, next.Diagram()))
		rec.Plies = append(rec.Plies, pl)
		p = next
	}
	rec.FinalPosition, rec.Over, rec.Stores = p.String(), p.Board.Over(), p.Stores()
	if rec.Over {
		rec.Ranks = players.Ranks(rec.Stores)
	} else {
		rec.FinalToMove = players.SeatName(p.ToMove())
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	stores := make([]string, len(rec.Stores))
	for s, v := range rec.Stores {
		stores[s] = fmt.Sprintf("%s %d", players.SeatName(s), v)
		if rec.Over {
			stores[s] += fmt.Sprintf(" (rank %d)", rec.Ranks[s])
		}
	}
	end := fmt.Sprintf("%s to move; stores so far %s", rec.FinalToMove, strings.Join(stores, ", "))
	if rec.Over {
		end = "game over: " + strings.Join(stores, ", ")
	}
	writeText(opts.IO.Out, rec.GameHead, texts, end)
	return nil
}
