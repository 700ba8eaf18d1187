package showcmd

import (
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/multi"
)

// playersRecord is the JSON output for --players 3 or 4.
type playersRecord struct {
	Players       int      `json:"players"`
	CaptureTarget string   `json:"capture_target"`
	Rule          string   `json:"rule"` // always no-empty-capture
	Pits          int      `json:"pits"`
	Seeds         int      `json:"seeds,omitempty"` // start positions only
	Position      string   `json:"position"`
	ToMove        string   `json:"to_move"` // P1..Pk
	Holes         []int    `json:"holes"`   // P1's pits a.., P1's store, P2's pits, ...
	Stores        []int    `json:"stores"`  // by seat
	SeedsInPlay   int      `json:"seeds_in_play"`
	TotalSeeds    int      `json:"total_seeds"`
	Over          bool     `json:"over"`
	Ranks         []int    `json:"ranks,omitempty"` // by seat, once the game is over; equal stores share a rank
	Moves         []string `json:"moves"`
	Diagram       string   `json:"diagram"`
}

func runPlayers(opts *Options, changed func(string) bool) error {
	r, p, start, err := opts.Players.ResolveMulti(&opts.Game, changed)
	if err != nil {
		return err
	}
	rec := playersRecord{
		Players:       r.Players,
		CaptureTarget: r.Target.String(),
		Rule:          "no-empty-capture",
		Pits:          r.Pits,
		Position:      p.String(),
		ToMove:        multi.SeatName(p.ToMove()),
		Holes:         p.Holes(),
		Stores:        p.Stores(),
		SeedsInPlay:   p.Board.Seeds(),
		TotalSeeds:    p.Board.Total(),
		Over:          p.Board.Over(),
		Moves:         cmdutil.MultiLegalMoves(p),
		Diagram:       p.Diagram(),
	}
	if start {
		rec.Seeds = opts.Game.Seeds
	}
	if rec.Over {
		rec.Ranks = multi.Ranks(rec.Stores)
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "%s, capture from %s, rule no-empty-capture\n", cmdutil.MultiGameName(r, opts.Game.Seeds, start), rec.CaptureTarget)
	fmt.Fprintf(w, "position %s, %s to move\n", rec.Position, rec.ToMove)
	fmt.Fprint(w, rec.Diagram)
	if rec.Over {
		fmt.Fprintf(w, "game over: stores %s\n", StoresText(rec.Stores))
		return nil
	}
	fmt.Fprintf(w, "seeds in play %d of %d; legal moves: %s\n", rec.SeedsInPlay, rec.TotalSeeds, strings.Join(rec.Moves, " "))
	return nil
}

// StoresText writes stores by seat with their ranks: "P1 9 (1st), P2 5 (3rd),
// P3 6 (2nd)".
func StoresText(stores []int) string {
	ranks := multi.Ranks(stores)
	parts := make([]string, len(stores))
	for s, v := range stores {
		parts[s] = fmt.Sprintf("%s %d (%s)", multi.SeatName(s), v, ordinal(ranks[s]))
	}
	return strings.Join(parts, ", ")
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}
