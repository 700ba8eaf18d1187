package kalah

import (
	"context"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
)

// TestDeepenDepth: the deepest database within the cap for each board,
// no deeper than asked nor than the game's seeds.
func TestDeepenDepth(t *testing.T) {
	for _, c := range []struct{ m, n, seeds, want int }{
		{6, 4, 28, 28}, {6, 4, 40, 28}, {6, 4, 24, 24}, {6, 2, 28, 24}, {8, 4, 28, 19}, {7, 4, 28, 22},
	} {
		k, err := Open(Config{Pits: c.m, Seeds: c.n, NoCache: true, NoEGDB: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := k.DeepenDepth(c.seeds); got != c.want {
			t.Errorf("Kalah(%d,%d).DeepenDepth(%d) = %d, want %d", c.m, c.n, c.seeds, got, c.want)
		}
		k.Close()
	}
}

// TestDeepenEGDB: with the default database of a tiny depth built, a
// deepening writes the deeper slices while the session keeps its
// database, reports the build as a background one, and the session
// searches with the deeper database from RefreshEGDB on, with values
// equal to the brute-force reference's; a second deepening builds nothing.
func TestDeepenEGDB(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	var mu sync.Mutex
	var events []EGDBBuild
	cfg := Config{Pits: 3, Seeds: 3, Threads: 1, NoCache: true, AutoEGDB: true, AutoEGDBSeeds: 4,
		OnEGDBBuild: func(ev EGDBBuild) { mu.Lock(); events = append(events, ev); mu.Unlock() }}
	k, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if err := k.PrepareEGDB(context.Background()); err != nil || k.EGDBSeeds() != 4 {
		t.Fatalf("the default database: %d seeds, %v", k.EGDBSeeds(), err)
	}
	mu.Lock()
	events = nil
	mu.Unlock()
	// Deepened in another goroutine while the session searches.
	done := make(chan error, 1)
	go func() {
		built, err := k.DeepenEGDB(context.Background(), 9)
		if !built && err == nil {
			t.Error("DeepenEGDB built nothing")
		}
		done <- err
	}()
	start := k.Start()
	if _, err := k.Solve(context.Background(), start); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if n := len(events); n < 2 || !events[0].Background || events[0].MaxSeeds != 9 || !events[n-1].Finished || events[n-1].Err != nil {
		t.Errorf("events %+v: want a background build to 9 seeds, finished", events)
	}
	mu.Unlock()
	dir, _ := egdb.DefaultDir()
	if m := egdb.Missing(dir, k.rules, 9); len(m) != 0 {
		t.Errorf("slices %v missing after the deepening", m)
	}
	if k.EGDBSeeds() != 4 {
		t.Errorf("before RefreshEGDB the session searches with %d seeds, want 4", k.EGDBSeeds())
	}
	if switched, err := k.RefreshEGDB(); !switched || err != nil || k.EGDBSeeds() != 9 {
		t.Fatalf("RefreshEGDB: %v, %v, %d seeds; want the 9-seed database", switched, err, k.EGDBSeeds())
	}
	rr := reference.Rules{Pits: 3}
	ref := reference.NewSolver(rr, 0)
	// Every position a few plies from the start, with the deeper database.
	seen := map[engine.Position]bool{}
	var walk func(p engine.Position, depth int)
	walk = func(p engine.Position, depth int) {
		if seen[p] || p.Board.Over() || depth == 0 {
			return
		}
		seen[p] = true
		res, err := k.Value(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		h := p.Holes()
		want := h[3] - h[7] + ref.Value(rr.Game(h, p.ToMove == engine.North))
		if p.ToMove == engine.North {
			want = h[7] - h[3] + ref.Value(rr.Game(h, true))
		}
		if res != want {
			t.Errorf("%v %v: value %d, reference %d", p, p.ToMove, res, want)
		}
		for _, i := range p.Board.MoveList() {
			q, _ := k.rules.PlayPosition(p, i)
			walk(q, depth-1)
		}
	}
	walk(start, 4)
	if built, err := k.DeepenEGDB(context.Background(), 9); built || err != nil {
		t.Errorf("a second deepening: built %v, %v; want nothing", built, err)
	}
	// Off where the session does not build its database.
	k2, err := Open(Config{Pits: 3, Seeds: 3, NoCache: true, AutoEGDBSeeds: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer k2.Close()
	if built, err := k2.DeepenEGDB(context.Background(), 12); built || err != nil {
		t.Errorf("without AutoEGDB: built %v, %v", built, err)
	}
}
