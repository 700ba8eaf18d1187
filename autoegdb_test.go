package kalah

import (
	"context"
	"errors"
	"testing"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
)

func TestAutoEGDBSeeds(t *testing.T) {
	// The deepest database of at most 2.5*10^8 positions: C(s+2m, 2m) of them.
	for _, c := range []struct{ m, want int }{{6, 20}, {7, 16}, {8, 14}, {5, 25}} {
		if got := AutoEGDBSeeds(c.m); got != c.want {
			t.Errorf("AutoEGDBSeeds(%d) = %d, want %d", c.m, got, c.want)
		}
	}
}

// TestAutoEGDB: a session with AutoEGDB builds the default database before
// its first search of a big enough board, reports the build, gets the same
// answer as without a database, and leaves the database for the next
// session, which builds nothing. A cancelled build is an error and keeps
// its finished slices.
func TestAutoEGDB(t *testing.T) {
	saved := autoEGDBPositions
	autoEGDBPositions = 5000 // four pits: slices 0..6 (3003 positions)
	defer func() { autoEGDBPositions = saved }()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	rules := engine.Variant{Pits: 4, Rule: NoEmptyCapture}
	if d := AutoEGDBSeeds(4); d != 6 {
		t.Fatalf("AutoEGDBSeeds(4) = %d with the test's cap, want 6", d)
	}

	// Cancelled at once: an error, nothing half-written.
	var events []EGDBBuild
	cfg := Config{Pits: 4, Seeds: 2, Threads: 1, NoCache: true, AutoEGDB: true,
		OnEGDBBuild: func(ev EGDBBuild) { events = append(events, ev) }}
	k, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := k.Solve(ctx, k.Start()); err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled build: err %v, want context.Canceled", err)
	}
	k.Close()
	if n := len(events); n == 0 || !events[n-1].Finished || events[n-1].Err == nil {
		t.Errorf("cancelled build: events %+v, want a failed end", events)
	}

	events = nil
	k, err = Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got, err := k.Solve(context.Background(), k.Start())
	if err != nil {
		t.Fatal(err)
	}
	k.Close()
	if len(events) < 2 || events[0].Done != 0 || events[0].MaxSeeds != 6 || events[0].Positions == 0 {
		t.Fatalf("events %+v: want a start with slices 0..6", events)
	}
	last := events[len(events)-1]
	if !last.Finished || last.Err != nil || last.Done != last.Positions {
		t.Errorf("last event %+v: want a finished build", last)
	}
	dir, _ := egdb.DefaultDir()
	if m := egdb.Missing(dir, rules, 6); len(m) != 0 {
		t.Errorf("slices %v missing after the build", m)
	}
	if got.Record.EGDBSeeds != 6 {
		t.Errorf("the solve used a database of %d seeds, want 6", got.Record.EGDBSeeds)
	}

	// The same answer without any database.
	ref, err := Open(Config{Pits: 4, Seeds: 2, Threads: 1, NoCache: true, NoEGDB: true})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Solve(context.Background(), ref.Start())
	ref.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got.Value != want.Value || len(got.Moves) != len(want.Moves) {
		t.Fatalf("with the built database %+d %v, without %+d %v", got.Value, got.Moves, want.Value, want.Moves)
	}
	for i := range got.Moves {
		if got.Moves[i] != want.Moves[i] {
			t.Errorf("move %d: %+v with the database, %+v without", i, got.Moves[i], want.Moves[i])
		}
	}

	// The next session finds it; a small board and a named directory never build.
	for _, c := range []Config{cfg, {Pits: 4, Seeds: 1, Threads: 1, NoCache: true, AutoEGDB: true},
		{Pits: 5, Seeds: 2, Threads: 1, NoCache: true, AutoEGDB: true, EGDBDir: t.TempDir()}} {
		events = nil
		c.OnEGDBBuild = cfg.OnEGDBBuild
		k, err := Open(c)
		if err != nil {
			t.Fatal(err)
		}
		_, err = k.Solve(context.Background(), k.Start())
		k.Close()
		if c.EGDBDir != "" {
			if err == nil {
				t.Errorf("Kalah(%d,%d) with an empty --egdb directory: no error", c.Pits, c.Seeds)
			}
		} else if err != nil {
			t.Fatal(err)
		}
		if len(events) != 0 {
			t.Errorf("Kalah(%d,%d) %q: %d build events, want none", c.Pits, c.Seeds, c.EGDBDir, len(events))
		}
	}
}

// TestPrepareEGDB: PrepareEGDB builds the database of Config.AutoEGDBSeeds
// before any search and opens it; the next session opens it at once.
func TestPrepareEGDB(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	for round := 0; round < 2; round++ {
		var events []EGDBBuild
		k, err := Open(Config{Pits: 4, Seeds: 3, Threads: 1, NoCache: true, AutoEGDB: true, AutoEGDBSeeds: 4,
			OnEGDBBuild: func(ev EGDBBuild) { events = append(events, ev) }})
		if err != nil {
			t.Fatal(err)
		}
		if d := k.AutoEGDBDepth(); d != 4 {
			t.Errorf("AutoEGDBDepth %d, want 4", d)
		}
		if err := k.PrepareEGDB(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := k.EGDBSeeds(); got != 4 {
			t.Errorf("round %d: EGDBSeeds %d after PrepareEGDB, want 4", round, got)
		}
		if built := len(events) > 0; built != (round == 0) {
			t.Errorf("round %d: build events %+v", round, events)
		}
		k.Close()
	}
}

// TestAutoEGDBThreshold: the database is built before the first search of
// a board of at least twice its seeds, not of one seed fewer.
func TestAutoEGDBThreshold(t *testing.T) {
	saved := autoEGDBPositions
	autoEGDBPositions = 5000 // four pits: slices 0..6
	defer func() { autoEGDBPositions = saved }()
	for _, c := range []struct {
		board string
		build bool
	}{
		{"2,1,1,1,0,2,1,1,2,0", false}, // 11 seeds on the board
		{"2,1,1,1,0,2,1,1,3,0", true},  // 12
	} {
		t.Setenv("XDG_DATA_HOME", t.TempDir())
		built := false
		k, err := Open(Config{Pits: 4, Threads: 1, NoCache: true, AutoEGDB: true,
			OnEGDBBuild: func(EGDBBuild) { built = true }})
		if err != nil {
			t.Fatal(err)
		}
		p, err := engine.ParsePosition(c.board, engine.South)
		if err != nil {
			t.Fatal(err)
		}
		_, err = k.Solve(context.Background(), p)
		k.Close()
		if err != nil {
			t.Fatal(err)
		}
		if built != c.build {
			t.Errorf("%s: built %v, want %v", c.board, built, c.build)
		}
	}
}
