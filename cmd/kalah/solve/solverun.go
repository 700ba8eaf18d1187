package solvecmd

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// solveRun holds what the positions of one run share: a library session
// (table, database, cache) kept while consecutive positions use the same
// rules, and the progress reporter.
type solveRun struct {
	opts      *Options
	tableSize int64 // --table-size, 0 to let the library session size the table
	seeds     int   // the most seeds on a board to solve, for the policy
	batch     bool
	progress  bool

	rules engine.Variant // of k
	k     *kalah.Session

	mu    sync.Mutex    // guards the fields below, read by the progress reporter
	label string        // the position being solved, for progress lines
	last  time.Duration // elapsed time of the last progress line
	bar   *cmdutil.Bar  // an automatic database build's, while it runs
}

func newSolveRun(opts *Options, tableSize int64, seeds int, batch bool) *solveRun {
	s := &solveRun{opts: opts, tableSize: tableSize, seeds: seeds, batch: batch}
	switch {
	case opts.Progress != nil:
		s.progress = *opts.Progress
	case opts.Quiet:
	case opts.JSON:
		s.progress = cmdutil.IsTerminal(opts.IO.ErrOut)
	default:
		s.progress = true
	}
	return s
}

// close closes the library session, so that the cache is on disk.
func (s *solveRun) close() error {
	if s.k == nil {
		return nil
	}
	err := s.k.Close()
	s.k = nil
	return err
}

// prepare opens the library session of j's rules, keeping the open one
// while consecutive positions use the same rules.
func (s *solveRun) prepare(j job) error {
	if s.k != nil && s.rules == j.rules {
		return nil
	}
	if err := s.close(); err != nil {
		return err
	}
	// Seeds is a start position's n, else 1 (n only names the start);
	// readJobs has checked that 2mn fits the board.
	cfg := kalah.Config{Pits: j.rules.Pits, Seeds: max(j.seeds, 1), Rule: j.rules.Rule,
		Threads: s.opts.Threads, TableSize: s.tableSize, TableSeeds: s.seeds, TableValueOnly: s.opts.ValueOnly,
		EGDBDir: s.opts.EGDB, NoEGDB: s.opts.NoEGDB,
		CacheDir: s.opts.Cache, NoCache: s.opts.NoCache, Recompute: s.opts.Force,
		CacheMinSeeds: s.opts.CacheMinSeeds, CacheMinWork: s.opts.CacheMinWork,
		Progress: s.report, AutoEGDB: true, OnEGDBBuild: s.egdbBuild}
	if s.opts.Verbose {
		cfg.Log = log.New(lockedWriter{s}, "kalah solve: ", 0)
	}
	k, err := kalah.Open(cfg)
	if err != nil {
		return err
	}
	s.k, s.rules = k, j.rules
	return nil
}

// lockedWriter writes to standard error under the run's lock.
type lockedWriter struct{ s *solveRun }

func (w lockedWriter) Write(b []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.opts.IO.ErrOut.Write(b)
}

// reportEvery spaces progress lines: the solver reports after every pass
// as well as on its timer.
const reportEvery = 2 * time.Second

// report prints a progress line, at most one per reportEvery; the solver
// calls it from its own goroutine.
func (s *solveRun) report(p solver.Progress) {
	if !s.progress {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Elapsed < s.last+reportEvery {
		return
	}
	s.last = p.Elapsed
	nps := 0.0
	if sec := p.Elapsed.Seconds(); sec > 0 {
		nps = float64(p.Nodes) / sec
	}
	fmt.Fprintf(s.opts.IO.ErrOut, "%s[%7.1fs] %s: value in [%s, %s]; %s nodes, %.1f M nodes/s%s\n",
		s.label, p.Elapsed.Seconds(), p.Stage, results.Signed(p.Lower), results.Signed(p.Upper), results.Group(p.Nodes), nps/1e6,
		loadingNote(kalah.EGDBLoading()))
}

// loadingNote is what a progress line adds while the endgame database's
// files are read into memory in the background: until they are, a search
// waits for the disk at each page it touches first, and its rate says
// nothing about the search.
func loadingNote(done, total int64) string {
	if done >= total {
		return ""
	}
	return fmt.Sprintf("; reading the endgame database into memory, %s of %s", cmdutil.FormatBytes(done), cmdutil.FormatBytes(total))
}

// solve solves one position and prints its result.
func (s *solveRun) solve(ctx context.Context, j job) error {
	if err := s.prepare(j); err != nil {
		return err
	}
	s.mu.Lock()
	s.label = ""
	if s.batch {
		s.label = j.pos.String() + " " + j.pos.ToMove.String() + " "
	}
	s.last = 0
	s.mu.Unlock()
	solve := s.k.Solve
	if s.opts.ValueOnly {
		solve = s.k.BestMove
	}
	res, err := solve(ctx, j.pos)
	if res == nil {
		return err
	}
	out := s.output(j, res, err)
	if perr := s.print(out); perr != nil {
		return perr
	}
	if err != nil {
		if !errors.Is(err, solver.ErrInterrupted) {
			return err
		}
		return s.interrupted(res)
	}
	return nil
}

// interrupted closes the cache, so that what was proven is on disk, and
// returns the error that says how to resume.
func (s *solveRun) interrupted(res *kalah.Result) error {
	msg := fmt.Sprintf("value in [%s, %s]", results.Signed(res.Lower), results.Signed(res.Upper))
	if res.Solved {
		msg = fmt.Sprintf("value %s; the principal variation was cut short", results.Signed(res.Value))
	}
	if dir := s.k.CacheDir(); dir != "" {
		if err := s.close(); err != nil {
			return fmt.Errorf("%w (%s), and the cache could not be saved: %v", cmdutil.ErrInterrupted, msg, err)
		}
		return fmt.Errorf("%w (%s); the cache %s keeps the work proven so far: run the same command again to resume", cmdutil.ErrInterrupted, msg, dir)
	}
	return fmt.Errorf("%w (%s)", cmdutil.ErrInterrupted, msg)
}
