package serve

import (
	"context"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/book"
	"github.com/kalah-solver/kalah/engine"
)

// TestBookWithoutSession: a position of the built-in opening book is
// answered at once, before the server has opened any session (no
// database, no table), never waiting in line: the start of Kalah(6,4)
// and the positions after its first moves, under both rules.
func TestBookWithoutSession(t *testing.T) {
	s, hs := startServer(t, Options{CacheDir: t.TempDir(), NoEGDB: true, NoPonder: true, TableBytes: 16 << 20, Threads: 1, MaxQueue: 1})
	b, err := book.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	c := loadClient(1)
	for _, rule := range []engine.Capture{engine.NoEmptyCapture, engine.EmptyCapture} {
		r := engine.Rules{Pits: 6, Capture: rule}
		start, err := r.StartPosition(4)
		if err != nil {
			t.Fatal(err)
		}
		ps := []engine.Position{start}
		for m := 0; m < 6; m++ {
			if start.Board.Moves()&(1<<m) == 0 {
				continue
			}
			child, _ := r.PlayPosition(start, m)
			if !child.Board.Over() {
				ps = append(ps, child)
			}
		}
		for _, p := range ps {
			want, ok := b.Lookup(r, p)
			if !ok {
				t.Fatalf("%v %v: not in the built-in book", rule, p)
			}
			// Without the book this would be a search of minutes.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			code, rep, err := ask(ctx, c, hs, rule, p)
			cancel()
			if code != 200 {
				t.Fatalf("%v %v: status %d: %v", rule, p, code, err)
			}
			if !rep.FromBook || !rep.FromCache || rep.Value != want.Value || len(rep.Moves) != len(want.Moves) {
				t.Errorf("%v %v: from_book %v, from_cache %v, value %d with %d moves; the book says %d with %d", rule, p, rep.FromBook, rep.FromCache, rep.Value, len(rep.Moves), want.Value, len(want.Moves))
			}
		}
	}
	s.smu.RLock()
	opened := s.k != nil
	s.smu.RUnlock()
	if opened {
		t.Error("answering from the book opened a session")
	}
}
