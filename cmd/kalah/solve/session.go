package solvecmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
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

	rules engine.Rules
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

// close releases the solver and the database.
func (s *session) close() {
	if s.sv != nil {
		s.sv.Close()
		s.sv = nil
	}
	if s.db != nil {
		s.db.Close()
		s.db = nil
	}
}

// solverFor returns a solver for r, building it (and opening r's database)
// unless the previous position used the same rules.
func (s *session) solverFor(r engine.Rules) (*solver.Solver, error) {
	if s.sv != nil && s.rules == r {
		return s.sv, nil
	}
	s.close()
	so := solver.Options{TTBytes: s.ttBytes, Threads: s.opts.Threads, Progress: s.report}
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
	s.sv, s.rules = sv, r
	return sv, nil
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

// solve solves one position and prints its result.
func (s *session) solve(ctx context.Context, j job) error {
	sv, err := s.solverFor(j.rules)
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
	res, err := sv.Solve(ctx, j.pos)
	if err != nil && !errors.Is(err, solver.ErrInterrupted) {
		return err
	}
	rec := s.record(j, res, err)
	if perr := s.print(rec); perr != nil {
		return perr
	}
	return err
}
