package kalah

import (
	"bytes"
	"context"
	"log"
	"os"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/egdbtest"
)

// TestRefreshEGDB: a session switches to a database deepened in its
// directory after it opened its own (RefreshEGDB), and only then: the
// next solve searches with the deeper one, in fewer nodes, to the same
// values; the old database's mappings are released. A damaged deeper
// slice is an error once, and the session keeps its database; a first
// database in a default directory that had none is taken up too.
func TestRefreshEGDB(t *testing.T) {
	ctx := context.Background()
	r := engine.Variant{Pits: 3, Rule: NoEmptyCapture}
	dir := t.TempDir()
	egdbtest.Build(t, dir, r, 2)
	var logs bytes.Buffer
	k, err := Open(Config{Pits: 3, Seeds: 3, Threads: 1, TableSize: 16 << 20, NoCache: true, EGDBDir: dir, Log: log.New(&logs, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	refresh := func(want bool) {
		t.Helper()
		if got, err := k.RefreshEGDB(); got != want || err != nil {
			t.Fatalf("RefreshEGDB: %v, %v; want %v, no error", got, err, want)
		}
	}
	refresh(false) // nothing opened yet: the first search opens the deepest there is

	ref, err := Open(Config{Pits: 3, Seeds: 3, Threads: 1, TableSize: 16 << 20, NoCache: true, NoEGDB: true})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Solve(ctx, ref.Start())
	ref.Close()
	if err != nil {
		t.Fatal(err)
	}
	same := func(got *Result, seeds int) {
		t.Helper()
		if got.Record.EGDBSeeds != seeds || k.EGDBSeeds() != seeds {
			t.Errorf("solved with a database of %d seeds, session's %d; want %d", got.Record.EGDBSeeds, k.EGDBSeeds(), seeds)
		}
		if got.Value != want.Value || len(got.Moves) != len(want.Moves) {
			t.Fatalf("value %+d, moves %v; want %+d, %v", got.Value, got.Moves, want.Value, want.Moves)
		}
		for i := range got.Moves {
			if got.Moves[i] != want.Moves[i] {
				t.Errorf("move %d: %+v, want %+v", i, got.Moves[i], want.Moves[i])
			}
		}
	}
	shallow, err := k.Solve(ctx, k.Start())
	if err != nil {
		t.Fatal(err)
	}
	same(shallow, 2)
	refresh(false)

	s2 := egdb.SlicePath(dir, r, 2)
	before := egdbtest.Mappings(s2)
	egdbtest.Build(t, dir, r, 12)
	refresh(true)
	if k.EGDBSeeds() != 12 {
		t.Errorf("EGDBSeeds %d after the switch, want 12", k.EGDBSeeds())
	}
	if !strings.Contains(logs.String(), "now 12 seeds (was 2 seeds)") {
		t.Errorf("log %q: no line for the switch", logs.String())
	}
	if before >= 0 {
		if after := egdbtest.Mappings(s2); before != 1 || after != 1 {
			t.Errorf("%s mapped %d times before the switch, %d after; want once each (the old database closed)", s2, before, after)
		}
	}
	refresh(false)
	deep, err := k.Solve(ctx, k.Start())
	if err != nil {
		t.Fatal(err)
	}
	same(deep, 12)
	if deep.Stats.Nodes >= shallow.Stats.Nodes {
		t.Errorf("%d nodes with the 12-seed database, %d with the 2-seed one: want fewer", deep.Stats.Nodes, shallow.Stats.Nodes)
	}

	// A damaged slice past the database: an error once, the database kept.
	bad := egdb.SlicePath(dir, r, 13)
	if err := os.WriteFile(bad, []byte("not a slice"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := k.RefreshEGDB(); got || err == nil {
		t.Errorf("RefreshEGDB with a damaged slice 13: %v, %v; want an error", got, err)
	}
	refresh(false) // the same files: no second error
	if k.EGDBSeeds() != 12 {
		t.Errorf("EGDBSeeds %d after a failed switch, want 12", k.EGDBSeeds())
	}
	if err := os.Remove(bad); err != nil {
		t.Fatal(err)
	}
	egdbtest.Build(t, dir, r, 14)
	refresh(true)
	res, err := k.Solve(ctx, k.Start())
	if err != nil {
		t.Fatal(err)
	}
	same(res, 14)

	// No database in the default directory, then one.
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	k2, err := Open(Config{Pits: 3, Seeds: 3, Threads: 1, TableSize: 16 << 20, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer k2.Close()
	if res, err := k2.Solve(ctx, k2.Start()); err != nil {
		t.Fatal(err)
	} else if res.Record.EGDBSeeds != -1 {
		t.Fatalf("solved with a database of %d seeds, want none", res.Record.EGDBSeeds)
	}
	def, err := egdb.DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	egdbtest.Build(t, def, r, 4)
	if got, err := k2.RefreshEGDB(); !got || err != nil || k2.EGDBSeeds() != 4 {
		t.Errorf("RefreshEGDB with a first database: %v, %v, database %d; want a switch to 4 seeds", got, err, k2.EGDBSeeds())
	}
	if res, err := k2.Solve(ctx, k2.Start()); err != nil {
		t.Fatal(err)
	} else if res.Record.EGDBSeeds != 4 || res.Value != want.Value {
		t.Errorf("with the first database: database %d, value %d; want 4 seeds, value %d", res.Record.EGDBSeeds, res.Value, want.Value)
	}
}
