package cmdutil

import (
	"fmt"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// CheckConflicts rejects game flags that contradict each other: --seeds or
// --pits together with a --position of another size, and --to-move without
// --position (a start position always has South to move). changed reports
// whether a flag was given on the command line (cmd.Flags().Changed).
// Errors are BadInput.
func (f *GameFlags) CheckConflicts(changed func(name string) bool) error {
	if f.Position == "" {
		if changed("to-move") {
			return BadInputf("--to-move needs --position: a start position has South to move")
		}
		return nil
	}
	if changed("seeds") {
		return BadInputf("--seeds names a start position; give either --position or --pits/--seeds")
	}
	if changed("pits") {
		if _, p, _, err := f.ResolvePosition(engine.NoEmptyCapture, f.Position); err == nil && p.Pits != f.Pits {
			return BadInputf("--pits %d contradicts --position, which has %d pits per side", f.Pits, p.Pits)
		}
	}
	return nil
}

// GameName is "Kalah(m,n)" for a start position, else "Kalah(m)".
func GameName(p engine.Position, seeds int, start bool) string {
	if start {
		return fmt.Sprintf("Kalah(%d,%d)", p.Pits, seeds)
	}
	return fmt.Sprintf("Kalah(%d)", p.Pits)
}

// LegalMoves lists the legal moves of p by their letters (a.. for South,
// A.. for North); empty when the game is over.
func LegalMoves(p engine.Position) []string {
	out := []string{}
	if p.Board.Over() {
		return out
	}
	for _, i := range p.Board.MoveList() {
		out = append(out, engine.MoveLetter(p.ToMove, i))
	}
	return out
}

// Outcome is "south wins", "north wins" or "draw", from South's store
// minus North's.
func Outcome(southDiff int) string {
	if w := results.Winner(southDiff); w != "draw" {
		return w + " wins"
	}
	return "draw"
}
