package solver

import "github.com/kalah-solver/kalah/engine"

// TableMove is the move the table holds for b (the best or cut-off move
// of the last search of b), if b has an entry: the move to try first when
// looking for one that reaches a value already proven.
func (s *Solver) TableMove(b engine.Board) (int, bool) { return s.tableMove(b) }
