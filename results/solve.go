package results

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// Cell is the outcome of solving one start position: a complete Record, or,
// when the solve was stopped, the bounds proven on the value so far.
type Cell struct {
	Rule   string
	Pits   int
	Seeds  int
	Record *Record // nil unless Solved
	Solved bool
	Lower  int // proven bounds on the value (South's final store minus North's)
	Upper  int
	// Stage says what was being computed when the solve stopped: "value",
	// "openings" (the value is exact, some opening chains are not) or
	// "pv".
	Stage   string
	Nodes   int64
	Elapsed time.Duration
}

// Bounds writes an unfinished cell's bounds: ">= +4", "<= -2", "+4..+8",
// or the exact value when only the openings or the line are missing.
func (c *Cell) Bounds() string {
	total := 2 * c.Pits * c.Seeds
	switch {
	case c.Solved || c.Lower == c.Upper:
		return "= " + Signed(c.Lower)
	case c.Lower <= -total && c.Upper >= total:
		return "?"
	case c.Upper >= total:
		return ">= " + Signed(c.Lower)
	case c.Lower <= -total:
		return "<= " + Signed(c.Upper)
	}
	return Signed(c.Lower) + ".." + Signed(c.Upper)
}

// SolveStart solves the start of Kalah(m, seeds) with s (m and the rule are
// the solver's): the value and every move's value (solver.Solve), then the
// value of every opening chain (each chain's last position solved with
// s.Value), then a principal variation. When ctx ends first it returns the
// cell unsolved, with the bounds proven so far, and an error wrapping
// solver.ErrInterrupted. The record's date is today's (UTC).
func SolveStart(ctx context.Context, s *solver.Solver, seeds int) (*Cell, error) {
	rules := s.Rules()
	start, err := rules.StartPosition(seeds)
	if err != nil {
		return nil, err
	}
	total := 2 * rules.Pits * seeds
	cell := &Cell{Rule: rules.Capture.String(), Pits: rules.Pits, Seeds: seeds, Lower: -total, Upper: total, Stage: "value"}
	t0 := time.Now()
	nodes0, hits0 := s.Stats().Nodes, s.Stats().CacheHits
	finish := func(err error) (*Cell, error) {
		cell.Nodes = s.Stats().Nodes - nodes0
		cell.Elapsed = time.Since(t0)
		return cell, err
	}

	res, err := s.SolveEveryMove(ctx, start)
	if res != nil {
		cell.Lower, cell.Upper = res.Lower, res.Upper
	}
	if err != nil {
		if res != nil && res.Solved && len(res.Moves) > 0 {
			cell.Stage = "pv"
		}
		return finish(err)
	}
	cell.Stage = "openings"
	moveValue := map[int]int{}
	for _, mv := range res.Moves {
		moveValue[mv.Pit-1] = mv.Value
	}
	var openings []Opening
	for _, chain := range OpeningChains(rules, start) {
		var v int
		if len(chain) == 1 {
			v = moveValue[chain[0]]
		} else if v, err = chainValue(ctx, s, rules, start, chain); err != nil {
			return finish(err)
		}
		openings = append(openings, Opening{Chain: FormatChain(chain), Value: v})
	}
	// Each extra-turn move's value is the best of the chains it begins.
	for _, mv := range res.Moves {
		best := math.MinInt
		for _, o := range openings {
			if p, _ := ChainPits(o.Chain, rules.Pits); p[0] == mv.Pit-1 {
				best = max(best, o.Value)
			}
		}
		if best != mv.Value {
			return finish(fmt.Errorf("internal error: %s move %d is worth %s but its best chain %s", rules, mv.Pit, Signed(mv.Value), Signed(best)))
		}
	}

	cell.Stage = "pv"
	var pits []int
	for _, st := range res.PV {
		pits = append(pits, st.Pit)
	}
	line, err := LineFromPits(rules, start, pits)
	if err != nil {
		return finish(fmt.Errorf("internal error: the solver's principal variation: %w", err))
	}
	cell.Stage = ""
	cell.Solved = true
	cell.Nodes = s.Stats().Nodes - nodes0
	cell.Elapsed = time.Since(t0)
	cell.Record = &Record{
		Rule:       cell.Rule,
		Pits:       rules.Pits,
		Seeds:      seeds,
		Value:      res.Value,
		Result:     Outcome(res.Value),
		Openings:   openings,
		PV:         line.FormatPaper(),
		PVLetters:  line.FormatLetters(),
		Nodes:      cell.Nodes,
		Seconds:    math.Round(cell.Elapsed.Seconds()*1000) / 1000,
		Threads:    s.Threads(),
		TTBytes:    s.Table().Bytes(),
		EGDBSeeds:  s.EGDBSeeds(),
		CacheHits:  s.Stats().CacheHits - hits0,
		Date:       time.Now().UTC().Format("2006-01-02"),
		Provenance: Current(),
	}
	if err := cell.Record.Check(); err != nil {
		return finish(fmt.Errorf("internal error: the new record fails its check: %w", err))
	}
	return cell, nil
}

// chainValue plays chain (every sowing but the last earns an extra turn)
// and returns South's final store difference under perfect play after it.
func chainValue(ctx context.Context, s *solver.Solver, rules engine.Rules, start engine.Position, chain []int) (int, error) {
	line, err := LineFromPits(rules, start, chain)
	if err != nil {
		return 0, err
	}
	end := line.End()
	if end.Board.Over() {
		return end.SouthDiff(), nil
	}
	if end.ToMove == start.ToMove {
		return 0, errors.New("internal error: opening chain does not end the turn")
	}
	v, err := s.BoardValue(ctx, end.Board) // relative, for North to move
	if err != nil {
		return 0, err
	}
	return end.SouthDiff() - v, nil
}
