package results

import (
	"context"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// PlyCheck is the verdict on one sowing of a line. Values are South's
// final store minus North's under perfect play from then on.
type PlyCheck struct {
	Ply     int    `json:"ply"`  // 1-based
	Side    string `json:"side"` // "south" or "north"
	Hole    int    `json:"hole"` // the paper's number: 0-based from the mover's left
	Move    string `json:"move"` // the pit letter
	Before  int    `json:"before"`
	After   int    `json:"after"`
	Optimal bool   `json:"optimal"` // After equals Before: the move keeps the position's value
	// Best lists the optimal moves (letters) where the move played is not
	// one of them.
	Best []string `json:"best,omitempty"`
}

// PositionValue is the value of p for South: South's final store minus
// North's under perfect play.
func PositionValue(ctx context.Context, s *solver.Solver, p engine.Position) (int, error) {
	if p.Board.Over() {
		return p.SouthDiff(), nil
	}
	v, err := s.BoardValue(ctx, p.Board)
	if err != nil {
		return 0, err
	}
	if p.ToMove == engine.North {
		v = -v
	}
	return p.SouthDiff() + v, nil
}

// VerifyLine checks every sowing of l with s: a move is optimal when the
// position after it has the same value as the position before it (the
// mover's best is the position's value). One solve per ply, plus one per
// legal move where the move played is not optimal (to name the best).
func VerifyLine(ctx context.Context, s *solver.Solver, l Line) ([]PlyCheck, error) {
	var out []PlyCheck
	before, err := PositionValue(ctx, s, l.Start)
	if err != nil {
		return out, err
	}
	for k, p := range l.Plies {
		after, err := PositionValue(ctx, s, p.After)
		if err != nil {
			return out, err
		}
		c := PlyCheck{Ply: k + 1, Side: p.Side.String(), Hole: p.Pit, Move: engine.MoveLetter(p.Side, p.Pit),
			Before: before, After: after, Optimal: after == before}
		if !c.Optimal {
			for _, i := range p.Before.Board.MoveList() {
				next, _ := l.Rules.PlayPosition(p.Before, i)
				v, err := PositionValue(ctx, s, next)
				if err != nil {
					return out, err
				}
				if v == before {
					c.Best = append(c.Best, engine.MoveLetter(p.Side, i))
				}
			}
		}
		out = append(out, c)
		before = after
	}
	return out, nil
}
