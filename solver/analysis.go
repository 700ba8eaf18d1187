package solver

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// The searches of a game's analysis, which walks a game position by
// position over one table: each position's value is proven once, and the
// next position's search starts from what the test of the move played
// proved about it.

// TableMove is the move the table holds for b (the best or cut-off move
// of the last search of b), if b has an entry: the move to try first when
// looking for one that reaches a value already proven.
func (s *Solver) TableMove(b engine.Board) (int, bool) { return s.tableMove(b) }

// BoardBoundsFrom is BoardBounds for a board whose value (relative to its
// stores) is already proven to lie in [lo, hi], by a null-window test
// whose fail-soft answer guess is the first guess: MTD(f) runs from there
// with no deepening, since the table holds the test's moves. The caller
// vouches for the bounds.
func (s *Solver) BoardBoundsFrom(ctx context.Context, b engine.Board, guess, lo, hi int) (int, int, error) {
	if b.Over() {
		return 0, 0, nil
	}
	var st atomic.Pointer[Progress]
	start := time.Now()
	report := s.reporter(&st, start, "analysis", engine.ResExtra, 0, b.Seeds())
	stopRun := s.run(ctx, &st, start)
	defer stopRun()
	lo, hi, ok := s.mtdfWithin(ctx, s.test, b, guess, tt.DepthSolved, lo, hi, report)
	if !ok {
		return lo, hi, fmt.Errorf("%w: value in [%d, %d]", ErrInterrupted, lo, hi)
	}
	return lo, hi, nil
}
