package solvecmd

import (
	"encoding/json"
	"fmt"

	"github.com/kalah-solver/kalah/engine"
)

// Root records. After a complete solve the whole record (value, every
// move's value, best moves, principal variation, what the solve cost and
// the build that made it) is saved in the store under the position, its
// stores and side to move. A later solve of the same position and rule
// prints it at once, marked from_store, unless --force.

// saveRoot saves the record of a complete solve.
func (s *session) saveRoot(j job, rec *record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return s.store.PutRoot(j.pos, b)
}

// fromStore returns the stored record of j's position, or nil when there
// is none or it does not hold up: the moves must be the position's legal
// moves, the best value the value, and the principal variation must replay
// legally to it.
func (s *session) fromStore(j job) *record {
	b, ok := s.store.GetRoot(j.pos)
	if !ok {
		return nil
	}
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		s.verbosef("ignoring the store's record of %v: %v", j.pos, err)
		return nil
	}
	if err := checkStored(j, &rec); err != nil {
		s.verbosef("ignoring the store's record of %v: %v", j.pos, err)
		return nil
	}
	rec.FromStore, rec.Store, rec.Seeds = true, s.store.Dir(), j.seeds
	return &rec
}

func checkStored(j job, rec *record) error {
	p := j.pos
	if rec.Position != p.String() || rec.ToMove != p.ToMove.String() || rec.Rule != j.rules.Capture.String() || !rec.Solved {
		return fmt.Errorf("it is for another position")
	}
	legal := p.Board.MoveList()
	if len(rec.Moves) != len(legal) {
		return fmt.Errorf("%d moves, the position has %d", len(rec.Moves), len(legal))
	}
	best := p.Board.StoreDiff()
	for k, m := range rec.Moves {
		if m.Pit != legal[k]+1 || m.Move != engine.MoveLetter(p.ToMove, legal[k]) {
			return fmt.Errorf("move %d is %s", k+1, m.Move)
		}
		if k == 0 || m.Value > best {
			best = m.Value
		}
	}
	if best != rec.Value {
		return fmt.Errorf("best move value %d, value %d", best, rec.Value)
	}
	line, err := j.rules.ParseLetters(p, rec.PV)
	if err != nil {
		return err
	}
	end, err := j.rules.PlayLine(p, line)
	if err != nil {
		return err
	}
	final := end.SouthDiff()
	if p.ToMove == engine.North {
		final = -final
	}
	if !end.Board.Over() || final != rec.Value || engine.FormatPaper(line) != rec.PVPaper {
		return fmt.Errorf("its principal variation does not reach the value")
	}
	return nil
}

// verbosef logs with --verbose.
func (s *session) verbosef(format string, a ...any) {
	if s.opts.Verbose {
		s.logf(format, a...)
	}
}
