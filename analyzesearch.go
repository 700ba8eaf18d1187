package kalah

import (
	"context"
	"errors"
	"slices"
	"sort"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/openspiel"
	"github.com/kalah-solver/kalah/solver"
)

// The searches of an analysis. The position before a move has a proven
// value v (for its mover); the move played is worth at most v. One
// null-window test of the position after it asks whether it is worth v:
// when it is (the move keeps the value, the usual case in a good game),
// that test alone proves the next position's value, and the table,
// which holds the proof of v, mostly answers it. When it is not, the
// test's fail-soft answer bounds the next position's value, and MTD(f)
// starts from it. Best moves are looked for only where the move played
// loses, by one test of each other move against v.

// limit is ctx with the per-position time limit d, if positive.
func limit(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return context.WithCancel(ctx)
}

// cutShort reports whether err is the time limit of lim running out while
// ctx, the caller's, goes on: the figures are then bounds, not an error.
func cutShort(err error, ctx context.Context) bool {
	return errors.Is(err, solver.ErrInterrupted) && ctx.Err() == nil
}

// known is p's value for South when no search is needed: a finished game,
// or a root record of the cache or the book.
func (k *Session) known(p engine.Position) (posValue, bool) {
	if p.Board.Over() {
		d := p.SouthDiff()
		return posValue{lo: d, hi: d, source: "over"}, true
	}
	if !k.cfg.Recompute {
		if rec, fromBook := k.answered(p); rec != nil {
			v := rec.Value
			if p.ToMove == engine.North {
				v = -v
			}
			src := "cache"
			if fromBook {
				src = "book"
			}
			return posValue{lo: v, hi: v, rec: rec, source: src}, true
		}
	}
	return posValue{}, false
}

// fromParent is the value for South of the position after p's move pit
// from the root record that answered p (cur): the record holds the exact
// value of every move of p, so the move played needs no search.
func fromParent(p engine.Position, pit int, cur posValue) (posValue, bool) {
	if cur.rec == nil {
		return posValue{}, false
	}
	for _, m := range cur.rec.Moves {
		if m.Pit == pit+1 && m.Lower == nil && m.Upper == nil {
			v := m.Value
			if p.ToMove == engine.North {
				v = -v
			}
			return posValue{lo: v, hi: v, source: cur.source}, true
		}
	}
	return posValue{}, false
}

// southRange turns bounds on q's value relative to its stores into
// South's interval.
func southRange(q engine.Position, lo, hi int) (int, int) {
	sd := q.Board.StoreDiff()
	if q.ToMove == engine.North {
		return -(sd + hi), -(sd + lo)
	}
	return sd + lo, sd + hi
}

// southValue is p's value for South: known, or searched (value only)
// under lim; when lim runs out first, the bounds proven so far.
func (k *Session) southValue(lim, ctx context.Context, p engine.Position) (posValue, error) {
	if pv, ok := k.known(p); ok {
		return pv, nil
	}
	sv, err := k.build()
	if err != nil {
		return posValue{}, err
	}
	lo, hi, err := sv.BoardBounds(lim, p.Board, "analysis", engine.ResExtra, 0)
	if err != nil && !cutShort(err, ctx) {
		return posValue{}, err
	}
	lo, hi = southRange(p, lo, hi)
	return posValue{lo: lo, hi: hi, source: "search"}, nil
}

// nextValue is the value for South of q, the position after p's move
// pit, p's value for South being cur: known, or given by the record that
// answered p, or from one test of the move against p's value, then MTD(f)
// from that test's bound when the move loses. With cur a bound it is
// southValue.
func (k *Session) nextValue(lim, ctx context.Context, p engine.Position, pit int, q engine.Position, cur posValue) (posValue, error) {
	if pv, ok := k.known(q); ok {
		return pv, nil
	}
	if cur.lo != cur.hi {
		return k.southValue(lim, ctx, q)
	}
	if pv, ok := fromParent(p, pit, cur); ok {
		return pv, nil
	}
	sv, err := k.build()
	if err != nil {
		return posValue{}, err
	}
	v := cur.lo // p's value for its mover
	if p.ToMove == engine.North {
		v = -v
	}
	seeds, sd := q.Board.Seeds(), q.Board.StoreDiff()
	same := q.ToMove == p.ToMove // an extra turn
	// The move is worth q's value (sd + rel) to its mover after an extra
	// turn, minus it when the turn passed; it reaches v when rel is at
	// least v - sd, or at most -v - sd. It is worth at most v.
	lo, hi := -seeds, seeds
	var gamma int
	if same {
		gamma = v - sd
		hi = gamma
	} else {
		gamma = -v - sd + 1
		lo = gamma - 1
	}
	t, _, err := sv.NullWindow(lim, q.Board, gamma)
	switch {
	case err != nil && !cutShort(err, ctx):
		return posValue{}, err
	case err != nil: // no time even for the test
	case same && t >= gamma:
		lo = gamma
	case same:
		hi = t
	case t < gamma:
		hi = lo
	default:
		lo = t
	}
	if err == nil && lo < hi {
		lo, hi, err = sv.BoardBoundsFrom(lim, q.Board, t, lo, hi)
		if err != nil && !cutShort(err, ctx) {
			return posValue{}, err
		}
	}
	src := "search"
	if err == nil && (same && t >= gamma || !same && t < gamma) {
		src = "test"
	}
	lo, hi = southRange(q, lo, hi)
	return posValue{lo: lo, hi: hi, source: src}, nil
}

// analyzeMove is one move's figures from the values before and after it.
func (k *Session) analyzeMove(lim, ctx context.Context, p engine.Position, pl engine.Ply, before, after posValue, th Thresholds, opt AnalyzeOptions) (MoveAnalysis, error) {
	_, res := k.rules.Sow(p.Board, pl.Pit)
	mv := MoveAnalysis{Side: pl.Side.String(), Move: engine.MoveLetter(pl.Side, pl.Pit), Pit: pl.Pit,
		Action: openspiel.Action(p.Pits, pl.Side, pl.Pit), Position: p.String(), ExtraTurn: res.Extra(),
		Before: before.lo, After: after.lo, BestValue: before.lo, Best: []string{}, Source: before.source}
	var lossLo, lossHi int
	if pl.Side == engine.South {
		lossLo, lossHi = before.lo-after.hi, before.hi-after.lo
	} else {
		lossLo, lossHi = after.lo-before.hi, after.hi-before.lo
	}
	lossLo, lossHi = max(lossLo, 0), max(lossHi, 0)
	mv.Loss, mv.Class = lossLo, th.Classify(lossLo)
	exact := before.lo == before.hi
	if !exact || after.lo != after.hi {
		mv.Bound = true
		mv.BeforeBounds = &Interval{before.lo, before.hi}
		mv.AfterBounds = &Interval{after.lo, after.hi}
		mv.LossBounds = &Interval{lossLo, lossHi}
	}
	if !exact {
		return mv, nil // no value to test the moves against
	}
	if before.rec != nil {
		mv.Best = append(mv.Best, before.rec.Best...)
		sort.Strings(mv.Best)
		return mv, nil
	}
	kept := lossHi == 0
	if kept && !opt.AllBest {
		mv.Best = []string{mv.Move}
		return mv, nil
	}
	v := before.lo // the mover's value
	if p.ToMove == engine.North {
		v = -v
	}
	played := 0 // not known
	switch {
	case kept:
		played = 1
	case lossLo > 0:
		played = -1
	}
	best, complete, err := k.bestMoves(lim, ctx, p, v, pl.Pit, played, opt)
	for _, i := range best {
		mv.Best = append(mv.Best, engine.MoveLetter(p.ToMove, i))
	}
	mv.Bound = mv.Bound || !complete
	return mv, err
}

// bestMoves lists moves of p that reach v (the mover's value, proven),
// in pit order: every one with opt.AllBest, else the first found (the
// table's move tried first). The move played is known to reach v when
// played is 1, known not to when -1. complete is false when lim ran out
// first.
func (k *Session) bestMoves(lim, ctx context.Context, p engine.Position, v, pit, played int, opt AnalyzeOptions) (best []int, complete bool, err error) {
	sv, err := k.build()
	if err != nil {
		return nil, false, err
	}
	order := solver.RootOrder(k.rules, p.Board)
	if m, ok := sv.TableMove(p.Board); ok {
		if j := slices.Index(order, m); j > 0 {
			order = append([]int{m}, slices.Delete(order, j, j+1)...)
		}
	}
	if played == 1 {
		best = append(best, pit)
	}
	for _, i := range order {
		if i == pit && played != 0 {
			continue
		}
		if !opt.AllBest && len(best) > 0 {
			break
		}
		ok, err := k.reaches(lim, sv, p, i, v)
		if err != nil {
			slices.Sort(best)
			if cutShort(err, ctx) {
				return best, false, nil
			}
			return best, false, err
		}
		if ok {
			best = append(best, i)
		}
	}
	slices.Sort(best)
	return best, true, nil
}

// reaches reports whether move i of p is worth at least v to its mover
// (values stores counted): known, or by one null-window test of the
// position after it.
func (k *Session) reaches(ctx context.Context, sv *solver.Solver, p engine.Position, i, v int) (bool, error) {
	q, _ := k.rules.PlayPosition(p, i)
	if pv, ok := k.known(q); ok {
		if p.ToMove == engine.North {
			return -pv.lo >= v, nil
		}
		return pv.lo >= v, nil
	}
	sd := q.Board.StoreDiff()
	if q.ToMove == p.ToMove {
		gamma := v - sd
		t, _, err := sv.NullWindow(ctx, q.Board, gamma)
		return t >= gamma, err
	}
	gamma := -v - sd + 1
	t, _, err := sv.NullWindow(ctx, q.Board, gamma)
	return t < gamma, err
}
