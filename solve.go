package kalah

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// Result is the answer for one position.
type Result struct {
	Position engine.Position
	Variant  engine.Variant
	Value    int  // final store difference for the side to move under perfect play, stores counted
	Lower    int  // proven bounds: equal to Value when Solved
	Upper    int  //
	Solved   bool // false when the search was interrupted first
	// Moves holds every legal move's value in pit order (empty for a
	// value-only answer, see BestMove).
	Moves []solver.MoveValue
	Best  []int        // 0-based pits of the best moves (one for BestMove)
	PV    []engine.Ply // a principal variation to the end of the game
	// FromCache says the answer is the cache's root record of
	// an earlier solve: no search ran, and Record's cost fields are those
	// of the solve that made it.
	FromCache bool
	// FromBook says that root record came from the opening book built
	// into the binary (package book), not the cache; FromCache is set too.
	FromBook bool
	Stats    solver.Stats // this search's counters (zero when FromCache)
	// Resumed says the search started from the checkpoint of an
	// interrupted solve of the same position: the table it had then.
	Resumed bool
	Elapsed time.Duration
	// Record is the answer as a result record: every field above in the
	// form 'kalah solve --json' prints, plus how it was computed.
	Record *results.Record
}

// Solve computes the exact value of p, every legal move's value, the best
// moves and a principal variation: from the cache's root record
// when it holds one (unless Config.Recompute), else by a search whose
// answer is then saved as a root record. When ctx ends first it returns
// the bounds proven so far with an error wrapping solver.ErrInterrupted;
// everything proven is kept in the table and, at Close, in the cache.
func (k *Session) Solve(ctx context.Context, p engine.Position) (*Result, error) {
	return k.solve(ctx, p, false)
}

// BestMove computes the exact value of p, one best move and a principal
// variation, but not every move's value: a fraction of Solve's cost. A
// root record of an earlier Solve answers it too.
func (k *Session) BestMove(ctx context.Context, p engine.Position) (*Result, error) {
	return k.solve(ctx, p, true)
}

// Value is the exact value of p: the final store difference for the side
// to move under perfect play, stores counted.
func (k *Session) Value(ctx context.Context, p engine.Position) (int, error) {
	if err := k.check(p); err != nil {
		return 0, err
	}
	if p.Board.Over() {
		return p.Board.StoreDiff(), nil
	}
	if rec, _ := k.answered(p); rec != nil {
		return rec.Value, nil
	}
	sv, err := k.build()
	if err != nil {
		return 0, err
	}
	v, err := sv.BoardValue(ctx, p.Board)
	return p.Board.StoreDiff() + v, err
}

// SouthValue is the value of p for South: South's final store minus
// North's under perfect play.
func (k *Session) SouthValue(ctx context.Context, p engine.Position) (int, error) {
	v, err := k.Value(ctx, p)
	if p.ToMove == engine.North {
		v = -v
	}
	return v, err
}

func (k *Session) check(p engine.Position) error {
	if p.Pits != k.rules.Pits {
		return fmt.Errorf("the position has %d pits a side; the session is for %d", p.Pits, k.rules.Pits)
	}
	return nil
}

func (k *Session) solve(ctx context.Context, p engine.Position, valueOnly bool) (*Result, error) {
	if err := k.check(p); err != nil {
		return nil, err
	}
	if !k.cfg.Recompute {
		if rec, fromBook := k.answered(p); rec != nil {
			res, err := k.fromRecord(p, rec)
			if res != nil {
				res.FromBook = fromBook
			}
			return res, err
		}
	}
	if err := k.autoEGDB(ctx, p.Board.Seeds()); err != nil {
		return nil, err
	}
	sv, err := k.build()
	if err != nil {
		return nil, err
	}
	search := sv.SolveEveryMove
	if valueOnly {
		search = sv.SolveBestMove
	}
	// The table starts with the checkpoint of an interrupted solve of p,
	// if the cache holds one, and is checkpointed while the search runs.
	k.nodes.Store(0)
	ck := k.resume(p, sv.Table(), k.nodes.Load)
	sr, err := search(ctx, p)
	if err != nil {
		ck.finish(false) // a last checkpoint
	}
	if sr == nil {
		return nil, err
	}
	if err != nil && !errors.Is(err, solver.ErrInterrupted) {
		return nil, err
	}
	res := &Result{Position: p, Variant: k.rules, Value: sr.Value, Lower: sr.Lower, Upper: sr.Upper, Solved: sr.Solved,
		Moves: sr.Moves, Best: sr.Best, PV: sr.PV, Stats: sr.Stats, Elapsed: sr.Elapsed, Resumed: k.resumed}
	res.Record = k.record(res)
	if err != nil {
		return res, err
	}
	// A root record holds every move's value: a value-only answer is not
	// one, nor an interrupted one. Once the answer is saved, the
	// checkpoints of its solve are of no more use.
	if !valueOnly && k.cache != nil {
		if perr := k.saveRoot(p, res.Record); perr != nil {
			ck.finish(false)
			return res, perr
		}
	}
	return res, ck.finish(true)
}

// record writes a search's answer as a result record.
func (k *Session) record(res *Result) *results.Record {
	p := res.Position
	rec := &results.Record{
		Rule:       k.rules.Rule.String(),
		Pits:       p.Pits,
		Position:   p.String(),
		ToMove:     p.ToMove.String(),
		Value:      res.Value,
		Moves:      []results.MoveValue{},
		Best:       []string{},
		Nodes:      res.Stats.Nodes,
		Seconds:    math.Round(res.Elapsed.Seconds()*1000) / 1000,
		Threads:    k.sv.Threads(),
		TableSize:  k.sv.Table().Bytes(),
		EGDBSeeds:  k.sv.EGDBSeeds(),
		CacheHits:  res.Stats.CacheHits,
		StoreHits:  res.Stats.CacheHits,
		Date:       time.Now().UTC().Format("2006-01-02"),
		Provenance: results.Current(),
	}
	if start, err := k.rules.StartPosition(k.cfg.Seeds); err == nil && start == p {
		rec.Seeds = k.cfg.Seeds
	}
	if res.Solved {
		rec.Result = results.Outcome(res.Value)
	} else {
		lo, hi := res.Lower, res.Upper
		rec.Lower, rec.Upper = &lo, &hi
	}
	for _, m := range res.Moves {
		mv := results.MoveValue{Move: m.Move, Pit: m.Pit, Value: m.Value, ExtraTurn: m.Extra}
		if !m.Solved {
			lo, hi := m.Lower, m.Upper
			mv.Lower, mv.Upper = &lo, &hi
		}
		rec.Moves = append(rec.Moves, mv)
	}
	for _, i := range res.Best {
		rec.Best = append(rec.Best, engine.MoveLetter(p.ToMove, i))
	}
	rec.PV, rec.PVLetters = engine.FormatPaper(res.PV), engine.FormatLetters(res.PV)
	return rec
}

// Root records. After a complete solve the whole record is saved in the
// cache under the position, its stores and side to move; a later solve of
// the same position and rule answers from it, after checking that it holds
// up.

func (k *Session) saveRoot(p engine.Position, rec *results.Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return k.cache.PutRoot(p, b)
}

// fromCache returns the cache's record of p, or nil when there is none or
// it does not hold up (CheckPosition).
func (k *Session) fromCache(p engine.Position) *results.Record {
	return k.cacheRecord(k.rules, p)
}

// fromRecord turns a cached record back into a Result.
func (k *Session) fromRecord(p engine.Position, rec *results.Record) (*Result, error) {
	res, err := resultOf(k.rules, p, rec)
	if err != nil {
		return nil, err
	}
	if start, err := k.rules.StartPosition(k.cfg.Seeds); err == nil && start == p {
		rec.Seeds = k.cfg.Seeds
	}
	return res, nil
}

func (k *Session) logf(format string, a ...any) {
	if k.cfg.Log != nil {
		k.cfg.Log.Printf(format, a...)
	}
}
