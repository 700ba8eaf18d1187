package serve

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/book"
	"github.com/kalah-solver/kalah/engine"
)

// TestLookAhead answers a position and checks that the look-ahead then
// solves the position after each of its moves into the cache: each is
// then answered from the cache, with the values of an independent solve.
// With NoPonder nothing is looked ahead.
func TestLookAhead(t *testing.T) {
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	for _, off := range []bool{false, true} {
		ended := make(chan int, 4)
		_, hs := newTestServer(t, Options{NoPonder: off, ponderEnded: func(n int) { ended <- n }})
		var rep solveReply
		if code := fetchJSON(t, hs, "/api/solve?"+query(r.Rule, start), &rep); code != 200 {
			t.Fatalf("status %d", code)
		}
		next := aheadOf(r, start, &rep.Record, "")
		if len(next) != len(start.Board.MoveList()) {
			t.Fatalf("%d positions ahead, want one a move (%d)", len(next), len(start.Board.MoveList()))
		}
		if !off {
			select {
			case n := <-ended:
				if n != len(next) {
					t.Fatalf("the look-ahead solved %d positions, want %d", n, len(next))
				}
			case <-time.After(2 * time.Minute):
				t.Fatal("no end of the look-ahead in 2 minutes")
			}
		}
		for _, q := range next {
			var rep solveReply
			if code := fetchJSON(t, hs, "/api/solve?"+query(r.Rule, q), &rep); code != 200 {
				t.Fatalf("status %d", code)
			}
			checkSolve(t, &rep, reference(t, r.Rule, q))
			if rep.FromCache == off {
				t.Errorf("look-ahead off %v: %s %s from the cache %v", off, q, q.ToMove, rep.FromCache)
			}
		}
		if off && len(ended) > 0 {
			t.Errorf("look-ahead off, but one ran")
		}
	}
}

// TestLookAheadOrder: the computer's choice first, then the best moves
// first, ties by pit; moves that end the game are left out.
func TestLookAheadOrder(t *testing.T) {
	r, _ := engine.NewVariant(3, engine.NoEmptyCapture)
	// South to move: a (1 seed) and c (3 seeds) are legal; the position
	// after each is what the page asks for next.
	p, err := engine.ParsePosition("1,0,3,0,2,0,1,0", engine.South)
	if err != nil {
		t.Fatal(err)
	}
	want := reference(t, r.Rule, p)
	best, other := want.Record.Moves[0], want.Record.Moves[1]
	if other.Value > best.Value {
		best, other = other, best
	}
	after := func(m string) engine.Position {
		i, err := engine.ParseMove(p, m)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := r.PlayPosition(p, i)
		return q
	}
	for _, c := range []struct {
		first string
		want  []string
	}{{"", []string{best.Move, other.Move}}, {other.Move, []string{other.Move, best.Move}}} {
		got := aheadOf(r, p, want.Record, c.first)
		if len(got) != len(c.want) {
			t.Fatalf("first %q: %d positions, want %d", c.first, len(got), len(c.want))
		}
		for i, m := range c.want {
			if got[i] != after(m) {
				t.Errorf("first %q: position %d is %s %s, want the one after %s", c.first, i, got[i], got[i].ToMove, m)
			}
		}
	}
}

// TestLookAheadYields: a request that comes while the look-ahead solves a
// long position stops it and is answered, without waiting for the
// look-ahead's limit (three minutes here; the request gives up after two),
// also on a server where no request may wait (MaxQueue < 0).
func TestLookAheadYields(t *testing.T) {
	for _, q := range []int{0, -1} {
		t.Run(fmt.Sprintf("queue %d", q), func(t *testing.T) { lookAheadYields(t, q) })
	}
}

func lookAheadYields(t *testing.T, maxQueue int) {
	started, ended := make(chan engine.Position, 16), make(chan int, 4)
	s, hs := newTestServer(t, Options{PonderLimit: 3 * time.Minute, MaxQueue: maxQueue,
		ponderStarted: func(q engine.Position) { started <- q },
		ponderEnded:   func(n int) { ended <- n }})
	// Kalah(6,4) at the last ply of the built-in opening book, no
	// database, one thread, a 16 MiB table: each position after it that
	// the book does not hold takes far longer than this test.
	r, _ := engine.NewVariant(6, engine.NoEmptyCapture)
	p, _ := r.StartPosition(4)
	bk, _ := book.Embedded()
	if f := bk.File(r, 4); f != nil {
		for range f.Plies {
			p, _ = r.PlayPosition(p, p.Board.MoveList()[0])
		}
	}
	// The test starts the look-ahead of p itself, as the handler would
	// after answering p (which would take minutes here).
	var next []engine.Position
	for _, i := range p.Board.MoveList() {
		if q, res := r.PlayPosition(p, i); !res.Over() {
			if _, inBook := bk.Lookup(r, q); !inBook {
				next = append(next, q)
			}
		}
	}
	if len(next) == 0 {
		t.Fatal("every position after p is in the book")
	}
	s.mu.Lock()
	s.pgen++
	gen := s.pgen
	s.mu.Unlock()
	go s.ponder(gen, gameKey{pits: 6, seeds: 4, rule: r.Rule}, next)
	select {
	case <-started:
	case <-time.After(2 * time.Minute):
		t.Fatal("the look-ahead did not start")
	}
	// A small game's request: it waits for the slot, which the
	// look-ahead must give up.
	small, _ := engine.NewVariant(3, engine.EmptyCapture)
	q, _ := small.StartPosition(2)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", hs.URL+"/api/solve?"+query(small.Rule, q), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the request behind the look-ahead: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	// The stopped look-ahead ends having solved nothing; the request's
	// own look-ahead (of the small game) may end before or after it.
	got := []int{<-ended}
	if got[0] != 0 {
		got = append(got, <-ended)
	}
	if got[len(got)-1] != 0 {
		t.Errorf("look-aheads ended having solved %v positions, want a 0 for the stopped one", got)
	}
}
