package playcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/play"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// record is what 'kalah play --moves' prints: the result record of the
// position the line reaches (the fields of 'kalah solve --json') and the
// line.
type record struct {
	results.Record
	Solved        bool    `json:"solved"`
	FromCache     bool    `json:"from_cache"`
	FromBook      bool    `json:"from_book,omitempty"` // of those, from the built-in opening book
	StartPosition string  `json:"start_position"`
	StartToMove   string  `json:"start_to_move"`
	Line          string  `json:"line"` // the moves played, letters, turns separated by dashes
	Plies         []ply   `json:"plies"`
	Over          bool    `json:"over"`
	SouthStore    int     `json:"south_store"`
	NorthStore    int     `json:"north_store"`
	StoreDiff     int     `json:"store_diff"`       // South's store minus North's now
	Winner        string  `json:"winner,omitempty"` // south, north or draw, once the game is over
	Cache         string  `json:"cache,omitempty"`
	NPS           float64 `json:"nps"`
}

// ply is one sowing of the line.
type ply struct {
	Ply          int    `json:"ply"`
	Side         string `json:"side"`
	Move         string `json:"move"`
	Pit          int    `json:"pit"`
	Position     string `json:"position"` // after the sowing
	ToMove       string `json:"to_move,omitempty"`
	ExtraTurn    bool   `json:"extra_turn"`
	Captured     int    `json:"captured"`
	CapturedFrom string `json:"captured_from,omitempty"`
}

// solve solves p, the whole answer or an error (an interrupted solve is
// an error here: the game needs exact values).
func (g *game) solve(ctx context.Context) (*kalah.Result, error) {
	res, err := g.k.Solve(ctx, g.line.Current())
	if err != nil {
		if errors.Is(err, solver.ErrInterrupted) {
			return nil, cmdutil.ErrInterrupted
		}
		return nil, err
	}
	return res, nil
}

func (g *game) printRecord(ctx context.Context) error {
	res, err := g.solve(ctx)
	if err != nil {
		return err
	}
	p := g.line.Current()
	h := p.Holes()
	rec := record{Record: *res.Record, Solved: res.Solved, FromCache: res.FromCache, FromBook: res.FromBook,
		StartPosition: g.line.Start.String(), StartToMove: g.line.Start.ToMove.String(), Line: g.line.Letters(), Plies: []ply{},
		Over: p.Board.Over(), SouthStore: h[p.Pits], NorthStore: h[2*p.Pits+1], StoreDiff: p.SouthDiff(), Cache: g.k.CacheDir()}
	rec.Record.SyncDeprecated()
	if rec.Moves == nil {
		rec.Moves = []results.MoveValue{}
	}
	if rec.Best == nil {
		rec.Best = []string{}
	}
	if rec.Over {
		rec.Winner = results.Winner(rec.StoreDiff)
	}
	if rec.Seconds > 0 && !rec.FromCache {
		rec.NPS = float64(rec.Nodes) / rec.Seconds
	}
	for k, st := range g.line.Steps {
		pl := ply{Ply: k + 1, Side: st.Ply.Side.String(), Move: st.Move, Pit: st.Ply.Pit + 1, Position: st.After.String(),
			ExtraTurn: st.Result.Extra() && !st.Result.Over(), Captured: st.Captured, CapturedFrom: st.CapturedFrom}
		if !st.After.Board.Over() {
			pl.ToMove = st.After.ToMove.String()
		}
		rec.Plies = append(rec.Plies, pl)
	}
	if g.opts.JSON {
		return cmdutil.PrintJSON(g.opts.IO.Out, rec)
	}
	w := g.opts.IO.Out
	fmt.Fprintf(w, "Kalah(%d), rule %s\nfrom %s, %s to move; line %s\n", p.Pits, g.line.Variant.Rule, rec.StartPosition, rec.StartToMove, orNone(rec.Line))
	g.printBoard(w)
	if rec.Over {
		fmt.Fprintf(w, "game over: South %d, North %d: %s\n", rec.SouthStore, rec.NorthStore, cmdutil.Outcome(rec.StoreDiff))
		return nil
	}
	printValues(w, res)
	return nil
}

// printBoard draws the current position and, after a sowing, what it did.
func (g *game) printBoard(w io.Writer) {
	p := g.line.Current()
	var last *play.Step
	if n := len(g.line.Steps); n > 0 {
		st := g.line.Steps[n-1]
		last = &st
		fmt.Fprintf(w, "%s played %s", st.Ply.Side, st.Move)
		if st.Captured > 0 {
			fmt.Fprintf(w, ", capturing %d (pit %s)", st.Captured, st.CapturedFrom)
		}
		if st.Result.Extra() && !st.Result.Over() {
			fmt.Fprint(w, ", extra turn")
		}
		fmt.Fprintln(w)
	}
	if g.color {
		fmt.Fprintf(w, "position %s\n%s", p, colorDiagram(p, last))
		return
	}
	fmt.Fprintf(w, "position %s\n%s", p, p.Diagram())
}

// printValues writes every move's exact value, the best moves and a
// perfect game.
func printValues(w io.Writer, res *kalah.Result) {
	rec := res.Record
	fmt.Fprintf(w, "value %s for %s (%s)", results.Signed(rec.Value), rec.ToMove, outcome(rec.Value))
	switch {
	case res.FromBook:
		fmt.Fprint(w, ", from the built-in opening book")
	case res.FromCache:
		fmt.Fprint(w, ", from the cache")
	}
	fmt.Fprintln(w)
	best := map[string]bool{}
	for _, b := range rec.Best {
		best[b] = true
	}
	for _, m := range rec.Moves {
		mark := ""
		if best[m.Move] {
			mark = "  best"
		}
		extra := ""
		if m.ExtraTurn {
			extra = " (extra turn)"
		}
		fmt.Fprintf(w, "  %s %4s  %s%s%s\n", m.Move, results.Signed(m.Value), outcome(m.Value), extra, mark)
	}
	fmt.Fprintf(w, "perfect game: %s\n", orNone(rec.PVLetters))
}

func outcome(v int) string {
	switch {
	case v > 0:
		return fmt.Sprintf("wins by %d", v)
	case v < 0:
		return fmt.Sprintf("loses by %d", -v)
	}
	return "draws"
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return s
}
