package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/play"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// The API: every endpoint is a GET with the game in the query string,
//
//	pits=M seeds=N rule=R                      the start of Kalah(M,N) (defaults 6, 4, no-empty-capture)
//	position=P to_move=S                       or a position, as 'kalah solve --position P --to-move S'
//	moves=c,f,B                                (line, choose) moves played from there
//	id=X                                       (solve, choose) a name of the page's choosing for the request, up to 64 letters,
//	                                           digits, '-' or '_', by which /api/progress?id=X tells its place in line
//
// and one JSON object as the answer; bad input is HTTP 400 with
// {"error": "..."}, the message the command line gives. The query is read
// strictly (query.go): an unknown, repeated, empty or malformed parameter
// is bad input too, so that no answer is ever for another position than
// the one asked.
//
//	/api/line      the positions along a line: the board, each sowing's capture and extra turn; no search
//	/api/solve     the exact value of the position, every move's value, the best moves, a principal variation
//	/api/choose    the computer's move at level=easy|medium|perfect with seed=K, and the solve behind it
//	/api/progress  the running solve's proven bounds, the root's and every move's, how many requests wait,
//	               and with id=X that request's place in line (or that it is the one running)
//	/api/status    what the server does besides searching: warming up, building an endgame database (with
//	               its progress), or ready; and each opened game's database depth against the default (status.go)
//
// A request for an endpoint with another method is HTTP 405, naming the
// method the endpoint takes (and in the Allow header); a path under /api/
// that is no endpoint is HTTP 404.
func (s *Server) routes() {
	s.endpoints = map[string]string{}
	s.route("GET", "/api/line", s.handleLine)
	s.route("GET", "/api/solve", s.handleSolve)
	s.route("GET", "/api/choose", s.handleChoose)
	s.route("GET", "/api/progress", s.handleProgress)
	s.route("GET", "/api/status", s.handleStatus)
	s.route("POST", "/api/batch", s.handleBatch)
	s.route("POST", "/api/analyze", s.handleAnalyze)
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if m, ok := s.endpoints[r.URL.Path]; ok {
			allow := m
			if m == http.MethodGet {
				allow += ", HEAD"
			}
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: this endpoint takes %s", r.Method, r.URL.Path, m))
			return
		}
		writeError(w, http.StatusNotFound, fmt.Errorf("no such endpoint %s %s", r.Method, r.URL.Path))
	})
	s.mux.Handle("/", assetHandler())
}

// route registers the handler of an endpoint, which takes one method.
func (s *Server) route(method, path string, h http.HandlerFunc) {
	s.mux.HandleFunc(method+" "+path, h)
	s.endpoints[path] = method
}

// game is what a request's query names.
type game struct {
	key   gameKey
	rules engine.Variant
	pos   engine.Position
	start bool   // pos is the start of Kalah(pits, seeds)
	id    string // the request's id parameter
}

// badInput is an error of the request's input: HTTP 400.
type badInput struct{ error }

func (e badInput) Unwrap() error { return e.error }

func bad(err error) error { return badInput{err} }

func badf(format string, a ...any) error { return badInput{fmt.Errorf(format, a...)} }

// parseGame reads pits, seeds, rule, position and to_move, with the
// command line's defaults and messages, and the id.
func parseGame(q params) (game, error) {
	var g game
	c, err := engine.ParseRule(get(q.Get("rule"), engine.NoEmptyCapture.String()))
	if err != nil {
		return g, bad(err)
	}
	pits, err := intParam(q.Get("pits"), "pits", 6)
	if err != nil {
		return g, err
	}
	seeds, err := intParam(q.Get("seeds"), "seeds", 4)
	if err != nil {
		return g, err
	}
	if q.Has("position") {
		text := q.Get("position")
		side, err := engine.ParseSide(get(q.Get("to_move"), "south"))
		if err != nil {
			return g, bad(err)
		}
		if g.pos, err = engine.ParsePosition(text, side); err != nil {
			return g, bad(err)
		}
		if q.Has("pits") && pits != g.pos.Pits {
			return g, badf("pits %d contradicts position, which has %d pits per side", pits, g.pos.Pits)
		}
		pits = g.pos.Pits
		// n only names the start and sizes the table: keep the asked one
		// when the game can have it, else the least that holds the seeds.
		if !q.Has("seeds") || seeds < 1 || 2*pits*seeds > engine.MaxSeeds {
			seeds = max(1, (g.pos.Board.Total()+2*pits-1)/(2*pits))
		}
	}
	if g.rules, err = engine.NewVariant(pits, c); err != nil {
		return g, bad(err)
	}
	start, err := g.rules.StartPosition(seeds)
	if err != nil {
		return g, bad(err)
	}
	if !q.Has("position") {
		if q.Has("to_move") && q.Get("to_move") != "south" && q.Get("to_move") != "s" {
			return g, badf("to_move needs position: a start position has South to move")
		}
		g.pos = start
	}
	g.start = g.pos == start
	g.key = gameKey{pits: pits, seeds: seeds, rule: c}
	if g.id, err = requestID(q.Get("id")); err != nil {
		return g, err
	}
	return g, nil
}

// requestID checks a request's id parameter.
func requestID(id string) (string, error) {
	if len(id) > 64 {
		return "", badf("id: longer than 64 characters")
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", badf("id %q: want letters, digits, '-' or '_'", id)
		}
	}
	return id, nil
}

func get(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func intParam(v, name string, def int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, badf("%s: %q is not a whole number", name, v)
	}
	return n, nil
}

// node is a position as the page draws it.
type node struct {
	Position   string   `json:"position"`
	ToMove     string   `json:"to_move"`
	Holes      []int    `json:"holes"`
	Over       bool     `json:"over"`
	Moves      []string `json:"moves"` // legal moves, letters; empty when over
	SouthStore int      `json:"south_store"`
	NorthStore int      `json:"north_store"`
	// Result is South's store minus North's once the game is over, and
	// Winner "south", "north" or "draw".
	Result *int   `json:"result,omitempty"`
	Winner string `json:"winner,omitempty"`
}

func newNode(p engine.Position) node {
	h := p.Holes()
	n := node{Position: p.String(), ToMove: p.ToMove.String(), Holes: h, Over: p.Board.Over(), Moves: []string{},
		SouthStore: h[p.Pits], NorthStore: h[2*p.Pits+1]}
	if n.Over {
		d := p.SouthDiff()
		n.Result = &d
		n.Winner = results.Winner(d)
	} else {
		for _, i := range p.Board.MoveList() {
			n.Moves = append(n.Moves, engine.MoveLetter(p.ToMove, i))
		}
	}
	return n
}

// step is one sowing of a line and the position after it.
type step struct {
	Ply          int    `json:"ply"`
	Side         string `json:"side"`
	Move         string `json:"move"`
	Pit          int    `json:"pit"` // 1-based from the mover's left
	ExtraTurn    bool   `json:"extra_turn"`
	Captured     int    `json:"captured"`
	CapturedFrom string `json:"captured_from,omitempty"`
	After        node   `json:"after"`
}

// lineReply is /api/line's answer.
type lineReply struct {
	Rule  string `json:"rule"`
	Pits  int    `json:"pits"`
	Seeds int    `json:"seeds,omitempty"` // n, when the line starts at the start of Kalah(m,n)
	Start node   `json:"start"`
	Steps []step `json:"steps"`
	Line  string `json:"line"` // the moves in letters, turns separated by dashes
}

// errorReply is the answer to a request that failed. Legal, for a line
// with an illegal move, is how many of its moves are legal.
type errorReply struct {
	Error string `json:"error"`
	Legal *int   `json:"legal,omitempty"`
}

// request reads a request's query with the endpoint's parameters and,
// when it names a game, the game.
func request(r *http.Request, allowed []string) (params, game, error) {
	q, err := parseQuery(r.URL.RawQuery, allowed)
	if err != nil {
		return nil, game{}, err
	}
	g, err := parseGame(q)
	return q, g, err
}

func (s *Server) handleLine(w http.ResponseWriter, r *http.Request) {
	q, g, err := request(r, lineParams)
	if err != nil {
		writeError(w, 0, err)
		return
	}
	l, err := play.Replay(g.rules, g.pos, play.SplitMoves(q.Get("moves")))
	if err != nil {
		n := len(l.Steps)
		writeJSON(w, http.StatusBadRequest, errorReply{Error: err.Error(), Legal: &n})
		return
	}
	rep := lineReply{Rule: g.rules.Rule.String(), Pits: g.rules.Pits, Start: newNode(g.pos), Steps: []step{}, Line: l.Letters()}
	if g.start {
		rep.Seeds = g.key.seeds
	}
	for k, st := range l.Steps {
		rep.Steps = append(rep.Steps, step{Ply: k + 1, Side: st.Ply.Side.String(), Move: st.Move, Pit: st.Ply.Pit + 1,
			ExtraTurn: st.Result.Extra() && !st.Result.Over(), Captured: st.Captured, CapturedFrom: st.CapturedFrom, After: newNode(st.After)})
	}
	writeJSON(w, http.StatusOK, rep)
}

// solveReply is /api/solve's answer: the fields of 'kalah solve --json'.
type solveReply struct {
	results.Record
	Solved      bool         `json:"solved"`
	Interrupted bool         `json:"interrupted,omitempty"`
	ValueOnly   bool         `json:"value_only"`
	FromCache   bool         `json:"from_cache"`
	FromBook    bool         `json:"from_book,omitempty"` // of those, from the built-in opening book
	NPS         float64      `json:"nps"`
	Cache       string       `json:"cache,omitempty"`
	Stats       solver.Stats `json:"stats"`
}

func (s *Server) handleSolve(w http.ResponseWriter, r *http.Request) {
	_, g, err := request(r, solveParams)
	if err != nil {
		writeError(w, 0, err)
		return
	}
	rep, err := s.solveReply(r.Context(), g)
	if err != nil {
		writeError(w, 0, err)
		return
	}
	writeJSON(w, http.StatusOK, rep)
	if rep.Solved {
		s.lookAhead(g.key, g.rules, g.pos, &rep.Record, "")
	}
}

func (s *Server) solveReply(ctx context.Context, g game) (*solveReply, error) {
	res, cache, err := s.answer(ctx, g)
	if res == nil {
		return nil, err
	}
	if err != nil && !errors.Is(err, solver.ErrInterrupted) {
		return nil, err
	}
	// Never an answer for another position than the one asked.
	if res.Position != g.pos || res.Record.Position != g.pos.String() || res.Record.ToMove != g.pos.ToMove.String() || res.Record.Rule != g.rules.Rule.String() {
		return nil, fmt.Errorf("internal error: the answer is for %s %s %s, not for the position asked, %s %s %s",
			res.Record.Rule, res.Record.Position, res.Record.ToMove, g.rules.Rule, g.pos, g.pos.ToMove)
	}
	rep := &solveReply{Record: *res.Record, Solved: res.Solved, Interrupted: err != nil, FromCache: res.FromCache, FromBook: res.FromBook, Stats: res.Stats}
	rep.Seeds = 0
	if g.start {
		rep.Seeds = g.key.seeds
	}
	if rep.Moves == nil {
		rep.Moves = []results.MoveValue{}
	}
	if rep.Best == nil {
		rep.Best = []string{}
	}
	if rep.Seconds > 0 && !rep.FromCache {
		rep.NPS = float64(rep.Nodes) / rep.Seconds
	}
	rep.Cache = cache
	rep.Record.SyncDeprecated()
	return rep, nil
}

// chooseReply is /api/choose's answer: the computer's move and the solve
// it read the values from.
type chooseReply struct {
	Level      string              `json:"level"`
	Seed       uint64              `json:"seed"`
	Move       string              `json:"move"`       // "" when the game is over
	Value      int                 `json:"value"`      // the move's exact value for the mover
	Candidates []results.MoveValue `json:"candidates"` // the moves the level chose among
	Solve      *solveReply         `json:"solve"`
}

func (s *Server) handleChoose(w http.ResponseWriter, r *http.Request) {
	q, g, err := request(r, chooseParams)
	if err != nil {
		writeError(w, 0, err)
		return
	}
	// The computer moves in the position at the end of moves.
	if ms := play.SplitMoves(q.Get("moves")); len(ms) > 0 {
		l, err := play.Replay(g.rules, g.pos, ms)
		if err != nil {
			n := len(l.Steps)
			writeJSON(w, http.StatusBadRequest, errorReply{Error: err.Error(), Legal: &n})
			return
		}
		g.pos = l.Current()
		g.start = false
	}
	lv, err := play.ParseLevel(get(q.Get("level"), "perfect"))
	if err != nil {
		writeError(w, 0, bad(err))
		return
	}
	seed, err := strconv.ParseUint(get(q.Get("seed"), "1"), 10, 64)
	if err != nil {
		writeError(w, 0, badf("seed: %q is not a whole number", q.Get("seed")))
		return
	}
	rep, err := s.solveReply(r.Context(), g)
	if err != nil {
		writeError(w, 0, err)
		return
	}
	out := chooseReply{Level: lv.Name, Seed: seed, Candidates: lv.Candidates(&rep.Record), Solve: rep}
	if !rep.Solved {
		writeError(w, http.StatusServiceUnavailable, fmt.Errorf("the solve was stopped before every move's value was known (value in [%d, %d])", *rep.Lower, *rep.Upper))
		return
	}
	if mv, ok := lv.Choose(&rep.Record, seed); ok {
		out.Move, out.Value = mv.Move, mv.Value
	}
	if out.Candidates == nil {
		out.Candidates = []results.MoveValue{}
	}
	writeJSON(w, http.StatusOK, out)
	s.lookAhead(g.key, g.rules, g.pos, &rep.Record, out.Move)
}

// progressReply is /api/progress's answer.
type progressReply struct {
	Busy    bool     `json:"busy"`
	Queued  int      `json:"queued"`          // requests waiting for the running solve
	Place   int      `json:"place,omitempty"` // with id: the request's place in line, 1 for the next
	Yours   bool     `json:"yours,omitempty"` // with id: the running solve is the request's
	Running *running `json:"running,omitempty"`
	// Analyzing is the analysis holding the slot (POST /api/analyze):
	// its game's pits and rule, the moves done of the total.
	Analyzing *analyzing `json:"analyzing,omitempty"`
}

func (s *Server) handleProgress(w http.ResponseWriter, r *http.Request) {
	q, err := parseQuery(r.URL.RawQuery, progressParams)
	if err != nil {
		writeError(w, 0, err)
		return
	}
	id, err := requestID(q.Get("id"))
	if err != nil {
		writeError(w, 0, err)
		return
	}
	cur, queued, place, yours := s.status(id)
	an := s.analysis()
	writeJSON(w, http.StatusOK, progressReply{Busy: cur != nil || an != nil, Queued: queued, Place: place, Yours: yours, Running: cur, Analyzing: an})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// writeError answers err with code, or with the code its kind calls for
// when code is 0: 400 for bad input, 503 when the queue is full, 500 else.
func writeError(w http.ResponseWriter, code int, err error) {
	if code == 0 {
		var bi badInput
		switch {
		case errors.As(err, &bi):
			code = http.StatusBadRequest
		case errors.Is(err, ErrBusy), errors.Is(err, ErrClosed), errors.Is(err, ErrBatchesBusy):
			code = http.StatusServiceUnavailable
			w.Header().Set("Retry-After", "2")
		case errors.Is(err, context.Canceled):
			code = 499 // the client went away; nobody reads this
		default:
			code = http.StatusInternalServerError
		}
	}
	writeJSON(w, code, errorReply{Error: err.Error()})
}
