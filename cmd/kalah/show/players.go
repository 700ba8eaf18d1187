package showcmd

import (
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/players"
)

// playersRecord is the JSON output for --players 3 or 4.
type playersRecord struct {
	cmdutil.GameHead
	Holes       []int    `json:"holes"`  // P1's pits a.., P1's store, P2's pits, ...
	Stores      []int    `json:"stores"` // by seat
	SeedsInPlay int      `json:"seeds_in_play"`
	TotalSeeds  int      `json:"total_seeds"`
	Over        bool     `json:"over"`
	Ranks       []int    `json:"ranks,omitempty"` // by seat, once the game is over; equal stores share a rank
	Moves       []string `json:"moves"`
	Diagram     string   `json:"diagram"`
}

func runPlayers(opts *Options, p players.Position, head cmdutil.GameHead) error {
	rec := playersRecord{
		GameHead:    head,
		Holes:       p.Holes(),
		Stores:      p.Stores(),
		SeedsInPlay: p.Board.Seeds(),
		TotalSeeds:  p.Board.Total(),
		Over:        p.Board.Over(),
		Moves:       cmdutil.MultiLegalMoves(p),
		Diagram:     p.Diagram(),
	}
	if rec.Over {
		rec.Ranks = players.Ranks(rec.Stores)
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	over := ""
	if rec.Over {
		over = "stores " + StoresText(rec.Stores)
	}
	writeText(opts.IO.Out, rec.GameHead, rec.Diagram, over, rec.SeedsInPlay, rec.TotalSeeds, rec.Moves)
	return nil
}

// StoresText writes stores by seat with their ranks: "P1 9 (1st), P2 5 (3rd),
// P3 6 (2nd)".
func StoresText(stores []int) string {
	ranks := players.Ranks(stores)
	parts := make([]string, len(stores))
	for s, v := range stores {
		parts[s] = fmt.Sprintf("%s %d (%s)", players.SeatName(s), v, ordinal(ranks[s]))
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
