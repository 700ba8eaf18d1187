package serve

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// The parsers of the API's input, fuzzed: the query string (query.go) and
// the game it names (parseGame), and the position notation. The seed
// corpus is in testdata/fuzz; 'go test -fuzz FuzzParseQuery ./serve/'
// (or FuzzParsePosition) looks for more.

// FuzzParseQuery checks that no query makes the parsers panic, that a
// query they accept names each parameter once and only the endpoint's,
// reads back the same from its own encoding, and names exactly the
// position asked: the one in position (never the start instead) or, with
// none, the start of Kalah(pits, seeds).
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"",
		"pits=4&seeds=3",
		"rule=empty-capture&pits=6&seeds=4",
		"position=4,4,4,4,4,4,0,4,4,4,4,4,4,0&to_move=north",
		"position=1,0,1,0&to_move=s&seeds=9",
		"position=3;3;3;3;0;3;3;3;3;0",
		"position=3%3B3%3B3%3B3%3B0%3B3%3B3%3B3%3B3%3B0",
		"%zz",
		"pits=4&pits=5",
		"position=",
		"pits=+4&seeds=0x3",
		"id=abc-_9&moves=b,d,A",
		"to_move=north",
		"pits=4&&seeds=3&",
		"level=easy&seed=18446744073709551615",
		"position=%201,%200,1,0%20&to_move=N",
	} {
		f.Add(s)
	}
	endpoints := [][]string{lineParams, solveParams, chooseParams, progressParams}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, allowed := range endpoints {
			q, err := parseQuery(raw, allowed)
			if err != nil {
				if _, ok := err.(badInput); !ok {
					t.Fatalf("%q: error %v is not bad input", raw, err)
				}
				continue
			}
			vals := url.Values{}
			for k, v := range q {
				if !slices.Contains(allowed, k) {
					t.Fatalf("%q: parameter %q accepted, not in %v", raw, k, allowed)
				}
				vals.Set(k, v)
			}
			if len(vals.Encode()) > maxQuery {
				continue // escaping made it longer than a query may be
			}
			again, err := parseQuery(vals.Encode(), allowed)
			if err != nil || len(again) != len(q) {
				t.Fatalf("%q: its own encoding %q reads as %v, %v", raw, vals.Encode(), again, err)
			}
			for k, v := range q {
				if again[k] != v {
					t.Fatalf("%q: %s reads back as %q, not %q", raw, k, again[k], v)
				}
			}
			if !slices.Contains(allowed, "position") {
				continue
			}
			g, err := parseGame(q)
			if err != nil {
				if _, ok := err.(badInput); !ok {
					t.Fatalf("%q: error %v is not bad input", raw, err)
				}
				continue
			}
			checkGame(t, raw, q, g)
		}
	})
}

// checkGame checks that the game g read from q is the one q names.
func checkGame(t *testing.T, raw string, q params, g game) {
	t.Helper()
	if g.rules.Pits != g.pos.Pits || g.key.pits != g.pos.Pits || g.key.rule != g.rules.Rule {
		t.Fatalf("%q: rules %v, key %+v for a position with %d pits", raw, g.rules, g.key, g.pos.Pits)
	}
	if g.key.seeds < 1 || 2*g.key.pits*g.key.seeds > engine.MaxSeeds {
		t.Fatalf("%q: seeds %d", raw, g.key.seeds)
	}
	start, err := g.rules.StartPosition(g.key.seeds)
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	if !q.Has("position") {
		if g.pos != start || !g.start {
			t.Fatalf("%q: no position asked, and the game's is %s %s, not the start %s", raw, g.pos, g.pos.ToMove, start)
		}
		return
	}
	side := engine.South
	if q.Has("to_move") {
		if side, err = engine.ParseSide(q.Get("to_move")); err != nil {
			t.Fatalf("%q: to_move %q accepted: %v", raw, q.Get("to_move"), err)
		}
	}
	want, err := engine.ParsePosition(q.Get("position"), side)
	if err != nil {
		t.Fatalf("%q: position %q accepted: %v", raw, q.Get("position"), err)
	}
	if g.pos != want || g.start != (want == start) {
		t.Fatalf("%q: the game's position is %s %s (start %v), not the one asked, %s %s", raw, g.pos, g.pos.ToMove, g.start, want, want.ToMove)
	}
}

// FuzzParsePosition checks the position notation as the API reads it:
// no input panics; one accepted prints as a position that reads back the
// same, and the API's position parameter, given it escaped, names the
// very same position, and refuses what the notation refuses.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		"4,4,4,4,4,4,0,4,4,4,4,4,4,0",
		"1,0,1,0",
		"0,0,0,0",
		" 3, 3 ,3,0,3,3,3,0 ",
		"3;3;3;3;0;3;3;3;3;0",
		"1,2,3",
		"4,x,4,0",
		"-1,2,1,0",
		"255,0,0,0",
		"+1,0,1,0",
		"1,,1,0",
		"9,9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9,0",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, north bool) {
		side := engine.South
		if north {
			side = engine.North
		}
		p, err := engine.ParsePosition(s, side)
		raw := "position=" + url.QueryEscape(s) + "&to_move=" + side.String()
		q, qerr := parseQuery(raw, solveParams)
		var g game
		if qerr == nil {
			g, qerr = parseGame(q)
		}
		if err != nil {
			if qerr == nil {
				t.Fatalf("%q: the notation refuses it (%v), the API takes it as %s", s, err, g.pos)
			}
			return
		}
		if p.ToMove != side || p.Pits < 1 || p.Pits > engine.MaxPits {
			t.Fatalf("%q: %+v", s, p)
		}
		again, err := engine.ParsePosition(p.String(), p.ToMove)
		if err != nil || again != p || again.String() != p.String() {
			t.Fatalf("%q: prints as %q, which reads as %v, %v", s, p.String(), again, err)
		}
		if strings.TrimSpace(s) == "" || len(raw) > maxQuery {
			return // the API refuses an empty parameter, and a query too long
		}
		if qerr != nil {
			t.Fatalf("%q: the notation takes it as %s, the API refuses it: %v", s, p, qerr)
		}
		if g.pos != p {
			t.Fatalf("%q: the API reads %s %s, the notation %s %s", s, g.pos, g.pos.ToMove, p, p.ToMove)
		}
	})
}
