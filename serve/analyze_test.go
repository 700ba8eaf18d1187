package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/openspiel"
)

// postAnalyze sends a game to /api/analyze with query q and decodes the
// answer into v; it returns the status.
func postAnalyze(t *testing.T, hs *httptest.Server, q, body string, v any) int {
	t.Helper()
	r, err := http.Post(hs.URL+"/api/analyze?"+q, "text/plain", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return r.StatusCode
}

// southValue is p's value for South by the test's own solve.
func southValue(t *testing.T, c engine.Rule, p engine.Position) int {
	if p.Board.Over() {
		return p.SouthDiff()
	}
	v := reference(t, c, p).Value
	if p.ToMove == engine.North {
		return -v
	}
	return v
}

// TestAnalyze sends one random game of each small variant in each of the
// three forms and checks every move's values before and after against
// solves of the test's own, the losses against them, and the sums.
func TestAnalyze(t *testing.T) {
	_, hs := newTestServer(t, Options{NoPonder: true})
	for i, c := range []struct {
		pits, seeds int
		rule        engine.Rule
	}{{3, 2, engine.NoEmptyCapture}, {2, 3, engine.EmptyCapture}, {3, 3, engine.EmptyCapture}} {
		r, _ := engine.NewVariant(c.pits, c.rule)
		l := randomGame(r, c.seeds, uint64(10+i))
		ps := positionsOf(l)
		var acts []string
		for _, st := range l.Steps {
			acts = append(acts, fmt.Sprint(openspiel.Action(c.pits, st.Ply.Side, st.Ply.Pit)))
		}
		q := fmt.Sprintf("pits=%d&seeds=%d&rule=%v", c.pits, c.seeds, c.rule)
		for _, form := range []struct{ q, body string }{
			{q, letters(l, len(l.Steps))},
			{"", fmt.Sprintf(`{"pits": %d, "seeds": %d, "rule": %q, "moves": [%s]}`, c.pits, c.seeds, c.rule, `"`+strings.ReplaceAll(letters(l, len(l.Steps)), ",", `","`)+`"`)},
			{q + "&format=openspiel", "[" + strings.Join(acts, ", ") + "]"},
			{"", fmt.Sprintf("# Kalah(%d,%d) %v\n%s\n", c.pits, c.seeds, c.rule, l.Letters())},
		} {
			var a analyzeReply
			if code := postAnalyze(t, hs, form.q, form.body, &a); code != 200 || a.Analysis == nil {
				t.Fatalf("%s: status %d, %+v", form.body, code, a)
			}
			if a.Interrupted || a.Bound || len(a.Moves) != len(l.Steps) || !a.Over || a.Pits != c.pits || a.Rule != c.rule.String() {
				t.Fatalf("%s: %d moves, interrupted %v, bound %v, over %v, Kalah(%d) %s", form.body, len(a.Moves), a.Interrupted, a.Bound, a.Over, a.Pits, a.Rule)
			}
			lost := map[string]int{}
			for k, mv := range a.Moves {
				before, after := southValue(t, c.rule, ps[k]), southValue(t, c.rule, ps[k+1])
				loss := before - after
				if mv.Side == "north" {
					loss = -loss
				}
				if mv.Move != l.Steps[k].Move || mv.Before != before || mv.After != after || mv.Loss != loss {
					t.Errorf("%s, ply %d: %s before %d after %d loss %d; want %s %d %d %d", form.body, k+1, mv.Move, mv.Before, mv.After, mv.Loss, l.Steps[k].Move, before, after, loss)
				}
				lost[mv.Side] += loss
			}
			if a.Value != southValue(t, c.rule, ps[0]) || a.End != ps[len(ps)-1].SouthDiff() || a.South.Loss != lost["south"] || a.North.Loss != lost["north"] {
				t.Errorf("%s: value %d end %d, losses %d %d; want %v", form.body, a.Value, a.End, a.South.Loss, a.North.Loss, lost)
			}
		}
	}
}

// TestAnalyzeBad: a game that cannot be read or replayed is a 400 naming
// the move, before any search; another method is a 405.
func TestAnalyzeBad(t *testing.T) {
	var searched atomic.Bool
	_, hs := newTestServer(t, Options{NoPonder: true, beforeSolve: func() { searched.Store(true) }})
	for _, c := range []struct {
		q, body, want string
		legal         int
	}{
		{"pits=4&seeds=3", "b,d,b", "move 3 (b)", 2},
		{"pits=4&seeds=3", "b,d,z", "move 3", 2},
		{"pits=4&seeds=3", `{"moves": ["b", "b"]}`, "move 2 (b)", 1},
		{"pits=4&seeds=3&format=openspiel", "[2, 2]", "move 2", 1},
		{"", "", "the body is empty", -1},
		{"pits=4&seeds=3", "b\nd\n", "the body holds 2 games", -1},
		{"format=chess", "b", "chess", -1},
		{"all_best=maybe", "b", "all_best", -1},
		{"pits=99", "b", "", -1},
		{"depth=3", "b", `unknown parameter "depth"`, -1},
	} {
		var e errorReply
		code := postAnalyze(t, hs, c.q, c.body, &e)
		if code != http.StatusBadRequest || !strings.Contains(e.Error, c.want) || (c.legal >= 0) != (e.Legal != nil) || e.Legal != nil && *e.Legal != c.legal {
			t.Errorf("%q %q: status %d, %+v; want 400 with %q, legal %d", c.q, c.body, code, e, c.want, c.legal)
		}
	}
	if searched.Load() {
		t.Error("a bad game was searched")
	}
	resp, err := http.Get(hs.URL + "/api/analyze?pits=4")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET /api/analyze: status %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}
