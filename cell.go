package kalah

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// SolveStart solves the start of the session's game, Kalah(m,n), for a
// results file: the value, then every move's value, then the value of every
// opening chain (each chain's last position solved for its value), then a
// principal variation, on a fresh table (Reset) so that the record's node
// count does not depend on earlier solves. It never answers from a root
// record. When ctx ends first it returns the cell unsolved, with the bounds
// proven so far, and an error wrapping solver.ErrInterrupted. With a
// cache it checkpoints its table there, and a later run of the cell
// starts from the last checkpoint (Cell.Resumed). The record's date is
// today's (UTC).
func (k *Session) SolveStart(ctx context.Context) (*results.Cell, error) {
	return k.SolveStartFrom(ctx, nil)
}

// SolveStartFrom is SolveStart for a cell that earlier runs left open:
// what prior, the cell's open record, holds exact is taken from it and
// not searched again (the value, each losing first move's value, each
// opening chain's), as a resumed run takes the cache's proofs; a best
// first move is searched again, first (priorKnown); the search of the
// value and of each other first move starts from the bounds prior holds
// on it; and the record counts prior's runs as its earlier ones
// (Record.Earlier). A nil prior is SolveStart; a prior of another cell,
// or one that fails its check, is an error.
func (k *Session) SolveStartFrom(ctx context.Context, prior *results.Open) (*results.Cell, error) {
	rules, seeds, start := k.rules, k.cfg.Seeds, k.Start()
	if prior != nil {
		if prior.Rule != rules.Rule.String() || prior.Pits != rules.Pits || prior.Seeds != seeds {
			return nil, fmt.Errorf("the open record of %s is not one of Kalah(%d,%d) %s", prior.Name(), rules.Pits, seeds, rules.Rule)
		}
		if err := prior.Check(); err != nil {
			return nil, fmt.Errorf("the open record: %w", err)
		}
	}
	k.Reset()
	s, err := k.build()
	if err != nil {
		return nil, err
	}
	total := 2 * rules.Pits * seeds
	cell := &results.Cell{Rule: rules.Rule.String(), Pits: rules.Pits, Seeds: seeds, Lower: -total, Upper: total, Stage: "value"}
	known := priorKnown(prior, start)
	if prior != nil {
		cell.Lower, cell.Upper = prior.Lower, prior.Upper
	}
	t0 := time.Now()
	nodes0, hits0 := s.Stats().Nodes, s.Stats().CacheHits
	// With a cache, the table starts from the checkpoint of an interrupted
	// run of this cell, if the cache holds one, and is checkpointed while
	// the run goes (checkpoint.go): a run stopped by a time limit or
	// killed hands the next its table, not only the cache's entries.
	ck := k.resume(start, s.Table(), func() int64 { return s.Stats().Nodes - nodes0 })
	cell.Resumed = k.resumed
	finish := func(err error) (*results.Cell, error) {
		ck.finish(false) // a last checkpoint
		cell.Nodes = s.Stats().Nodes - nodes0
		cell.Elapsed = time.Since(t0)
		return cell, err
	}

	// On a big board, the value first, on its own: it costs a fraction of
	// every move's value (a losing move's exact loss is most of that
	// work), so a cell whose run stops before every move is proven still
	// records its exact value (an open cell at stage "openings"). The
	// moves' searches then start from the value and the table its proof
	// filled, but redo part of it (record design-value-first), so the
	// boards that SolveEveryMove does not deepen, which finish in seconds,
	// skip it.
	// With the value known from an earlier run, it is not solved again.
	best := known.result
	if s.Deepens(start.Board) && !best.Solved {
		best, err = s.SolveBestMoveWithin(ctx, start, cell.Lower, cell.Upper)
		if best != nil {
			cell.Lower, cell.Upper = max(cell.Lower, best.Lower), min(cell.Upper, best.Upper)
		}
		if err != nil {
			return finish(err)
		}
		best.Moves = known.result.Moves
	}
	if best.Solved {
		cell.Stage = "openings"
	}
	res, err := s.SolveEveryMoveFrom(ctx, start, best)
	if res != nil {
		// Both are proven: intersect them (an interrupted SolveEveryMove
		// knows less than the value).
		cell.Lower, cell.Upper = max(cell.Lower, res.Lower), min(cell.Upper, res.Upper)
		for _, mv := range res.Moves {
			cell.Moves = append(cell.Moves, results.MoveBounds{Move: mv.Move, Lower: mv.Lower, Upper: mv.Upper})
		}
		results.SortMoves(cell.Moves)
	}
	if err != nil {
		if res != nil && res.Solved && len(res.Moves) > 0 {
			cell.Stage = "pv"
		}
		return finish(err)
	}
	cell.Stage = "openings"
	if best.Solved && res.Value != best.Value {
		return finish(fmt.Errorf("internal error: %s start is worth %s by its value alone but %s by every move's", rules, results.Signed(best.Value), results.Signed(res.Value)))
	}
	moveValue := map[int]int{}
	for _, mv := range res.Moves {
		moveValue[mv.Pit-1] = mv.Value
	}
	// The chains of more than one sowing are solved one by one; a run
	// that stops among them keeps those proven and the bounds of the one
	// it was solving (cell.Chains).
	var openings []results.Opening
	for _, chain := range results.OpeningChains(rules, start) {
		name := results.FormatChain(chain)
		if len(chain) == 1 {
			openings = append(openings, results.Opening{Chain: name, Value: moveValue[chain[0]]})
			continue
		}
		if v, ok := known.chains[name]; ok {
			openings = append(openings, results.Opening{Chain: name, Value: v})
			continue
		}
		lo, hi, narrowed, err := chainBounds(ctx, s, rules, start, chain)
		if err != nil && !errors.Is(err, solver.ErrInterrupted) {
			return finish(err)
		}
		if narrowed {
			cell.Chains = append(cell.Chains, results.ChainBounds{Chain: name, Lower: lo, Upper: hi})
		}
		if err != nil {
			return finish(err)
		}
		openings = append(openings, results.Opening{Chain: name, Value: lo})
	}
	// Each extra-turn move's value is the best of the chains it begins.
	for _, mv := range res.Moves {
		best := math.MinInt
		for _, o := range openings {
			if p, _ := results.ChainPits(o.Chain, rules.Pits); p[0] == mv.Pit-1 {
				best = max(best, o.Value)
			}
		}
		if best != mv.Value {
			return finish(fmt.Errorf("internal error: %s move %d is worth %s but its best chain %s", rules, mv.Pit, results.Signed(mv.Value), results.Signed(best)))
		}
	}

	cell.Stage = "pv"
	if _, err := rules.PlayLine(start, res.PV); err != nil {
		return finish(fmt.Errorf("internal error: the solver's principal variation: %w", err))
	}
	cell.Stage = ""
	cell.Solved = true
	cell.Nodes = s.Stats().Nodes - nodes0
	cell.Elapsed = time.Since(t0)
	cell.Record = &results.Record{
		Rule:       cell.Rule,
		Pits:       rules.Pits,
		Seeds:      seeds,
		Value:      res.Value,
		Result:     results.Outcome(res.Value),
		Openings:   openings,
		PV:         engine.FormatPaper(res.PV),
		PVLetters:  engine.FormatLetters(res.PV),
		Nodes:      cell.Nodes,
		Seconds:    math.Round(cell.Elapsed.Seconds()*1000) / 1000,
		Threads:    s.Threads(),
		TableSize:  s.Table().Bytes(),
		EGDBSeeds:  s.EGDBSeeds(),
		CacheHits:  s.Stats().CacheHits - hits0,
		StoreHits:  s.Stats().CacheHits - hits0,
		Date:       time.Now().UTC().Format("2006-01-02"),
		Provenance: results.Current(),
	}
	if known.used {
		// Part of the record is the earlier runs' work.
		cell.Record.Earlier = &results.EarlierRuns{Runs: prior.Runs, Nodes: prior.Nodes, Seconds: prior.Seconds,
			EGDBSeeds: prior.EGDBSeeds, EGDBSeedsLeast: prior.EGDBSeedsLeast}
	}
	if err := cell.Record.Check(); err != nil {
		return finish(fmt.Errorf("internal error: the new record fails its check: %w", err))
	}
	if err := ck.finish(true); err != nil {
		// The record stands; the checkpoint left behind is only space.
		k.logf("dropping the checkpoint of %v: %v", start, err)
	}
	return cell, nil
}

// priorWork is what SolveStartFrom takes from an open record: the value
// and the first moves' values or bounds as a result for start (unsolved,
// with no moves, for a nil record), the exact opening chains' values by
// name, and whether the record proves anything (then the record counts
// its runs).
type priorWork struct {
	result *solver.Result
	chains map[string]int
	used   bool
}

// priorKnown reads prior (nil: nothing) for SolveStartFrom. A move as
// good as the best proven is searched again all the same, and first: its
// proof fills the table with what the other moves' proofs need. Every move of Kalah(6,3) no-empty-capture (one thread, a 4 MiB
// table) took 25.9 M nodes; with the best move given, the others alone
// took 35.6 M; with the losing moves given, the best 3.8 M.
func priorKnown(prior *results.Open, start engine.Position) priorWork {
	w := priorWork{result: &solver.Result{Position: start}, chains: map[string]int{}}
	if prior == nil {
		return w
	}
	top := prior.Lower
	for _, m := range prior.Moves {
		top = max(top, m.Lower)
	}
	for _, m := range prior.Moves {
		for _, i := range start.Board.MoveList() {
			if m.Move != engine.MoveLetter(start.ToMove, i) {
				continue
			}
			if m.Lower != m.Upper {
				// Its MTD(f) starts from the bounds.
				w.result.Moves = append(w.result.Moves, solver.MoveValue{Pit: i + 1, Move: m.Move, Lower: m.Lower, Upper: m.Upper})
				continue
			}
			if m.Lower == prior.Upper {
				w.result.Best = append(w.result.Best, i)
			}
			if m.Lower < top {
				w.result.Moves = append(w.result.Moves, solver.MoveValue{Pit: i + 1, Move: m.Move, Value: m.Lower, Solved: true})
			}
		}
	}
	if prior.Lower == prior.Upper {
		v := prior.Lower
		w.result.Solved, w.result.Value, w.result.Lower, w.result.Upper = true, v, v, v
	} else {
		w.result.Best = nil
	}
	for _, c := range prior.Chains {
		if c.Lower == c.Upper {
			w.chains[c.Chain] = c.Lower
		}
	}
	w.used = prior.Proves()
	return w
}

// chainBounds plays chain (every sowing but the last earns an extra turn)
// and returns bounds on South's final store difference under perfect play
// after it: exact (lo == hi) unless err wraps solver.ErrInterrupted.
// narrowed says the bounds are narrower than the seeds left allow.
func chainBounds(ctx context.Context, s *solver.Solver, rules engine.Variant, start engine.Position, chain []int) (lo, hi int, narrowed bool, err error) {
	end := start
	for _, i := range chain {
		if end.Board.Over() || end.ToMove != start.ToMove || end.Board.Pit(i) == 0 {
			return 0, 0, false, errors.New("internal error: opening chain is not a legal first turn")
		}
		end, _ = rules.PlayPosition(end, i)
	}
	if end.Board.Over() {
		return end.SouthDiff(), end.SouthDiff(), true, nil
	}
	if end.ToMove == start.ToMove {
		return 0, 0, false, errors.New("internal error: opening chain does not end the turn")
	}
	letters := ""
	for _, i := range chain {
		letters += engine.MoveLetter(start.ToMove, i)
	}
	// The bounds are relative, for North to move; progress reports them
	// as South's values (the turn passed to North after the chain).
	vlo, vhi, err := s.BoardBounds(ctx, end.Board, "chain "+letters, 0, end.SouthDiff())
	narrowed = vhi-vlo < 2*end.Board.Seeds()
	return end.SouthDiff() - vhi, end.SouthDiff() - vlo, narrowed, err
}
