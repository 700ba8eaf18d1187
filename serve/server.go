// Package serve is the web explorer behind 'kalah serve': a page that
// draws the board and shows every legal move's exact value, a play mode
// against the computer, and the JSON API the page (or a bot) calls.
//
// Every value comes from a library session (kalah.Open), the same one
// 'kalah solve' opens, with the persistent store as its cache. The server
// keeps one session open at a time, for the game of the last request: the
// store's directory can be held by one session only, so a request for
// another game (pits, seeds or rule) closes the open session and opens
// the new one, which costs a store open and a fresh table.
//
// Heavy work is serialised: at most one solve runs at a time (a solve
// already uses every core the session has), the others wait in line, and
// past Options.MaxQueue waiting requests a new one is turned away with
// HTTP 503. /api/progress shows the running solve's proven bounds, so the
// page can show them narrowing while it waits.
package serve

import (
	"context"
	"errors"
	"log"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// Options configure a server.
type Options struct {
	// StoreDir is the persistent store's directory; "" means the default
	// (persist.DefaultDir). NoStore uses none.
	StoreDir string
	NoStore  bool
	// EGDBDir is the endgame-database directory ("" means the default,
	// used when it holds a database); NoEGDB uses none.
	EGDBDir string
	NoEGDB  bool
	// Threads and TableBytes are the sessions' search workers and table
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
	// Log, if not nil, receives the sessions opened and the solves run.
	Log *log.Logger

	// beforeSolve, if set, runs while the solve slot is held, before the
	// session is used: tests hold the slot with it.
	beforeSolve func()
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

	slot    chan struct{} // holds one token while a solve runs
	waiting atomic.Int64  // requests waiting for the slot

	// Owned by the holder of slot.
	k    *kalah.Session
	kkey gameKey

	mu   sync.Mutex // guards cur
	cur  *running   // the running solve, nil when idle
	next int64      // the ticket of the next solve
}

// gameKey names a session's game.
type gameKey struct {
	pits, seeds int
	rule        engine.Capture
}

// running is what /api/progress reports of the solve in progress.
type running struct {
	Ticket   int64     `json:"ticket"`
	Rule     string    `json:"rule"`
	Pits     int       `json:"pits"`
	Position string    `json:"position"`
	ToMove   string    `json:"to_move"`
	Stage    string    `json:"stage"`
	Lower    int       `json:"lower"`
	Upper    int       `json:"upper"`
	Nodes    int64     `json:"nodes"`
	Elapsed  float64   `json:"elapsed"` // seconds
	started  time.Time //
	lo, hi   int       // the widest bounds: the store difference give or take the seeds on the board
}

// New returns a server; Close releases its session.
func New(opts Options) *Server {
	if opts.MaxQueue == 0 {
		opts.MaxQueue = DefaultMaxQueue
	}
	if opts.ProgressEvery == 0 {
		opts.ProgressEvery = 250 * time.Millisecond
	}
	s := &Server{opts: opts, slot: make(chan struct{}, 1), mux: http.NewServeMux()}
	s.routes()
	return s
}

// ServeHTTP answers a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close waits for the running solve and closes the open session, so that
// what it proved is in the store.
func (s *Server) Close() error {
	s.slot <- struct{}{}
	defer func() { <-s.slot }()
	return s.closeSession()
}

// acquire takes the solve slot, waiting in line when it is taken; it
// fails with ErrBusy when the line is full and with ctx's error when the
// request goes away first.
func (s *Server) acquire(ctx context.Context) error {
	select {
	case s.slot <- struct{}{}:
		return nil
	default:
	}
	if n := s.waiting.Add(1); s.opts.MaxQueue < 0 || n > int64(s.opts.MaxQueue) {
		s.waiting.Add(-1)
		return ErrBusy
	}
	defer s.waiting.Add(-1)
	select {
	case s.slot <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) release() { <-s.slot }

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
		CacheDir: s.opts.StoreDir, NoCache: s.opts.NoStore,
		Progress: s.progress, ProgressEvery: s.opts.ProgressEvery, Log: s.opts.Log})
	if err != nil {
		return nil, err
	}
	s.logf("session opened: Kalah(%d,%d) %v, store %q", key.pits, key.seeds, key.rule, k.CacheDir())
	s.k, s.kkey = k, key
	return k, nil
}

func (s *Server) closeSession() error {
	if s.k == nil {
		return nil
	}
	err := s.k.Close()
	s.k = nil
	return err
}

// solve runs a full solve (every move's value) of p in the session of
// key, waiting for the slot. It returns the session's store directory too.
func (s *Server) solve(ctx context.Context, key gameKey, p engine.Position) (*kalah.Result, string, error) {
	if err := s.acquire(ctx); err != nil {
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
	b := p.Board
	s.mu.Lock()
	s.next++
	s.cur = &running{Ticket: s.next, Rule: key.rule.String(), Pits: p.Pits, Position: p.String(), ToMove: p.ToMove.String(),
		Stage: "solve", Lower: b.StoreDiff() - b.Seeds(), Upper: b.StoreDiff() + b.Seeds(), started: time.Now()}
	s.cur.lo, s.cur.hi = s.cur.Lower, s.cur.Upper
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
		s.logf("solved %v %s %s in %.3f s (from store %v)", key.rule, p, p.ToMove, time.Since(t0).Seconds(), res.FromCache)
	}
	return res, k.CacheDir(), err
}

// progress records a progress report of the running solve; the solver
// calls it from its own goroutine.
func (s *Server) progress(p solver.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return
	}
	s.cur.Stage = p.Stage
	s.cur.Nodes = p.Nodes
	// The bounds are the stage's: the root's value, or one move's while
	// every move's value is being pinned down.
	// Before a stage has proven anything its bounds are the solver's
	// infinities: show the seeds' bounds instead.
	s.cur.Lower, s.cur.Upper = max(p.Lower, s.cur.lo), min(p.Upper, s.cur.hi)
}

// status is a copy of the running solve's state, nil when idle, and the
// number of requests waiting.
func (s *Server) status() (*running, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.waiting.Load()
	if s.cur == nil {
		return nil, q
	}
	c := *s.cur
	c.Elapsed = time.Since(c.started).Seconds()
	return &c, q
}

func (s *Server) logf(format string, a ...any) {
	if s.opts.Log != nil {
		s.opts.Log.Printf(format, a...)
	}
}
