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
// is turned away with HTTP 503. Only new searches wait in line: an answer
// the server already holds never does (flight.go). A position the cache
// has a root record of is answered at once, whatever runs; a request for
// a position and rule whose solve is already running or in line joins it
// and gets its answer, and its live bounds meanwhile. /api/progress shows
// the running solve's proven bounds, the root's and every move's, and a
// waiting request's place in the line, so the page can show the bounds
// narrowing while it waits.
package serve

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/book"
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
	// Threads and TableSize are the sessions' search threads and table
	// size; 0 means the session's defaults.
	Threads   int
	TableSize int64
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
	// MaxBatchLines and MaxBatchBytes bound a batch (POST /api/batch,
	// batch.go): its positions and its body's bytes; BatchTimeout is the
	// longest it runs; MaxBatches is how many run at once. 0 means
	// DefaultMaxBatchLines, DefaultMaxBatchBytes, DefaultBatchTimeout
	// and DefaultMaxBatches.
	MaxBatchLines int
	MaxBatchBytes int64
	BatchTimeout  time.Duration
	MaxBatches    int
	// Log, if not nil, receives the sessions opened and the solves run.
	Log *log.Logger
	// AutoEGDB lets the sessions build the default endgame database, as
	// 'kalah solve' does (kalah.Config.AutoEGDB): before the first search
	// of a game (in the warm-up, for its game) whose default database
	// directory holds none that deep. /api/status reports the build, and
	// OnEGDBBuild, if set, receives its reports too.
	AutoEGDB    bool
	OnEGDBBuild func(kalah.EGDBBuild)
	// DeepenSeeds, if positive, deepens the default database in the
	// background once a game's default one is there (with AutoEGDB):
	// after the first search of each game AutoEGDB builds for, the server
	// builds the deeper slices up to DeepenSeeds (capped by the board,
	// kalah.Session.DeepenDepth), one game's at a time, while it goes on
	// answering with the database it has; its searches use the deeper one
	// from the first after the build (refreshEGDB). /api/status reports
	// it as deepening.
	DeepenSeeds int

	// autoEGDBSeeds, if positive, is the depth AutoEGDB builds to (tests).
	autoEGDBSeeds int

	// beforeSolve, if set, runs while the solve slot is held, before the
	// session is used: tests hold the slot with it.
	beforeSolve func()
	// solving, if set, runs as a request's search of a position takes
	// the slot, with the position (tests).
	solving func(p engine.Position)
	// afterProgress, if set, runs after each progress report of a
	// request's solve has been recorded, in the solver's goroutine that
	// made it: tests pause the solve with it, between two passes.
	afterProgress func(solver.Progress)
	// egdbCheckEvery, if positive, replaces EGDBCheckEvery (tests).
	egdbCheckEvery time.Duration
	// ponderStarted, if set, runs when a look-ahead solve of q has taken
	// the slot, before it starts; ponderEnded when a look-ahead ends,
	// with the number of positions it solved completely (tests).
	ponderStarted func(q engine.Position)
	ponderEnded   func(solved int)
}

// DefaultMaxQueue is the number of requests that may wait for the solve
// slot by default.
const DefaultMaxQueue = 8

// EGDBCheckEvery is the shortest time between two looks at the open
// session's endgame-database directory for a deeper database
// (refreshEGDB).
const EGDBCheckEvery = 3 * time.Second

// ErrBusy is returned when the queue is full (HTTP 503).
var ErrBusy = errors.New("the server is busy: too many requests are waiting for a solve; try again shortly")

// ErrClosed is returned for a search asked for once Close has been called
// (HTTP 503).
var ErrClosed = errors.New("the server is shutting down")

// Server answers the page and the API.
type Server struct {
	opts      Options
	mux       *http.ServeMux
	endpoints map[string]string // each endpoint's path and the method it takes

	mu      sync.Mutex            // guards busy, line, cur, next, pgen, pcancel, closed, flights, open, changed, batches and anal
	busy    bool                  // a request, or the look-ahead, holds the solve slot
	line    []*waiter             // the requests waiting for the slot, first in line first
	cur     *running              // the running solve, nil when idle
	next    int64                 // the ticket of the next solve
	pgen    int64                 // the latest look-ahead (ponder.go)
	pcancel context.CancelFunc    // stops the look-ahead holding the slot, nil when none does
	closed  bool                  // Close was called: no more look-ahead, no new search
	flights map[flightKey]*flight // the searches asked for, running or in line (flight.go)
	open    bool                  // a session is open: k is not nil
	changed chan struct{}         // closed and replaced when a session opens or fails to, or the slot is freed
	batches int                   // the batches running (batch.go)
	anal    *analyzing            // the analysis holding the slot, nil when none (analyze.go)

	// Owned by the holder of the slot, which changes k under smu's write
	// lock; requests read the cache through k under its read lock.
	smu  sync.RWMutex
	k    *kalah.Session
	kkey gameKey
	// Owned by the holder of the slot: when k's database directory was
	// last looked at for a deeper database (refreshEGDB).
	egdbChecked time.Time

	stat statusBoard // what /api/status reports (status.go)

	deep deepening // the background deepening of the databases (deepen.go)
}

// waiter is a request, or a search, waiting for the solve slot.
type waiter struct {
	id    string        // the request's id parameter, "" when it has none
	f     *flight       // the search waiting, nil for other work
	ready chan struct{} // closed when the slot is handed to it
}

// gameKey names a session's game.
type gameKey struct {
	pits, seeds int
	rule        engine.Rule
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
	f         *flight    // the search, with the ids of the requests waiting for it
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
func newRunning(rules engine.Variant, p engine.Position) *running {
	b := p.Board
	base := b.StoreDiff()
	cur := &running{Rule: rules.Rule.String(), Pits: p.Pits, Position: p.String(), ToMove: p.ToMove.String(),
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
	s := &Server{opts: opts, mux: http.NewServeMux(), flights: map[flightKey]*flight{}, changed: make(chan struct{})}
	s.deep.ctx, s.deep.cancel = context.WithCancel(context.Background())
	s.routes()
	// The built-in opening book reads a game's file on its first lookup
	// (a quarter of a second for each file of Kalah(6,4)); reading them
	// all now, beside the start-up, spares the first requests that wait.
	go func() {
		if b, err := book.Embedded(); err == nil {
			b.Err()
		}
	}()
	return s
}

// ServeHTTP answers a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close waits for the running solve and closes the open session, so that
// what it proved is in the cache.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for _, f := range s.flights {
		f.cancel() // its requests get the bounds proven so far
	}
	s.mu.Unlock()
	s.deep.stop()
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
	w, err := s.enter(&waiter{id: id}, capped)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.await(ctx, w)
}

// enter takes the solve slot for w when it is free (it returns nil), or
// puts w in line (it returns w); it fails with ErrBusy when capped and
// the line is full. The caller holds s.mu.
func (s *Server) enter(w *waiter, capped bool) (*waiter, error) {
	if !s.busy {
		s.busy = true
		return nil, nil
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
		return nil, ErrBusy
	}
	w.ready = make(chan struct{})
	s.line = append(s.line, w)
	return w, nil
}

// await waits until the slot is handed to w, which enter put in line (nil:
// enter gave it the slot), or fails with ctx's error when ctx ends first.
func (s *Server) await(ctx context.Context, w *waiter) error {
	if w == nil {
		return nil
	}
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
		s.signal()
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

// session returns the session of the game key, closing another one;
// an open session switches to a deeper endgame database first when one
// has been written since (refreshEGDB). The caller holds the slot.
func (s *Server) session(key gameKey) (*kalah.Session, error) {
	if s.k != nil && s.kkey == key {
		s.refreshEGDB()
		return s.k, nil
	}
	if err := s.closeSession(); err != nil {
		s.logf("closing the session of Kalah(%d,%d) %v: %v", s.kkey.pits, s.kkey.seeds, s.kkey.rule, err)
	}
	k, err := kalah.Open(kalah.Config{Pits: key.pits, Seeds: key.seeds, Rule: key.rule,
		Threads: s.opts.Threads, TableSize: s.opts.TableSize,
		EGDBDir: s.opts.EGDBDir, NoEGDB: s.opts.NoEGDB,
		CacheDir: s.opts.CacheDir, NoCache: s.opts.NoCache,
		Progress: s.progress, ProgressEvery: s.opts.ProgressEvery, Log: s.opts.Log,
		AutoEGDB: s.opts.AutoEGDB, AutoEGDBSeeds: s.opts.autoEGDBSeeds, OnEGDBBuild: s.egdbBuild})
	if err != nil {
		s.mu.Lock()
		s.signal() // requests waiting for a session to read the cache through go on
		s.mu.Unlock()
		return nil, err
	}
	s.logf("session opened: Kalah(%d,%d) %v, cache %q", key.pits, key.seeds, key.rule, k.CacheDir())
	s.setSession(k, key)
	s.egdbChecked = time.Now()
	return k, nil
}

// refreshEGDB switches the open session to a deeper endgame database
// when its directory holds one now (kalah.Session.RefreshEGDB: a
// database built or deepened while the server runs), looking at most
// every EGDBCheckEvery, and records the new depth for /api/status. The
// caller holds the slot, so no search runs on the session: the one that
// ran finished on the database it started with, and the next starts on
// the new one. Answers in the cache stay (values are exact whatever the
// database); the session's table starts anew.
func (s *Server) refreshEGDB() {
	every := EGDBCheckEvery
	if s.opts.egdbCheckEvery > 0 {
		every = s.opts.egdbCheckEvery
	}
	if time.Since(s.egdbChecked) < every && !s.deep.built.Swap(false) {
		return
	}
	s.egdbChecked = time.Now()
	k, key := s.k, s.kkey
	switched, err := k.RefreshEGDB() // logs the switch
	if err != nil {
		kept := "without one"
		if d := k.EGDBSeeds(); d >= 0 {
			kept = fmt.Sprintf("with the one of %d seeds", d)
		}
		s.logf("Kalah(%d) %v: a deeper endgame database does not open, searching %s: %v", key.pits, key.rule, kept, err)
	}
	if switched {
		s.noteEGDB(k, key)
	}
}

// Warmed says what Warm prepared.
type Warmed struct {
	TableSize int64         // the table touched
	EGDBSeeds int           // the database opened (its largest slice), -1 for none
	Took      time.Duration // from the slot's taking to the end
}

// Warm opens the session of Kalah(pits, seeds) under rule, as the first
// request for that game would, and touches every page of its table, so
// that the first solve does not pay for the kernel's first touch of the
// table's memory (seconds for a gigabyte of huge pages) or for opening and
// checking the endgame database. It waits for the solve slot like a
// request (without the queue's cap), so requests that come meanwhile
// wait behind it; a request for another game then closes this session.
func (s *Server) Warm(ctx context.Context, pits, seeds int, rule engine.Rule) (Warmed, error) {
	if err := s.acquire(ctx, "", false); err != nil {
		return Warmed{}, err
	}
	defer s.release()
	t0 := time.Now()
	key := gameKey{pits: pits, seeds: seeds, rule: rule}
	s.stat.warming(&key) // /api/status says what it does
	defer s.stat.warming(nil)
	fresh := s.k == nil || s.kkey != key
	k, err := s.session(key)
	if err != nil {
		return Warmed{}, err
	}
	s.stat.warmStage("opening the endgame database")
	if err := s.prepareEGDB(ctx, k, key); err != nil {
		return Warmed{}, err
	}
	s.stat.warmStage("making the table")
	if err := k.Ready(); err != nil {
		return Warmed{}, err
	}
	if fresh { // an open session's table holds answers: keep them
		s.stat.warmStage("touching the table")
		if err := k.ClearTable(); err != nil {
			return Warmed{}, err
		}
	}
	w := Warmed{TableSize: k.TableSize(), EGDBSeeds: k.EGDBSeeds(), Took: time.Since(t0)}
	s.logf("warmed Kalah(%d,%d) %v: %d-byte table touched, endgame database %d seeds, %v", pits, seeds, rule, w.TableSize, w.EGDBSeeds, w.Took.Round(time.Millisecond))
	return w, nil
}

// closeSession closes the open session, if any; the caller holds the slot.
func (s *Server) closeSession() error {
	k := s.k
	if k == nil {
		return nil
	}
	s.setSession(nil, gameKey{})
	return k.Close()
}

// setSession makes k (nil for none) the open session, once no request
// reads the cache through the one open before; the caller holds the slot.
func (s *Server) setSession(k *kalah.Session, key gameKey) {
	s.smu.Lock()
	s.k, s.kkey = k, key
	s.smu.Unlock()
	s.mu.Lock()
	s.open = k != nil
	s.signal()
	s.mu.Unlock()
}

// signal wakes the requests waiting for a session to read the cache
// through (answer, in flight.go). The caller holds s.mu.
func (s *Server) signal() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// solve runs the search f, a full solve (every move's value) of its
// position in the session of its game, once w, which enter put in line,
// has the slot (w nil: the slot is held already). It returns the
// session's cache directory too.
func (s *Server) solve(ctx context.Context, f *flight, w *waiter) (*kalah.Result, string, error) {
	if err := s.await(ctx, w); err != nil {
		return nil, "", err
	}
	defer s.release()
	if s.opts.solving != nil {
		s.opts.solving(f.game.pos)
	}
	if s.opts.beforeSolve != nil {
		s.opts.beforeSolve()
	}
	key, rules, p := f.game.key, f.game.rules, f.game.pos
	k, err := s.session(key)
	if err != nil {
		return nil, "", err
	}
	if err := s.prepareEGDB(ctx, k, key); err != nil { // the database first, reported on /api/status
		return nil, "", err
	}
	cur := newRunning(rules, p)
	cur.f = f
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
	s.logSolve(ctx, key.rule, p, res, err, time.Since(t0))
	return res, k.CacheDir(), err
}

// logSolve logs how a solve of p ended: solved, stopped with its bounds
// (and why), or failed.
func (s *Server) logSolve(ctx context.Context, rule engine.Rule, p engine.Position, res *kalah.Result, err error, took time.Duration) {
	switch {
	case res == nil && err != nil:
		s.logf("solving %v %s %s failed after %.3f s: %v", rule, p, p.ToMove, took.Seconds(), err)
	case res == nil:
	case err != nil || !res.Solved:
		why := "interrupted"
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			why = fmt.Sprintf("stopped at the solve timeout (%v)", s.opts.SolveTimeout)
		case s.isClosed():
			why = "interrupted by the server's shutdown"
		case ctx.Err() != nil:
			why = "cancelled (no request waits for it any more)"
		}
		known := 0
		for _, m := range res.Moves {
			if m.Solved {
				known++
			}
		}
		s.logf("solve of %v %s %s %s after %.3f s: value in [%d, %d], %d of %d moves' values known, %d nodes",
			rule, p, p.ToMove, why, took.Seconds(), res.Lower, res.Upper, known, len(p.Board.MoveList()), res.Stats.Nodes)
	default:
		s.logf("solved %v %s %s in %.3f s (from cache %v)", rule, p, p.ToMove, took.Seconds(), res.FromCache)
	}
}

// isClosed says whether Close has been called.
func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
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
// number of searches waiting, and the place in line of the request named
// id (1 for the next to run, 0 when it is not waiting) and whether the
// running solve is its own (it started it or joined it).
func (s *Server) status(id string) (cur *running, queued, place int, yours bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != "" {
		for i, w := range s.line {
			if w.id == id || w.f.has(id) {
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
	return &c, len(s.line), place, c.f.has(id)
}

func (s *Server) logf(format string, a ...any) {
	if s.opts.Log != nil {
		s.opts.Log.Printf(format, a...)
	}
}
