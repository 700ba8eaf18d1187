package serve

import (
	"context"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// used is how full the open session's table is (a sample's estimate).
func used(t *testing.T, s *Server) int {
	t.Helper()
	if err := s.k.Ready(); err != nil {
		t.Fatal(err)
	}
	return s.k.TableUsed()
}

// TestWarm: Warm opens the game's session, which the next request uses
// with the exact values; warming the open session again keeps its table,
// and warming another game opens a fresh one.
func TestWarm(t *testing.T) {
	s, hs := newTestServer(t, Options{NoCache: true, NoPonder: true}) // nothing else may touch the table
	ctx := context.Background()
	w, err := s.Warm(ctx, 4, 3, engine.EmptyCapture)
	if err != nil {
		t.Fatal(err)
	}
	if w.TableSize != 16<<20 || w.EGDBSeeds != -1 {
		t.Errorf("warmed %+v, want a 16 MiB table and no database", w)
	}
	k := s.k
	r, _ := engine.NewVariant(4, engine.EmptyCapture)
	start, _ := r.StartPosition(3)
	var rep solveReply
	if code := fetchJSON(t, hs, "/api/solve?pits=4&seeds=3&rule=empty-capture", &rep); code != 200 {
		t.Fatalf("status %d", code)
	}
	checkSolve(t, &rep, reference(t, engine.EmptyCapture, start))
	if s.k != k {
		t.Error("the request opened a session of its own")
	}
	full := used(t, s)
	if full == 0 {
		t.Fatal("the solve left the table empty")
	}
	if _, err := s.Warm(ctx, 4, 3, engine.EmptyCapture); err != nil {
		t.Fatal(err)
	}
	if got := used(t, s); s.k != k || got != full {
		t.Errorf("warming the open session again: same session %v, table %d filled, want %d", s.k == k, got, full)
	}
	if _, err := s.Warm(ctx, 4, 3, engine.NoEmptyCapture); err != nil {
		t.Fatal(err)
	}
	if got := used(t, s); s.k == k || got != 0 {
		t.Errorf("warming another game: new session %v, table %d filled, want 0", s.k != k, got)
	}
}
