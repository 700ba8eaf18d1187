package campaign

import (
	"context"
	"errors"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// DefaultGuessDepth is the depth of the depth-limited deepening that
// guesses each root move's value before its MTD(f) (CoordinatorConfig.
// GuessDepth): solver.DefaultDeepen, the depth of the deepening of
// 'kalah solve'. A poor guess costs whole MTD(f) steps, each a round of
// full-depth units; on Kalah(6,4) with the 20-seed databases, depth 12
// left a root move's MTD(f) creeping up by 2 over five steps (docs/
// distributed.md, Measurements).
const DefaultGuessDepth = solver.DefaultDeepen

// guess is the first MTD(f) guess of a root move's board b (relative
// value): a depth-limited deepening by the coordinator's own session, from
// the table its earlier guesses and local tests filled. It is only a
// guess: every bound the campaign records is proven by full-depth tests.
func (co *Coordinator) guess(ctx context.Context, b engine.Board) int {
	depth := co.cfg.GuessDepth
	if depth == 0 {
		depth = DefaultGuessDepth
	}
	if b.Seeds() <= co.p.LocalSeeds || depth < 0 {
		return 0
	}
	g := 0
	co.withLocal(func(k *kalah.Session) error {
		var err error
		g, err = k.Guess(ctx, b, depth)
		return err
	})
	return g
}

// withLocal runs f on the coordinator's own session, one search at a time,
// and counts its nodes in the status (coordinator_nodes), so that the
// campaign's node count is the whole work: the workers' units and the
// coordinator's guesses, local tests and line.
func (co *Coordinator) withLocal(f func(k *kalah.Session) error) error {
	co.localMu.Lock()
	defer co.localMu.Unlock()
	if co.localClosed {
		return errors.New("the coordinator is closed")
	}
	if err := co.local.Ready(); err != nil {
		return err
	}
	before := co.local.Stats().Nodes
	err := f(co.local)
	n := co.local.Stats().Nodes - before
	co.mu.Lock()
	co.st.CoordinatorNodes += n
	co.mu.Unlock()
	return err
}
