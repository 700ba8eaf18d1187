package campaign

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// TestRecord: a campaign stopped early is recorded as an open cell whose
// bounds, on the value and on every first move, hold the local solver's
// values; recorded again after it finished, the cell has the exact value
// and every first move's, and stays open at the stage "openings" (a
// campaign does not compute the opening chains a complete record has). A
// position's campaign is not recorded.
func TestRecord(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(2, nil)
	defer stop()
	r := engine.Variant{Pits: 5, Rule: engine.NoEmptyCapture}
	p := params(t, "rec53", r, 3, "", engine.South)
	e.stopAfterFirstAnswer(p)

	// The reference: the local solver's value of the cell and of each move.
	want := reference(t, p)

	archive := results.Archive{Dir: t.TempDir()}
	o, err := Record(context.Background(), e.c, p.Name, archive)
	if err != nil || o == nil {
		t.Fatalf("recording a stopped campaign: %v %v", o, err)
	}
	holds := func(o *results.Open, exact bool) {
		t.Helper()
		if o.Lower > want.Value || o.Upper < want.Value || len(o.Moves) != len(want.Record.Moves) || o.Campaign != p.Name ||
			exact && o.Lower != o.Upper {
			t.Fatalf("open record %+v does not hold the value %d and the moves %v", o, want.Value, want.Record.Moves)
		}
		for i, m := range o.Moves {
			w := want.Record.Moves[i]
			if m.Move != w.Move || m.Lower > w.Value || m.Upper < w.Value || exact && m.Lower != m.Upper {
				t.Errorf("move %s bounds %d..%d, value %s %d", m.Move, m.Lower, m.Upper, w.Move, w.Value)
			}
		}
	}
	holds(o, false)
	// Recorded twice: the counts are replaced, not added.
	if _, err := Record(context.Background(), e.c, p.Name, archive); err != nil {
		t.Fatal(err)
	}
	if open, err := archive.LoadOpen(); err != nil || len(open) != 1 || open[0].Runs != o.Runs || open[0].Nodes != o.Nodes {
		t.Fatalf("after recording twice: %+v %v, want one cell of %d runs, %d nodes", open, err, o.Runs, o.Nodes)
	}

	// Finished: the complete record replaces the open cell.
	if _, err := e.coordinate(context.Background(), p, CoordinatorConfig{}); err != nil {
		t.Fatal(err)
	}
	o, err = Record(context.Background(), e.c, p.Name, archive)
	if err != nil || o == nil || o.Stage != "openings" {
		t.Fatalf("recording the finished campaign: %+v %v", o, err)
	}
	holds(o, true)
	if open, _ := archive.LoadOpen(); len(open) != 1 || open[0].Lower != want.Value || open[0].Upper != want.Value {
		t.Errorf("open cells after the campaign finished: %+v", open)
	}

	// A cell solved in the archive is not written again: the campaign's
	// bounds are checked against its record.
	solved := *want.Record
	solved.Seeds = 3 // a position's solve: the cell's start
	if err := archive.Put(solved); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(context.Background(), e.c, p.Name, archive); !errors.Is(err, ErrSolved) {
		t.Errorf("recording a campaign of a solved cell: %v, want ErrSolved", err)
	}
	wrong := solved
	wrong.Moves = slices.Clone(wrong.Moves)
	wrong.Moves[0].Value++
	if err := archive.Put(wrong); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(context.Background(), e.c, p.Name, archive); err == nil || errors.Is(err, ErrSolved) || !strings.Contains(err.Error(), "contradict") {
		t.Errorf("recording against a record that disagrees: %v", err)
	}

	// A campaign that has proven nothing yet is not written.
	none := params(t, "rec-none", engine.Variant{Pits: 5, Rule: engine.EmptyCapture}, 3, "", engine.South)
	if err := Create(context.Background(), e.c, none); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(context.Background(), e.c, none.Name, archive); err == nil || !strings.Contains(err.Error(), "proven nothing") {
		t.Errorf("recording a campaign that proved nothing: %v", err)
	}
	// Its status says so: the whole range, not the zeros of an empty status.
	if st, err := Info(context.Background(), e.c, none.Name); err != nil || st.Lower != -30 || st.Upper != 30 {
		t.Errorf("a created campaign's bounds: %v %v, want -30..30", st, err)
	}

	// A position's campaign is refused.
	q := params(t, "recpos", r, 0, "4,4,4,4,0,1,3,3,3,3,3,1", engine.South)
	if err := Create(context.Background(), e.c, q); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(context.Background(), e.c, q.Name, archive); err == nil || !strings.Contains(err.Error(), "not the start") {
		t.Errorf("recording a position's campaign: %v", err)
	}
}
