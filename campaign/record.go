package campaign

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
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
// provenance names the code that computed it. It returns the open
// record, or nil when the complete one was written.
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
	return &o, archive.PutOpen(o)
}

// openRecord is the status as an open cell.
func (st *Status) openRecord() results.Open {
	p := st.Params
	total := 2 * p.Pits * p.Seeds
	clamp := func(v int) int { return min(max(v, -total), total) }
	o := results.Open{Rule: p.Rule, Pits: p.Pits, Seeds: p.Seeds, Lower: clamp(st.Lower), Upper: clamp(st.Upper),
		Stage: "value", Reason: "campaign " + st.State, Runs: max(st.Runs, 1), Nodes: st.Nodes + st.CoordinatorNodes,
		Seconds: st.Seconds, EGDBSeeds: p.EGDBSeeds, Store: true, Date: time.Now().UTC().Format("2006-01-02"),
		Campaign: p.Name, Provenance: results.Current()}
	if o.Lower == o.Upper {
		o.Stage = "openings"
	}
	for _, w := range st.Workers {
		o.Threads += w.Threads
		o.TTBytes = max(o.TTBytes, w.TTBytes)
	}
	o.Threads = max(o.Threads, 1)
	for _, m := range st.Moves {
		o.Moves = append(o.Moves, results.MoveBounds{Move: m.Move, Lower: clamp(m.Lower), Upper: clamp(m.Upper)})
	}
	slices.SortFunc(o.Moves, func(a, b results.MoveBounds) int { return strings.Compare(a.Move, b.Move) })
	return o
}
