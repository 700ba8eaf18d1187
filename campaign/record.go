package campaign

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kalah-solver/kalah/results"
)

// Record writes what a campaign of a start position has proven to the
// results archive: the complete record (results.Archive.Put) when it is
// done and complete (Record.Check: the opening chains, which a campaign
// does not compute, are part of a complete record), else an open cell
// (results.Archive.PutOpen) with the bounds proven on the value and on
// each root move, its nodes and time over all its runs and how it was
// made. Only the build that runs the campaign may record it, so that the
// provenance names the code that computed it. A cell the archive has
// solved already is not written: the campaign's bounds are checked
// against its record instead (ErrSolved when they agree); nor is a
// campaign that has proven nothing yet. It returns the open record, or
// nil when the complete one was written.
func Record(ctx context.Context, c *Conn, name string, archive results.Archive) (*results.Open, error) {
	st, err := Info(ctx, c, name)
	if err != nil {
		return nil, err
	}
	p := st.Params
	if p.Seeds < 1 {
		return nil, fmt.Errorf("campaign %s solves a position (%s), not the start of a Kalah(m,n) cell: only cells are recorded", name, p.Position)
	}
	if cur := CurrentBuild(); p.Build != cur {
		return nil, fmt.Errorf("campaign %s is computed by build %q; this is build %q: record it with the build that computes it", name, p.Build, cur)
	}
	rec, err := LoadRecord(ctx, c, name)
	if err == nil && rec.Check() == nil {
		return nil, archive.Put(*rec)
	}
	if err != nil && !errors.Is(err, ErrNotDone) {
		return nil, err
	}
	o := st.openRecord()
	if err := o.Check(); err != nil {
		return nil, err
	}
	if !o.Proves() {
		return nil, fmt.Errorf("campaign %s has proven nothing yet (every bound is the whole range of %s): nothing written", name, o.Name())
	}
	if done, err := archive.Get(p.Rule, p.Pits, p.Seeds); err != nil {
		return nil, err
	} else if done != nil {
		return &o, agrees(&o, done)
	}
	return &o, archive.PutOpen(o)
}

// ErrSolved says that the archive holds the cell's complete record
// already, and the campaign's bounds agree with it: nothing is written.
var ErrSolved = errors.New("solved in the archive already")

// agrees checks the campaign's bounds against the archive's complete
// record of the cell: ErrSolved when they hold its values, an error
// naming the first contradiction otherwise.
func agrees(o *results.Open, rec *results.Record) error {
	if rec.Value < o.Lower || rec.Value > o.Upper {
		return fmt.Errorf("%s: the campaign proves %s, the archive's record says %s: they contradict each other", o.Name(), o.Bounds(), results.Signed(rec.Value))
	}
	for _, m := range o.Moves {
		for _, v := range rec.Moves {
			if v.Move == m.Move && (v.Value < m.Lower || v.Value > m.Upper) {
				return fmt.Errorf("%s: the campaign proves move %s in %d..%d, the archive's record says %s: they contradict each other", o.Name(), m.Move, m.Lower, m.Upper, results.Signed(v.Value))
			}
		}
	}
	return fmt.Errorf("%s: %w (value %s; the campaign's bounds agree with it, nothing written)", o.Name(), ErrSolved, results.Signed(rec.Value))
}

// openRecord is the status as an open cell.
func (st *Status) openRecord() results.Open {
	p := st.Params
	total := 2 * p.Pits * p.Seeds
	clamp := func(v int) int { return min(max(v, -total), total) }
	// The status starts at the whole range and then holds the best move's
	// bounds (setMove); the campaign's build, which Record requires, wrote it.
	o := results.Open{Rule: p.Rule, Pits: p.Pits, Seeds: p.Seeds, Lower: clamp(st.Lower), Upper: clamp(st.Upper),
		Stage: "value", Reason: "campaign " + st.State, Runs: max(st.Runs, 1), Nodes: st.Nodes + st.CoordinatorNodes,
		Seconds: st.Seconds, EGDBSeeds: p.EGDBSeeds, Cache: true, Date: time.Now().UTC().Format("2006-01-02"),
		Campaign: p.Name, Provenance: results.Current()}
	if o.Lower == o.Upper {
		o.Stage = "openings"
	}
	for _, w := range st.Workers {
		o.Threads += w.Threads
		o.TableSize = max(o.TableSize, w.TableSize)
	}
	o.Threads = max(o.Threads, 1)
	for _, m := range st.Moves {
		o.Moves = append(o.Moves, results.MoveBounds{Move: m.Move, Lower: clamp(m.Lower), Upper: clamp(m.Upper)})
	}
	results.SortMoves(o.Moves)
	return o
}
