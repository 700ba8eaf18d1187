package kalah

import (
	"context"
	"fmt"
	"runtime"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// autoEGDBPositions caps the database a session builds by itself, so that
// building it costs less than the first solve it speeds up (record
// egdb-auto-depth in bench/data).
var autoEGDBPositions uint64 = 250_000_000

// AutoEGDBSeeds is the depth of the endgame database that a session with
// Config.AutoEGDB builds by itself for boards of m pits a side: the
// largest seed count whose database holds at most 2.5*10^8 positions. For
// m = 6 that is 20 seeds: 225.8 M positions, 110 MB packed. The deeper
// database pays on the first solve of Kalah(6,4), its build included,
// against the 18 seeds of a cap of 10^8 (record egdb-auto-depth).
func AutoEGDBSeeds(m int) int {
	if m < 1 || m > engine.MaxPits {
		return 0
	}
	s := 0
	for s < 255 && tt.Binom(s+1+2*m, 2*m) <= autoEGDBPositions {
		s++
	}
	return s
}

// EGDBBuild reports an automatic database build (Config.OnEGDBBuild):
// once when it starts (Done = 0), as positions are done, and once when it
// ends (Finished, with Err set if it failed).
type EGDBBuild struct {
	Dir       string         // the database directory
	Variant   engine.Variant // whose database
	MaxSeeds  int            // built up to this seed count
	Positions int64          // positions to build
	Bytes     int64          // their size on disk
	Done      int64          // positions built so far
	Finished  bool
	Err       error
	// Background is set for a deepening (Session.DeepenEGDB), which
	// searches do not wait for.
	Background bool
}

// autoEGDB builds the default endgame database of the session's rules up
// to AutoEGDBSeeds before the first search, when Config.AutoEGDB asks for
// it, no directory was named, the board is big enough to gain from it (at
// least twice the database's seeds) and the default directory holds a
// shallower one or none. Slices already on disk are kept, so an
// interrupted build resumes on the next run.
//
// At twice the seeds the build pays even for one solve (every move's value
// of Kalah(5,5) with the 25-seed five-pit database, record
// egdb-auto-twice); at 1.8 times (Kalah(6,3), 36 seeds) the search without
// a database costs less than the 20-seed six-pit build.
func (k *Session) autoEGDB(ctx context.Context, seeds int) error {
	if !k.cfg.AutoEGDB || k.cfg.NoEGDB || k.cfg.EGDBDir != "" || k.dbSet || k.sv != nil {
		return nil
	}
	depth := k.AutoEGDBDepth()
	if seeds < 2*depth {
		return nil
	}
	dir, err := egdb.DefaultDir()
	if err != nil {
		return nil // no data directory: solve without a database
	}
	missing := egdb.Missing(dir, k.rules, depth)
	if len(missing) == 0 {
		return nil
	}
	db, err := k.buildEGDB(ctx, dir, depth, missing, false)
	if err != nil {
		return err
	}
	k.db, k.dbSet = db, true
	k.logf("endgame database %s: built slices 0..%d", egdb.RuleDir(dir, k.rules), depth)
	return nil
}

// buildEGDB builds the slices missing of the session's database in dir
// up to depth, reporting to Config.OnEGDBBuild (as a deepening when
// background is set), and returns the database.
func (k *Session) buildEGDB(ctx context.Context, dir string, depth int, missing []int, background bool) (*egdb.DB, error) {
	x, err := egdb.NewIndex(k.rules.Pits, depth)
	if err != nil {
		return nil, err
	}
	ev := EGDBBuild{Dir: egdb.RuleDir(dir, k.rules), Variant: k.rules, MaxSeeds: depth, Background: background}
	for _, s := range missing {
		ev.Positions += x.Size(s)
		ev.Bytes += egdb.PackedBytes(x.Size(s))
	}
	report := func(ev EGDBBuild) {
		if k.cfg.OnEGDBBuild != nil {
			k.cfg.OnEGDBBuild(ev)
		}
	}
	report(ev)
	threads := k.cfg.Threads
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	opts := egdb.Options{Threads: threads}
	var progress chan int64
	var drained chan struct{}
	if k.cfg.OnEGDBBuild != nil {
		// The build's threads report concurrently; one goroutine sums
		// their reports and passes them on, in order.
		progress, drained = make(chan int64, 64), make(chan struct{})
		go func() {
			defer close(drained)
			e := ev
			for n := range progress {
				e.Done += n
				report(e)
			}
		}()
		opts.Progress = func(n int64) { progress <- n }
	}
	db, err := egdb.BuildDir(ctx, dir, k.rules, depth, opts)
	if progress != nil {
		close(progress)
		<-drained
	}
	ev.Finished, ev.Err = true, err
	if err != nil {
		report(ev)
		return nil, fmt.Errorf("building the endgame database in %s: %w (the slices built so far are kept; solve without one with --no-egdb)", ev.Dir, err)
	}
	ev.Done = ev.Positions
	report(ev)
	return db, nil
}

// AutoEGDBDepth is the depth of the database Config.AutoEGDB builds for
// the session's game: Config.AutoEGDBSeeds, or AutoEGDBSeeds(Pits).
func (k *Session) AutoEGDBDepth() int {
	if k.cfg.AutoEGDBSeeds > 0 {
		return k.cfg.AutoEGDBSeeds
	}
	return AutoEGDBSeeds(k.rules.Pits)
}

// PrepareEGDB makes the session's endgame database ready now, as the
// first solve of the game's start would: with Config.AutoEGDB it builds
// the default database when it is missing (reporting to OnEGDBBuild),
// then it opens the database, so that EGDBSeeds tells its depth. A
// server calls it before its first search, so that the build happens
// while it says so rather than inside a request. It does nothing once
// the database is open or a search has run.
func (k *Session) PrepareEGDB(ctx context.Context) error {
	if err := k.autoEGDB(ctx, 2*k.rules.Pits*k.cfg.Seeds); err != nil {
		return err
	}
	if k.sv != nil {
		return nil
	}
	_, err := k.EGDB()
	return err
}

// deepenPositions caps the database a deepening builds: for m = 6 it
// allows 28 seeds, 5.6*10^9 positions, 2.9 GB packed a rule.
var deepenPositions uint64 = 6_000_000_000

// DefaultDeepenSeeds is the depth 'kalah serve' deepens the default
// database to in the background (DeepenDepth caps it by the board).
const DefaultDeepenSeeds = 28

// DeepenDepth is the depth a deepening to seeds builds for the session's
// game: seeds, but no deeper than the largest database of its pits within
// 6*10^9 positions (about 3 GB packed; m = 6: 28 seeds) and than the
// seeds of the game.
func (k *Session) DeepenDepth(seeds int) int {
	m := k.rules.Pits
	s := 0
	for s < seeds && tt.Binom(s+1+2*m, 2*m) <= deepenPositions {
		s++
	}
	return min(s, 2*m*k.cfg.Seeds)
}

// DeepenEGDB deepens the session's default endgame database to
// DeepenDepth(seeds), building the slices the default directory lacks,
// when the session builds its database by itself (Config.AutoEGDB, no
// EGDBDir) and its game is one AutoEGDB builds for; it reports the build
// to Config.OnEGDBBuild with Background set, and does nothing when there
// is nothing to build (it returns false then). Slices already on disk are
// kept, so an interrupted deepening resumes on the next call.
//
// It only writes the directory: the session goes on searching with the
// database it has, and switches to the deeper one at RefreshEGDB. It
// reads nothing of the session but its configuration, so it may run in
// another goroutine while the session searches; the build takes
// Config.Threads threads beside the search's.
func (k *Session) DeepenEGDB(ctx context.Context, seeds int) (bool, error) {
	if !k.cfg.AutoEGDB || k.cfg.NoEGDB || k.cfg.EGDBDir != "" {
		return false, nil
	}
	auto := k.AutoEGDBDepth()
	if 2*k.rules.Pits*k.cfg.Seeds < 2*auto {
		return false, nil
	}
	depth := k.DeepenDepth(seeds)
	if depth <= auto {
		return false, nil
	}
	dir, err := egdb.DefaultDir()
	if err != nil {
		return false, nil
	}
	missing := egdb.Missing(dir, k.rules, depth)
	if len(missing) == 0 {
		return false, nil
	}
	db, err := k.buildEGDB(ctx, dir, depth, missing, true)
	if err != nil {
		return true, err
	}
	k.logf("endgame database %s: deepened to slices 0..%d", egdb.RuleDir(dir, k.rules), depth)
	return true, db.Close()
}
