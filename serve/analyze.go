package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// POST /api/analyze: a game in, its analysis out (kalah.Session.Analyze).
// The body is one game in any of the forms 'kalah analyze' reads: the
// move notation ("c,f,B" or "cf-B"), a JSON object (kalah.ParseGameJSON:
// the variant, a start position and moves, a line or OpenSpiel actions),
// or OpenSpiel actions ("[2, 11, 4]"), told apart by their look unless
// format says; a header line ("# Kalah(6,4) empty-capture") may come
// first. The query's rule, pits, seeds, position and to_move give what
// the text does not (the defaults of the other endpoints), all_best=true
// names every best move of every position.
//
// The game is read and replayed before anything is searched: a bad one is
// a 400 whose message names the move (and "legal", how many moves before
// it are). The analysis then runs as one search in line, holding the solve
// slot until it ends (a game of Kalah(6,4) takes seconds with the default
// database), for at most Options.SolveTimeout: past it the answer holds
// the moves analysed so far, with "interrupted" set. /api/progress shows
// how far it is.

// maxGameBytes bounds an analysis's body: a game is at most a few hundred
// moves.
const maxGameBytes = 64 << 10

// analyzing is the analysis under way, for /api/progress.
type analyzing struct {
	Pits    int     `json:"pits"`
	Rule    string  `json:"rule"`
	Done    int     `json:"done"`  // moves analysed
	Total   int     `json:"total"` // moves of the game
	Elapsed float64 `json:"elapsed"`
	started time.Time
}

// analyzeReply is /api/analyze's answer: the library's analysis, and
// whether it stopped before its end.
type analyzeReply struct {
	*kalah.Analysis
	Interrupted bool   `json:"interrupted,omitempty"`
	Error       string `json:"error,omitempty"` // why it stopped, when it did
}

func (s *Server) handleAnalyze(w http.ResponseWriter, r *http.Request) {
	q, err := parseQuery(r.URL.RawQuery, analyzeParams)
	if err != nil {
		writeError(w, 0, err)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxGameBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("game: longer than %d bytes; send one game", maxGameBytes))
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, fmt.Errorf("game: reading the body: %v", err))
		return
	}
	g, key, opt, err := parseAnalyze(q, string(body))
	if err != nil {
		rep := errorReply{Error: err.Error()}
		var me *kalah.MoveError
		if errors.As(err, &me) {
			rep.Legal = &me.Index
		}
		writeJSON(w, http.StatusBadRequest, rep)
		return
	}
	a, err := s.analyze(r.Context(), key, g, opt)
	switch {
	case a == nil:
		writeError(w, 0, err)
	case err != nil && errors.Is(err, solver.ErrInterrupted):
		writeJSON(w, http.StatusOK, analyzeReply{Analysis: a, Interrupted: true, Error: err.Error()})
	case err != nil:
		writeError(w, 0, err)
	default:
		writeJSON(w, http.StatusOK, analyzeReply{Analysis: a})
	}
}

// parseAnalyze reads an analysis request: the game of the body, with the
// query's defaults, replayed to check its moves, and the session's game.
func parseAnalyze(q params, text string) (kalah.Game, gameKey, kalah.AnalyzeOptions, error) {
	var opt kalah.AnalyzeOptions
	f, err := kalah.ParseFormat(q.Get("format"))
	if err != nil {
		return kalah.Game{}, gameKey{}, opt, bad(err)
	}
	switch q.Get("all_best") {
	case "", "false":
	case "true":
		opt.AllBest = true
	default:
		return kalah.Game{}, gameKey{}, opt, badf("all_best: %q, want true or false", q.Get("all_best"))
	}
	// The defaults, read as the other endpoints read them.
	d := params{}
	for _, p := range gameParams {
		if q.Has(p) {
			d[p] = q.Get(p)
		}
	}
	dg, err := parseGame(d)
	if err != nil {
		return kalah.Game{}, gameKey{}, opt, err
	}
	def := kalah.Game{Pits: dg.key.pits, Seeds: dg.key.seeds, Rule: dg.key.rule}
	if !dg.start {
		pos := dg.pos
		def.Position, def.Seeds = &pos, 0
	}
	if strings.TrimSpace(text) == "" {
		return kalah.Game{}, gameKey{}, opt, badf("game: the body is empty; send one game (moves, a JSON object or OpenSpiel actions)")
	}
	games, err := kalah.ParseGames(text, f, def)
	if err != nil {
		return kalah.Game{}, gameKey{}, opt, bad(err)
	}
	if len(games) != 1 {
		return kalah.Game{}, gameKey{}, opt, badf("game: the body holds %d games; send one", len(games))
	}
	g := games[0]
	ps, err := g.Positions()
	if err != nil {
		return kalah.Game{}, gameKey{}, opt, bad(err)
	}
	key := gameKey{pits: g.Pits, seeds: g.Seeds, rule: g.Rule}
	if key.seeds < 1 || 2*key.pits*key.seeds > engine.MaxSeeds {
		key.seeds = max(1, (ps[0].Board.Total()+2*g.Pits-1)/(2*g.Pits))
	}
	return g, key, opt, nil
}

// analyze runs the analysis of g in the session of its game, holding the
// solve slot, and reports its progress to /api/progress.
func (s *Server) analyze(ctx context.Context, key gameKey, g kalah.Game, opt kalah.AnalyzeOptions) (*kalah.Analysis, error) {
	if err := s.acquire(ctx, "", true); err != nil {
		return nil, err
	}
	defer s.release()
	k, err := s.session(key)
	if err != nil {
		return nil, err
	}
	if err := s.prepareEGDB(ctx, k, key); err != nil {
		return nil, err
	}
	if s.opts.SolveTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opts.SolveTimeout)
		defer cancel()
	}
	cur := &analyzing{Pits: key.pits, Rule: key.rule.String(), Total: len(g.Moves), started: time.Now()}
	s.mu.Lock()
	s.anal = cur
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.anal = nil
		s.mu.Unlock()
	}()
	opt.Progress = func(done, _ int) {
		s.mu.Lock()
		cur.Done = done
		s.mu.Unlock()
	}
	t0 := time.Now()
	a, err := k.Analyze(ctx, g, opt)
	s.logf("analysed a game of %d moves of Kalah(%d,%d) %v in %.3f s (err %v)", len(g.Moves), key.pits, key.seeds, key.rule, time.Since(t0).Seconds(), err)
	return a, err
}

// analysis is a copy of the analysis under way, nil when none.
func (s *Server) analysis() *analyzing {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.anal == nil {
		return nil
	}
	a := *s.anal
	a.Elapsed = time.Since(a.started).Seconds()
	return &a
}
