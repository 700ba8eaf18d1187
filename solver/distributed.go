package solver

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// This file holds the hooks a distributed campaign (package campaign) uses
// to run one piece of a search on a campaign worker: a single full-depth
// null-window test on a board, the unit of work that the coordinator ships
// with its window.

// NullWindow decides whether the value of b (relative to its stores, from
// its mover) is at least gamma, at full depth: it returns a fail-soft
// bound v, v >= gamma meaning "value >= v" and v < gamma meaning
// "value <= v". Both are proven bounds, within the seeds on the board. The
// test runs on all of the solver's threads over its table, which keeps
// what it learns for later tests. When ctx ends first it returns an error
// wrapping ErrInterrupted. nodes is what this test searched.
func (s *Solver) NullWindow(ctx context.Context, b engine.Board, gamma int) (v int, nodes int64, err error) {
	if b.Over() {
		return 0, 0, nil
	}
	var stage atomic.Pointer[Progress]
	stage.Store(&Progress{Stage: "test", Lower: -b.Seeds(), Upper: b.Seeds()})
	stopRun := s.run(ctx, &stage, time.Now())
	defer stopRun()
	before := s.statsNow().Nodes
	v, ok := s.test(b, gamma, tt.DepthSolved)
	nodes = s.statsNow().Nodes - before
	if !ok {
		return 0, nodes, fmt.Errorf("%w: test of %d on a board of %d seeds", ErrInterrupted, gamma, b.Seeds())
	}
	return v, nodes, nil
}

// Guess is a heuristic value of b for a first MTD(f) guess: the
// depth-limited MTD(f) of the full-depth search's deepening, at depths 3,
// 6, ... up to depth (positive), which also leaves good moves in the
// table. It is not a proven bound.
func (s *Solver) Guess(ctx context.Context, b engine.Board, depth int) int {
	if b.Over() {
		return 0
	}
	var stage atomic.Pointer[Progress]
	stage.Store(&Progress{Stage: "guess", Lower: -b.Seeds(), Upper: b.Seeds()})
	stopRun := s.run(ctx, &stage, time.Now())
	defer stopRun()
	return s.deepen(ctx, b, 0, depth)
}
