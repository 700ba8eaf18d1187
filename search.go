package kalah

import (
	"context"
	"runtime"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// The session's search a test at a time, for the front ends that drive it
// piece by piece rather than solving positions: a campaign's coordinator,
// its estimate and its workers (null-window tests of a board with their
// windows, first guesses), the web explorer's warm-up and the sweep's
// records (the threads, the table and the database a search ran with).
// They go through the session, so that the table, the endgame database
// and the second level (cache or shared table) are the session's, opened
// by its one policy, as for Solve.

// Ready builds the session's table and opens its endgame database now, as
// the first search would (a session does both on its first search), so
// that Threads, TableSize and EGDBSeeds say what the searches will run
// with and a failure to open the database shows before any work starts.
func (k *Session) Ready() error {
	_, err := k.build()
	return err
}

// Threads is the number of search threads: Config.Threads, or every core.
// It, TableSize and EGDBSeeds may be called while a Team's tests run.
func (k *Session) Threads() int {
	if k.sv != nil {
		return k.sv.Threads()
	}
	if k.cfg.Threads > 0 {
		return k.cfg.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// EGDBSeeds is the depth of the endgame database the session's searches
// consult (its largest slice), -1 for none. It is known once the table is
// built (Ready, or the first search); before that it is -1 unless EGDB
// has opened the database.
func (k *Session) EGDBSeeds() int {
	if k.sv != nil {
		return k.sv.EGDBSeeds()
	}
	if k.db != nil {
		return k.db.MaxSeeds()
	}
	return -1
}

// Stats are the search's counters summed over every search on the
// session's table so far (since Open, or the last Reset): its null-window
// tests, guesses and solves. They are zero before the first search.
// Counting the nodes of one piece of work is taking Stats().Nodes before
// and after.
func (k *Session) Stats() solver.Stats {
	if k.sv == nil {
		return solver.Stats{}
	}
	return k.sv.Stats()
}

// TableUsed estimates how many of the table's entries hold a position,
// from a sample of the table; 0 before the table is built.
func (k *Session) TableUsed() int {
	if k.sv == nil {
		return 0
	}
	return k.sv.Table().Used()
}

// ClearTable empties the table, keeping its memory (Reset drops it; the
// next search then builds a new one). On a table just built it writes
// every page: the kernel's first touch of the table's memory (seconds for
// a gigabyte of huge pages) is paid now rather than in the first search.
// It builds the table first if need be.
func (k *Session) ClearTable() error {
	sv, err := k.build()
	if err != nil {
		return err
	}
	sv.Table().Clear()
	return nil
}

// NullWindow tests board b (the side to move's view, its value relative
// to its stores) against gamma at full depth: it returns a fail-soft
// bound v, v >= gamma meaning "value >= v" and v < gamma meaning "value
// <= v", both proven; nodes is what the test searched. It is the unit of
// a campaign: the question whether a position's value reaches a window,
// which a proof procedure above it asks again with other windows. The
// test runs on every thread over the session's table, which keeps what it
// learns for later tests and solves. When ctx ends first it returns an
// error wrapping solver.ErrInterrupted.
func (k *Session) NullWindow(ctx context.Context, b engine.Board, gamma int) (v int, nodes int64, err error) {
	sv, err := k.build()
	if err != nil {
		return 0, 0, err
	}
	return sv.NullWindow(ctx, b, gamma)
}

// Guess is a heuristic value of board b (relative to its stores) for a
// first window: the depth-limited MTD(f) that a full solve deepens with,
// at depths 3, 6, ... up to depth, which also leaves good moves in the
// table. It is not a proven bound. The error is only the session's
// failure to build its table or open its database.
func (k *Session) Guess(ctx context.Context, b engine.Board, depth int) (int, error) {
	sv, err := k.build()
	if err != nil {
		return 0, err
	}
	return sv.Guess(ctx, b, depth), nil
}

// Team returns a team over the session's threads and table, for the
// null-window tests of several goroutines at once (a campaign worker's
// units, which come and go on their own): each test owns a thread, and a
// thread with no test of its own helps a running one (solver.Team). While
// the team is in use the session must run nothing else; Threads,
// TableSize and EGDBSeeds may still be read.
func (k *Session) Team() (*solver.Team, error) {
	sv, err := k.build()
	if err != nil {
		return nil, err
	}
	return sv.Team(), nil
}
