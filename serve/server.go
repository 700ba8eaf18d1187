// Package serve is the web explorer behind 'kalah serve': a page that
// draws the board and shows every legal move's exact value, a play mode
// against the computer, and the JSON API the page (or a bot) calls.
//
// Every value comes from a library session (kalah.Open), the same one
// 'kalah solve' opens, with its cache. The server keeps one session open
// at a time, for the game of the last request: the cache's directory can
// be held by one session only, so a request for another game (pits, seeds
// or rule) closes the open session and opens the new one, which costs a
// cache open and a fresh table.
//
// Heavy work is serialised: at most one solve runs at a time (a solve
// already uses every core the session has), the others wait in line, first
// come first served, and past Options.MaxQueue waiting requests a new one
// is turned away with HTTP 503. /api/progress shows the running solve's
// proven bounds, the root's and every move's, and a waiting request's
// place in the line, so the page can show the bounds narrowing while it
// waits.
package serve

import (
	"context"
	"errors"
	"log"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// Options configure a server.
type Options struct {
	// CacheDir is the cache's directory; "" means the default
	// (persist.DefaultDir). NoCache uses none.
	CacheDir string
	NoCache  bool
	// EGDBDir is the endgame-database directory ("" means the default,
	// used when it holds a database); NoEGDB uses none.
	EGDBDir string
	NoEGDB  bool
	// Threads and TableBytes are the sessions' search threads and table
	// size; 0 means the session's defaults.
	Threads    int
	TableBytes int64
	// MaxQueue is how many requests may wait behind the running solve;
	// 0 means DefaultMaxQueue, a negative value none.
	MaxQueue int
	// SolveTimeout stops a solve that runs longer (it then answers with
	// the bounds proven so far); 0 means no limit.
	SolveTimeout time.Duration
	// ProgressEvery is how often the running solve's bounds are updated;
	// 0 means 250 ms.
	ProgressEvery time.Duration
	// NoPonder turns the look-ahead off: by default, once a position is
	// answered and no request waits, the server solves the positions
	// after its moves in the background (ponder.go), each for at most
	// PonderLimit (0 means DefaultPonderLimit).
	NoPonder    bool
	PonderLimit time.Duration
	// Log, if not nil, receives the sessions opened and the solves run.
	Log *log.Logger

	// beforeSolve, if set, runs while the solve slot is held, before the
	// session is used: tests hold the slot with it.
	beforeSolve func()
	// afterProgress, if set, runs after each progress report of a
	// request's solve has been recorded, in the solver's goroutine that
	// made it: tests pause the solve with it, between two passes.
	afterProgress func(solver.Progress)
	// ponderStarted, if set, runs when a look-ahead solve of q has taken
	// the slot, before it starts; ponderEnded when a look-ahead ends,
	// with the number of positions it solved completely (tests).
	ponderStarted func(q engine.Position)
	ponderEnded   func(solved int)
}

// DefaultMaxQueue is the number of requests that may wait for the solve
// slot by default.
const DefaultMaxQueue = 8

// ErrBusy is returned when the queue is full (HTTP 503).
var ErrBusy = errors.New("the server is busy: too many requests are waiting for a solve; try again shortly")

// Server answers the page and the API.
type Server struct {
	opts Options
	mux  *http.ServeMux

	mu      sync.Mutex         // guards busy, line, cur, next, pgen, pcancel and closed
	busy    bool               // a request, or the look-ahead, holds the solve slot
	line    []*waiter          // the requests waiting for the slot, first in line first
	cur     *running           // the running solve, nil when idle
	next    int64              // the ticket of the next solve
	pgen    int64              // the latest look-ahead (ponder.go)
	pcancel context.CancelFunc // stops the look-ahead holding the slot, nil when none does
	closed  bool               // Close was called: no more look-ahead

	// Owned by the holder of the slot.
	k    *kalah.Session
	kkey gameKey
}

// waiter is a request waiting for the solve slot.
type waiter struct {
	id    string        // the request's id parameter, "" when it has none
	ready chan struct{} // closed when the slot is handed to it
}

// gameKey names a session's game.
type gameKey struct {
	pits, seeds int
	rule        engine.Capture
}

// running is what /api/progress reports of the solve in progress. Every
// bound is proven: the root's value lies in [Lower, Upper], each move's in
// its own, and they only narrow while the solve runs.
type running struct {
	Ticket    int64      `json:"ticket"`
	Rule      string     `json:"rule"`
	Pits      int        `json:"pits"`
	Position  string     `json:"position"`
	ToMove    string     `json:"to_move"`
	Stage     string     `json:"stage"`
	Lower     int        `json:"lower"`
	Upper     int        `json:"upper"`
	Searching string     `json:"searching,omitempty"` // the move being pinned down
	Moves     []liveMove `json:"moves"`               // every legal move, by pit
	Nodes     int64      `json:"nodes"`
	Elapsed   float64    `json:"elapsed"` // seconds
	id        string     // the request's id parameter
	started   time.Time  //
	lo, hi    int        // the root's bounds from the stages on the root itself
}

// liveMove is one legal move's proven bounds in a running solve: its value
// for the root's mover (as in the answer's moves) lies in [Lower, Upper].
type liveMove struct {
	Move   string `json:"move"`
	Pit    int    `json:"pit"`
	Lower  int    `json:"lower"`
	Upper  int    `json:"upper"`
	Solved bool   `json:"solved"`
}

// newRunning is the state of a solve of p that has proven nothing yet: a
// move that ends the game has its exact value, any other the store
// difference it leaves give or take the seeds left on the board.
func newRunning(rules engine.Rules, p engine.Position) *running {
	b := p.Board
	base := b.StoreDiff()
	cur := &running{Rule: rules.Capture.String(), Pits: p.Pits, Position: p.String(), ToMove: p.ToMove.String(),
		Stage: "start", Moves: []liveMove{}, started: time.Now(), lo: base - b.Seeds(), hi: base + b.Seeds()}
	if b.Over() {
		cur.lo, cur.hi = base, base
	}
	for _, i := range b.MoveList() {
		c, r := rules.Sow(b, i)
		gain := int(c.OwnStore) - int(b.OwnStore)
		mv := liveMove{Move: engine.MoveLetter(p.ToMove, i), Pit: i + 1}
		if r.Over() {
			mv.Lower = base + gain - (int(c.OppStore) - int(b.OppStore))
			mv.Upper, mv.Solved = mv.Lower, true
		} else {
			if !r.Extra() {
				c = c.Flip()
			}
			mv.Lower, mv.Upper = engine.MoveBounds(r, base+gain, -c.Seeds(), c.Seeds())
		}
		cur.Moves = append(cur.Moves, mv)
	}
	cur.bound()
	return cur
}

// narrow records a progress report: bounds on one move's value while the
// moves are pinned down one by one (stage "move c"), on the root's
// otherwise. A report can be late (the solver's ticker reads the stage
// before it calls), so bounds are intersected, never replaced.
func (c *running) narrow(p solver.Progress) {
	c.Stage, c.Nodes, c.Searching = p.Stage, p.Nodes, ""
	if mv, ok := strings.CutPrefix(p.Stage, "move "); ok {
		for i := range c.Moves {
			m := &c.Moves[i]
			if m.Move == mv {
				m.Lower, m.Upper = max(m.Lower, p.Lower), min(m.Upper, p.Upper)
				m.Solved = m.Lower == m.Upper
				if !m.Solved {
					c.Searching = mv
				}
			}
		}
	} else {
		c.lo, c.hi = max(c.lo, p.Lower), min(c.hi, p.Upper)
	}
	c.bound()
}

// bound sets the root's bounds: the root is worth its best move, so at
// least the best lower bound of a move and at most the best upper one.
func (c *running) bound() {
	c.Lower, c.Upper = c.lo, c.hi
	if len(c.Moves) == 0 {
		return
	}
	lo, hi := c.Moves[0].Lower, c.Moves[0].Upper
	for _, m := range c.Moves[1:] {
		lo, hi = max(lo, m.Lower), max(hi, m.Upper)
	}
	c.Lower, c.Upper = max(c.Lower, lo), min(c.Upper, hi)
}

// New returns a server; Close releases its session.
func New(opts Options) *Server {
	if opts.MaxQueue == 0 {
		opts.MaxQueue = DefaultMaxQueue
	}
	if opts.ProgressEvery == 0 {
		opts.ProgressEvery = 250 * time.Millisecond
	}
	s := &Server{opts: opts, mux: http.NewServeMux()}
	s.routes()
	return s
}

// ServeHTTP answers a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close waits for the running solve and closes the open session, so that
// what it proved is in the cache.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.acquire(context.Background(), "", false)
	defer s.release()
	return s.closeSession()
}

// acquire takes the solve slot, waiting in line when it is taken (and
// stopping the look-ahead if that holds it); it fails with ErrBusy when
// capped and the line is full, and with ctx's error when the request goes
// away first.
func (s *Server) acquire(ctx context.Context, id string, capped bool) error {
	s.mu.Lock()
	if !s.busy {
		s.busy = true
		s.mu.Unlock()
		return nil
	}
	// The look-ahead gives the slot up at once, so the first request
	// that waits for it is as good as running: it does not count
	// against the cap (with MaxQueue < 0, none may wait, it still gets
	// in).
	limit := max(s.opts.MaxQueue, 0)
	if s.pcancel != nil {
		s.pcancel()
		limit++
	}
	if capped && len(s.line) >= limit {
		s.mu.Unlock()
		return ErrBusy
	}
	w := &waiter{id: id, ready: make(chan struct{})}
	s.line = append(s.line, w)
	s.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.line {
		if x == w {
			s.line = append(s.line[:i], s.line[i+1:]...)
			return ctx.Err()
		}
	}
	// The slot was handed over as the request went away: pass it on.
	s.handOn()
	return ctx.Err()
}

// release gives the slot to the first request in line, if any (a
// look-ahead that held it can no longer be stopped through pcancel).
func (s *Server) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pcancel = nil
	s.handOn()
}

// handOn passes the slot, held by the caller, to the first in line or
// frees it. The caller holds s.mu.
func (s *Server) handOn() {
	if len(s.line) == 0 {
		s.busy = false
		return
	}
	w := s.line[0]
	s.line = s.line[1:]
	close(w.ready)
}

// queued is the number of requests waiting for the slot.
func (s *Server) queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.line)
}

// session returns the session of the game key, closing another one.
// The caller holds the slot.
func (s *Server) session(key gameKey) (*kalah.Session, error) {
	if s.k != nil && s.kkey == key {
		return s.k, nil
	}
	if err := s.closeSession(); err != nil {
		s.logf("closing the session of Kalah(%d,%d) %v: %v", s.kkey.pits, s.kkey.seeds, s.kkey.rule, err)
	}
	k, err := kalah.Open(kalah.Config{Pits: key.pits, Seeds: key.seeds, Rule: key.rule,
		Threads: s.opts.Threads, TableBytes: s.opts.TableBytes,
		EGDBDir: s.opts.EGDBDir, NoEGDB: s.opts.NoEGDB,
		CacheDir: s.opts.CacheDir, NoCache: s.opts.NoCache,
		Progress: s.progress, ProgressEvery: s.opts.ProgressEvery, Log: s.opts.Log})
	if err != nil {
		return nil, err
	}
	s.logf("session opened: Kalah(%d,%d) %v, cache %q", key.pits, key.seeds, key.rule, k.CacheDir())
	s.k, s.kkey = k, key
	return k, nil
}

// Warmed says what Warm prepared.
type Warmed struct {
	TableBytes int64         // the table touched
	EGDBSeeds  int           // the database opened (its largest slice), -1 for none
	Took       time.Duration // from the slot's taking to the end
}

// Warm opens the session of Kalah(pits, seeds) under rule, as the first
// request for that game would, and touches every page of its table, so
// that the first solve does not pay for the kernel's first touch of the
// table's memory (seconds for a gigabyte of huge pages) or for opening and
// checking the endgame database. It waits for the solve slot like a
// request (without the queue's cap), so requests that come meanwhile
// wait behind it; a request for another game then closes this session.
func (s *Server) Warm(ctx context.Context, pits, seeds int, rule engine.Capture) (Warmed, error) {
	if err := s.acquire(ctx, "", false); err != nil {
		return Warmed{}, err
	}
	defer s.release()
	t0 := time.Now()
	key := gameKey{pits: pits, seeds: seeds, rule: rule}
	fresh := s.k == nil || s.kkey != key
	k, err := s.session(key)
	if err != nil {
		return Warmed{}, err
	}
	if err := k.Ready(); err != nil {
		return Warmed{}, err
	}
	if fresh { // an open session's table holds answers: keep them
		if err := k.ClearTable(); err != nil {
			return Warmed{}, err
		}
	}
	w := Warmed{TableBytes: k.TableBytes(), EGDBSeeds: k.EGDBSeeds(), Took: time.Since(t0)}
	s.logf("warmed Kalah(%d,%d) %v: %d-byte table touched, endgame database %d seeds, %v", pits, seeds, rule, w.TableBytes, w.EGDBSeeds, w.Took.Round(time.Millisecond))
	return w, nil
}

func (s *Server) closeSession() error {
	if s.k == nil {
		return nil
	}
	err := s.k.Close()
	s.k = nil
	return err
}

// solve runs a full solve (every move's value) of p under rules in the
// session of key, waiting for the slot; id names the request in
// /api/progress. It returns the session's cache directory too.
func (s *Server) solve(ctx context.Context, key gameKey, rules engine.Rules, p engine.Position, id string) (*kalah.Result, string, error) {
	if err := s.acquire(ctx, id, true); err != nil {
		return nil, "", err
	}
	defer s.release()
	if s.opts.beforeSolve != nil {
		s.opts.beforeSolve()
	}
	k, err := s.session(key)
	if err != nil {
		return nil, "", err
	}
	cur := newRunning(rules, p)
	cur.id = id
	s.mu.Lock()
	s.next++
	cur.Ticket = s.next
	s.cur = cur
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.cur = nil
		s.mu.Unlock()
	}()
	if s.opts.SolveTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opts.SolveTimeout)
		defer cancel()
	}
	t0 := time.Now()
	res, err := k.Solve(ctx, p)
	if res != nil {
		s.logf("solved %v %s %s in %.3f s (from cache %v)", key.rule, p, p.ToMove, time.Since(t0).Seconds(), res.FromCache)
	}
	return res, k.CacheDir(), err
}

// progress records a progress report of the running solve; the solver
// calls it from its own goroutines.
func (s *Server) progress(p solver.Progress) {
	s.mu.Lock()
	req := s.cur != nil // else the look-ahead's
	if req {
		s.cur.narrow(p)
	}
	s.mu.Unlock()
	if req && s.opts.afterProgress != nil {
		s.opts.afterProgress(p)
	}
}

// status is a copy of the running solve's state (nil when idle), the
// number of requests waiting, and the place in line of the request named
// id (1 for the next to run, 0 when it is not waiting) and whether it is
// the one running.
func (s *Server) status(id string) (cur *running, queued, place int, yours bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != "" {
		for i, w := range s.line {
			if w.id == id {
				place = i + 1
				break
			}
		}
	}
	if s.cur == nil {
		return nil, len(s.line), place, false
	}
	c := *s.cur
	c.Moves = append([]liveMove(nil), c.Moves...)
	c.Elapsed = time.Since(c.started).Seconds()
	return &c, len(s.line), place, id != "" && c.id == id
}

func (s *Server) logf(format string, a ...any) {
	if s.opts.Log != nil {
		s.opts.Log.Printf(format, a...)
	}
}
