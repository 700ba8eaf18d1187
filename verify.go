package kalah

import (
	"context"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// VerifyLine checks every sowing of line, played from start: a move is
// optimal when the position after it has the same value as the position
// before it (the mover's best is the position's value). One solve per
// ply, plus one per legal move where the move played is not optimal (to
// name the best). Values are South's final store minus North's under
// perfect play. The line must be legal (engine.Rules.ParsePaper and
// ParseLetters read one). When ctx ends first it returns the plies checked
// so far with the error.
func (k *Session) VerifyLine(ctx context.Context, start engine.Position, line []engine.Ply) ([]results.PlyCheck, error) {
	var out []results.PlyCheck
	before, err := k.SouthValue(ctx, start)
	if err != nil {
		return out, err
	}
	p := start
	for n, pl := range line {
		next, _ := k.rules.PlayPosition(p, pl.Pit)
		after, err := k.SouthValue(ctx, next)
		if err != nil {
			return out, err
		}
		c := results.PlyCheck{Ply: n + 1, Side: pl.Side.String(), Hole: pl.Pit, Move: engine.MoveLetter(pl.Side, pl.Pit),
			Before: before, After: after, Optimal: after == before}
		if !c.Optimal {
			for _, i := range p.Board.MoveList() {
				alt, _ := k.rules.PlayPosition(p, i)
				v, err := k.SouthValue(ctx, alt)
				if err != nil {
					return out, err
				}
				if v == before {
					c.Best = append(c.Best, engine.MoveLetter(pl.Side, i))
				}
			}
		}
		out = append(out, c)
		before, p = after, next
	}
	return out, nil
}
