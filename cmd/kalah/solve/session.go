package solvecmd

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"sync"
	"time"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/solver"
	"golang.org/x/term"
)

// session holds what the positions of one run share: a solver (with its
// table, database and store) per rule set, kept while consecutive
// positions use the same rules, and the progress reporter.
type session struct {
	opts     *Options
	ttBytes  int64
	batch    bool
	progress bool

	rules engine.Rules // of the resources below
	ready bool         // prepare has run for rules
	store *persist.Cache
	sv    *solver.Solver
	db    *egdb.DB

	mu     sync.Mutex    // guards the fields below, read by the progress reporter
	label  string        // the position being solved, for progress lines
	lo, hi int           // its value's widest possible bounds
	last   time.Duration // elapsed time of the last progress line
}

func newSession(opts *Options, ttBytes int64, batch bool) *session {
	s := &session{opts: opts, ttBytes: ttBytes, batch: batch}
	switch {
	case opts.Progress != nil:
		s.progress = *opts.Progress
	case opts.Quiet:
	case opts.JSON:
		f, ok := opts.IO.ErrOut.(*os.File)
		s.progress = ok && term.IsTerminal(int(f.Fd()))
	default:
		s.progress = true
	}
	return s
}

// close releases the solver, the database and the store (flushing it).
func (s *session) close() error {
	if s.sv != nil {
		s.sv.Close()
		s.sv = nil
	}
	if s.db != nil {
		s.db.Close()
		s.db = nil
	}
	var err error
	if s.store != nil {
		err = s.store.Close()
		s.store = nil
	}
	s.ready = false
	return err
}

// prepare readies the resources of r: they are kept while consecutive
// positions use the same rules, and replaced otherwise. The store is
// opened at once (a root record may answer without a search); the solver,
// with its table and database, only when a search is needed.
func (s *session) prepare(r engine.Rules) error {
	if s.ready && s.rules == r {
		return nil
	}
	if err := s.close(); err != nil {
		return err
	}
	s.rules = r
	if !s.opts.NoStore {
		st, err := s.openStore(r)
		if err != nil {
			return err
		}
		s.store = st
	}
	s.ready = true
	return nil
}

// solver returns the solver of the current rules, building it (and
// opening the rules' endgame database) on first use.
func (s *session) solver() (*solver.Solver, error) {
	if s.sv != nil {
		return s.sv, nil
	}
	r := s.rules
	so := solver.Options{TTBytes: s.ttBytes, Threads: s.opts.Threads, Progress: s.report}
	if s.store != nil {
		so.Cache = s.store
	}
	if !s.opts.NoEGDB {
		db, err := s.openEGDB(r)
		if err != nil {
			return nil, err
		}
		if db != nil {
			s.db, so.DB = db, db
		}
	}
	sv, err := solver.New(r, so)
	if err != nil {
		return nil, err
	}
	s.sv = sv
	return sv, nil
}

// openStore opens the persistent store (--store or the default directory)
// for r.
func (s *session) openStore(r engine.Rules) (*persist.Cache, error) {
	dir := s.opts.Store
	if dir == "" {
		d, err := persist.DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	var lg *log.Logger
	if s.opts.Verbose {
		lg = log.New(lockedWriter{s}, "kalah solve: ", 0)
	}
	return persist.Open(dir, r, persist.Options{Log: lg, MinSeeds: s.opts.StoreMinSeeds, MinWork: s.opts.StoreMinWork})
}

// lockedWriter writes to standard error under the session's lock.
type lockedWriter struct{ s *session }

func (w lockedWriter) Write(b []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.opts.IO.ErrOut.Write(b)
}

// openEGDB opens the endgame database of r in --egdb or the default
// directory; nil when none is installed there. A damaged database is an
// error.
func (s *session) openEGDB(r engine.Rules) (*egdb.DB, error) {
	dir := s.opts.EGDB
	if dir == "" {
		d, err := egdb.DefaultDir()
		if err != nil {
			return nil, nil // no home directory: no default database
		}
		dir = d
	}
	ss, err := egdb.Slices(dir, r)
	if err != nil {
		return nil, fmt.Errorf("endgame database: %w", err)
	}
	if len(ss) == 0 || ss[0] != 0 {
		if s.opts.EGDB != "" || s.opts.Verbose {
			s.logf("no endgame database for %v in %s; solving without one", r, dir)
		}
		return nil, nil
	}
	t0 := time.Now()
	db, err := egdb.Open(dir, r)
	if err != nil {
		return nil, fmt.Errorf("endgame database: %w (solve without it with --no-egdb)", err)
	}
	if s.opts.Verbose {
		s.logf("endgame database %s: slices 0..%d, opened in %.2f s", egdb.RuleDir(dir, r), db.MaxSeeds(), time.Since(t0).Seconds())
	}
	return db, nil
}

// logf writes one line to standard error.
func (s *session) logf(format string, a ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.opts.IO.ErrOut, "kalah solve: "+format+"\n", a...)
}

// reportEvery spaces progress lines: the solver reports after every pass
// as well as on its timer.
const reportEvery = 2 * time.Second

// report prints a progress line, at most one per reportEvery; the solver
// calls it from its own goroutine.
func (s *session) report(p solver.Progress) {
	if !s.progress {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Elapsed < s.last+reportEvery {
		return
	}
	s.last = p.Elapsed
	lo, hi := max(p.Lower, s.lo), min(p.Upper, s.hi)
	nps := 0.0
	if sec := p.Elapsed.Seconds(); sec > 0 {
		nps = float64(p.Nodes) / sec
	}
	fmt.Fprintf(s.opts.IO.ErrOut, "%s[%7.1fs] %s: value in [%s, %s]; %s nodes, %.1f M nodes/s\n",
		s.label, p.Elapsed.Seconds(), p.Stage, signed(lo), signed(hi), group(p.Nodes), nps/1e6)
}

// solve solves one position and prints its result: from the store's
// root record when it holds one (unless --force), else by a search, whose
// answer is then saved as a root record.
func (s *session) solve(ctx context.Context, j job) error {
	if err := s.prepare(j.rules); err != nil {
		return err
	}
	if s.store != nil && !s.opts.Force {
		if rec := s.fromStore(j); rec != nil {
			return s.print(rec)
		}
	}
	sv, err := s.solver()
	if err != nil {
		return err
	}
	b := j.pos.Board
	s.mu.Lock()
	s.label = ""
	if s.batch {
		s.label = j.pos.String() + " " + j.pos.ToMove.String() + " "
	}
	s.lo, s.hi = b.StoreDiff()-b.Seeds(), b.StoreDiff()+b.Seeds()
	s.last = 0
	s.mu.Unlock()
	solve := sv.SolveEveryMove
	if s.opts.ValueOnly {
		solve = sv.SolveBestMove
	}
	res, err := solve(ctx, j.pos)
	if err != nil && !errors.Is(err, solver.ErrInterrupted) {
		return err
	}
	rec := s.record(j, res, err)
	// A root record holds every move's value; a --value-only answer is
	// not one (a stored full record still answers --value-only).
	if err == nil && s.store != nil && !s.opts.ValueOnly {
		if perr := s.saveRoot(j, rec); perr != nil {
			return perr
		}
	}
	if perr := s.print(rec); perr != nil {
		return perr
	}
	if err != nil {
		return s.interrupted(rec)
	}
	return nil
}

// interrupted closes the store, so that what was proven is on disk, and
// returns the error that says how to resume.
func (s *session) interrupted(rec *record) error {
	msg := fmt.Sprintf("value in [%s, %s]", signed(rec.Lower), signed(rec.Upper))
	if rec.Solved {
		msg = fmt.Sprintf("value %s; the principal variation was cut short", signed(rec.Value))
	}
	if s.store != nil {
		dir := s.store.Dir()
		if err := s.close(); err != nil {
			return fmt.Errorf("%w (%s), and the store could not be saved: %v", cmdutil.ErrInterrupted, msg, err)
		}
		return fmt.Errorf("%w (%s); the store %s keeps the work proven so far: run the same command again to resume", cmdutil.ErrInterrupted, msg, dir)
	}
	return fmt.Errorf("%w (%s)", cmdutil.ErrInterrupted, msg)
}
