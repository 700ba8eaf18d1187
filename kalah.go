// Package kalah is the toolkit's library front: one session that solves
// Kalah positions exactly, the way every command, the web explorer and a
// distributed worker do it.
//
// A session is opened for one game, Kalah(m,n) under one capture rule. It
// owns everything a solve needs and applies one policy to each:
//
//   - the transposition table, sized for the game and its endgame database
//     by solver.DefaultTableSizeFor (at most a quarter of memory or 1 GiB,
//     less for small games and deep databases), built on the first search
//     and kept for the session's later ones;
//   - the endgame database of the rule installed in the default directory
//     (egdb.DefaultDir, see 'kalah egdb path') or in Config.EGDBDir, used
//     when there is one (RefreshEGDB switches to a deeper one written
//     there since);
//   - the cache (package persist) in the default directory or
//     Config.CacheDir: proven entries survive the process, a position
//     solved once is answered from the cache's root record at once, and a
//     solve interrupted or killed resumes from the checkpoint of its table
//     (checkpoint.go).
//
// The smallest use:
//
//	k, err := kalah.Open(kalah.Config{Pits: 6, Seeds: 4, Rule: kalah.NoEmptyCapture})
//	if err != nil { ... }
//	defer k.Close()
//	res, err := k.Solve(ctx, k.Start()) // res.Value, res.Moves, res.Best, res.PV
//
// The front ends that drive the search a test at a time, as a campaign's
// coordinator and workers do, use the session's NullWindow, Guess and
// Team (search.go), so that the table, the database and the cache stay
// the session's. The three- and four-player game has a sibling session,
// PlayersSession (OpenPlayers), with the table policy of package players.
//
// Values are final store differences under perfect play for the side to
// move, counting what the stores already hold. Every result carries a
// results.Record: the form in which a solved position is printed
// ('kalah solve --json'), kept in the cache and committed in
// results/data, with how it was computed.
package kalah

import (
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/solver"
)

// errNoCache: an opening book needs the cache.
var errNoCache = errors.New("an opening book lives in the cache: open the session with one (not NoCache)")

// Rule is a capture convention.
type Rule = engine.Rule

// The two capture conventions (docs/rules.md).
const (
	// NoEmptyCapture is the rule sheets' rule, the default: a last seed in
	// an own empty pit captures only when the opposite pit holds seeds.
	NoEmptyCapture = engine.NoEmptyCapture
	// EmptyCapture is the rule of Irving, Donkers & Uiterwijk (2000): the
	// last seed is banked even when the opposite pit is empty.
	EmptyCapture = engine.EmptyCapture
)

// Config says which game a session is for and where its resources are.
// The zero value is Kalah(6,4) under no-empty-capture with every default.
type Config struct {
	Pits  int  // m, pits per side; 0 means 6
	Seeds int  // n, seeds per pit at the start; 0 means 4
	Rule  Rule // capture convention; the zero value is NoEmptyCapture

	// Threads is the number of search threads; 0 means all cores.
	Threads int
	// TableSize is the transposition table's size; 0 means the one
	// policy, solver.DefaultTableSizeFor(Pits, TableSeeds, the endgame
	// database's depth) (DefaultTableSizeForValue with TableValueOnly),
	// applied when the first search builds the table.
	TableSize int64
	// TableSeeds is the most seeds on a board the session will search,
	// for the policy; 0 means the game's start, 2*Pits*Seeds.
	TableSeeds int
	// TableValueOnly sizes the policy's table for value-only solves.
	TableValueOnly bool

	// EGDBDir is the endgame-database directory; "" means the default
	// (egdb.DefaultDir), used only when it holds a database of the rule.
	// A database named explicitly must exist.
	EGDBDir string
	NoEGDB  bool // use no endgame database

	// CacheDir is the cache's directory; "" means the default
	// (persist.DefaultDir).
	CacheDir string
	NoCache  bool // neither read nor write a cache
	// Recompute solves again even when the cache or the opening book
	// holds the answer.
	Recompute bool
	// NoBook leaves out the opening book built into the binary (package
	// book), which otherwise answers the positions near the start of its
	// games that the cache does not.
	NoBook bool
	// Shared, if not nil, is the table's second level in place of the
	// cache (a campaign worker's shared table, kept in a
	// JetStream bucket); it needs NoCache.
	Shared solver.Cache
	// CacheMinSeeds and CacheMinWork override the cache's thresholds
	// (persist.Options); 0 keeps the defaults.
	CacheMinSeeds, CacheMinWork int
	// CheckpointEvery is the shortest time between two saves of a running
	// solve's table into the cache, for a later solve of the same position
	// to resume from (checkpoint.go), and the least time a solve must have
	// run to be saved when it is interrupted; 0 means
	// DefaultCheckpointEvery, a negative value never.
	CheckpointEvery time.Duration

	// Progress, if not nil, is called from another goroutine every
	// ProgressEvery (default 2 s) while a search runs.
	Progress      func(solver.Progress)
	ProgressEvery time.Duration
	// AutoEGDB lets the session build the endgame database it uses when
	// none is there yet: before the first search of a board with more
	// than twice AutoEGDBSeeds(Pits) seeds, if EGDBDir is "" and the
	// default directory holds no database of the rule that deep, it builds
	// one to AutoEGDBSeeds there (m = 6: 20 seeds, 110 MB)
	// and reports the build to OnEGDBBuild. Later sessions find it.
	AutoEGDB    bool
	OnEGDBBuild func(EGDBBuild)
	// AutoEGDBSeeds, if positive, is the depth AutoEGDB builds to in
	// place of AutoEGDBSeeds(Pits) (tests build a tiny database with it).
	AutoEGDBSeeds int
	// Log, if not nil, receives what the session opened: the database and
	// its depth, the cache and its options.
	Log *log.Logger
}

// Session solves positions of one game. It is not safe for concurrent use:
// a search already runs on every core the session was given.
type Session struct {
	cfg   Config
	rules engine.Variant
	tb    int64

	cache *persist.Cache // nil with NoCache
	db    *egdb.DB       // nil until the first search, or when none
	dbSet bool           // the database has been looked for
	sv    *solver.Solver // nil until the first search
	// dbFailed stamps the slice files of the deeper database that
	// RefreshEGDB failed to open (filesStamp), "" when none did.
	dbFailed string

	nodes   atomic.Int64 // the running search's nodes, from its progress reports
	resumed bool         // the last solve started from a checkpoint
}

// Open opens a session: it checks the game and opens the cache (an error
// names the cause: another process holds it, the directory is not a
// cache, the disk refuses). The table and the endgame database are
// made ready on the first search.
func Open(cfg Config) (*Session, error) {
	if cfg.Pits == 0 {
		cfg.Pits = 6
	}
	if cfg.Seeds == 0 {
		cfg.Seeds = 4
	}
	if cfg.Threads < 0 {
		return nil, fmt.Errorf("threads must be at least 1, got %d", cfg.Threads)
	}
	rules := engine.Variant{Pits: cfg.Pits, Rule: cfg.Rule}
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	if cfg.Seeds < 1 || 2*cfg.Pits*cfg.Seeds > engine.MaxSeeds {
		return nil, fmt.Errorf("Kalah(%d,%d) does not fit the board: at most %d seeds in all", cfg.Pits, cfg.Seeds, engine.MaxSeeds)
	}
	if cfg.Shared != nil && !cfg.NoCache {
		return nil, errors.New("a session with a shared table has no cache: set NoCache")
	}
	k := &Session{cfg: cfg, rules: rules, tb: cfg.TableSize}
	if !cfg.NoCache {
		dir := cfg.CacheDir
		if dir == "" {
			d, err := persist.DefaultDir()
			if err != nil {
				return nil, err
			}
			dir = d
		}
		c, err := persist.Open(dir, rules, persist.Options{Log: cfg.Log, MinSeeds: cfg.CacheMinSeeds, MinWork: cfg.CacheMinWork})
		if err != nil {
			return nil, err
		}
		k.cache = c
	}
	return k, nil
}

// Close releases the table and the database and closes the cache, so that
// everything proven is on disk. The session must not be used after.
func (k *Session) Close() error {
	if k.sv != nil {
		k.sv.Close()
		k.sv = nil
	}
	var errs []error
	if k.db != nil {
		errs = append(errs, k.db.Close())
		k.db = nil
	}
	if k.cache != nil {
		errs = append(errs, k.cache.Close())
		k.cache = nil
	}
	return errors.Join(errs...)
}

// Variant is the session's variant: its pit count and rule.
func (k *Session) Variant() engine.Variant { return k.rules }

// Seeds is n of the session's game, Kalah(m,n).
func (k *Session) Seeds() int { return k.cfg.Seeds }

// Start is the start position of the session's game, South to move.
func (k *Session) Start() engine.Position {
	p, err := k.rules.StartPosition(k.cfg.Seeds)
	if err != nil {
		panic(err) // Open checked the game
	}
	return p
}

// CacheDir is the cache's directory, "" when there is none.
func (k *Session) CacheDir() string {
	if k.cache == nil {
		return ""
	}
	return k.cache.Dir()
}

// TableSize is the transposition table's size, by Config.TableSize or
// the session's policy: once the table is built (Ready, or the first
// search), its size in memory (a power of two of buckets, at most the
// size asked for). Before the first search has opened the endgame
// database, the policy's size is the one for no database (an upper
// bound).
func (k *Session) TableSize() int64 {
	if k.sv != nil {
		return k.sv.Table().Bytes()
	}
	if k.tb != 0 {
		return k.tb
	}
	return k.policyTable(0)
}

// policyTable is the table the policy gives the session's game with a
// database of dbSeeds seeds (0 for none).
func (k *Session) policyTable(dbSeeds int) int64 {
	seeds := k.cfg.TableSeeds
	if seeds == 0 {
		seeds = 2 * k.cfg.Pits * k.cfg.Seeds
	}
	if k.cfg.TableValueOnly {
		return solver.DefaultTableSizeForValue(k.cfg.Pits, seeds, dbSeeds)
	}
	return solver.DefaultTableSizeFor(k.cfg.Pits, seeds, dbSeeds)
}

// build returns the session's solver, building it, with its table and the
// endgame database, on first use. The solver stays inside the session:
// the front ends that drive the search a test at a time use the methods
// of search.go (NullWindow, Guess, Team, Stats, ...), which keep the
// table, the database and the cache the session's.
func (k *Session) build() (*solver.Solver, error) {
	if k.sv != nil {
		return k.sv, nil
	}
	db, err := k.EGDB()
	if err != nil {
		return nil, err
	}
	if k.tb == 0 {
		dbSeeds := 0
		if db != nil {
			dbSeeds = db.MaxSeeds()
		}
		k.tb = k.policyTable(dbSeeds)
	}
	o := solver.Options{TableSize: k.tb, Threads: k.cfg.Threads, Progress: k.progress, ProgressEvery: k.cfg.ProgressEvery}
	if db != nil {
		o.DB = db
	}
	if k.cache != nil {
		o.Cache = k.cache
	}
	if k.cfg.Shared != nil {
		o.Cache = k.cfg.Shared
	}
	sv, err := solver.New(k.rules, o)
	if err != nil {
		return nil, err
	}
	k.sv = sv
	return sv, nil
}

// progress notes the nodes of the running search for the checkpoints and
// passes the report on.
func (k *Session) progress(p solver.Progress) {
	k.nodes.Store(p.Nodes)
	if k.cfg.Progress != nil {
		k.cfg.Progress(p)
	}
}

// Reset drops the table, so that the next search starts from an empty one
// (a record's node count then does not depend on what was solved before).
// The database and the cache stay open.
func (k *Session) Reset() {
	if k.sv != nil {
		k.sv.Close()
		k.sv = nil
	}
}

// EGDB returns the session's endgame database, opening it on first use;
// nil when none is installed (or Config.NoEGDB). A database named by
// Config.EGDBDir that is missing, or a damaged file, is an error.
func (k *Session) EGDB() (*egdb.DB, error) {
	if k.dbSet || k.cfg.NoEGDB {
		return k.db, nil
	}
	t0 := time.Now()
	db, err := OpenEGDB(k.cfg.EGDBDir, k.rules)
	if err != nil {
		return nil, err
	}
	k.db, k.dbSet = db, true
	if k.cfg.Log != nil {
		if db != nil {
			k.cfg.Log.Printf("endgame database %s: slices 0..%d, opened in %.2f s", egdb.RuleDir(k.egdbDir(), k.rules), db.MaxSeeds(), time.Since(t0).Seconds())
		} else {
			k.cfg.Log.Printf("no endgame database for %v in %s; solving without one", k.rules, k.egdbDir())
		}
	}
	return db, nil
}

// RefreshEGDB switches the session to a deeper endgame database when its
// directory (Config.EGDBDir, or the default) holds one now: slices past
// the deepest the session opened, written since (by 'kalah egdb build
// --max-seeds', which writes each slice under a temporary name and
// renames it when it is complete), or a first database where there was
// none. It opens the deeper database as the first search does (every
// header checked, the payload of every file not checked before) and
// reports whether it switched. After a switch the searches use the new
// database; the table is dropped (the next search builds one of the size
// the policy gives the new depth, or Config.TableSize), the old
// database is closed, and a database EGDB returned or a Team taken
// before must not be used any more. The cache stays, and so do its
// answers: values are exact whatever the database.
//
// When nothing has changed it costs a look at the directory (a stat of
// each slice file). It does nothing with Config.NoEGDB or before the
// database has been looked for (by the first search, Ready, EGDB or
// PrepareEGDB, which open the deepest there is). A deeper database that
// fails to open (a damaged file, one still being copied in place) is an
// error, returned once: the session keeps the database it has, and a
// later call tries again once a slice file has changed. Like the
// session's other methods it must not overlap a search or a Team's
// tests: a long-running program calls it between searches (the web
// explorer before a search, at most every few seconds).
func (k *Session) RefreshEGDB() (bool, error) {
	if k.cfg.NoEGDB || !k.dbSet {
		return false, nil
	}
	dir := k.egdbDir()
	if dir == "" {
		return false, nil
	}
	was := -1
	if k.db != nil {
		was = k.db.MaxSeeds()
	}
	covered := egdb.Covered(dir, k.rules)
	if covered <= was {
		return false, nil
	}
	stamp := filesStamp(dir, k.rules, covered)
	if stamp == k.dbFailed {
		return false, nil
	}
	t0 := time.Now()
	db, err := OpenEGDB(k.cfg.EGDBDir, k.rules)
	if err != nil || db == nil {
		k.dbFailed = stamp
		return false, err
	}
	k.dbFailed = ""
	if db.MaxSeeds() <= was { // slices removed again meanwhile
		return false, db.Close()
	}
	old := k.db
	k.Reset()
	k.db, k.tb = db, k.cfg.TableSize
	wasText := "none"
	if was >= 0 {
		wasText = fmt.Sprintf("%d seeds", was)
	}
	k.logf("endgame database %s now %d seeds (was %s), opened in %.2f s", egdb.RuleDir(dir, k.rules), db.MaxSeeds(), wasText, time.Since(t0).Seconds())
	if old != nil {
		if err := old.Close(); err != nil {
			return true, fmt.Errorf("closing the endgame database of %d seeds: %w", was, err)
		}
	}
	return true, nil
}

// filesStamp describes the slice files 0..n of r in dir (size and
// modification time of each): a file written since changes it.
func filesStamp(dir string, r engine.Variant, n int) string {
	var b strings.Builder
	for s := 0; s <= n; s++ {
		if fi, err := os.Stat(egdb.SlicePath(dir, r, s)); err == nil {
			fmt.Fprintf(&b, "%d:%d:%d ", s, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

func (k *Session) egdbDir() string {
	if k.cfg.EGDBDir != "" {
		return k.cfg.EGDBDir
	}
	d, _ := egdb.DefaultDir()
	return d
}

// EGDBLoading reports how far the process is in reading the endgame
// databases' files it has opened into memory in the background: done of
// total bytes, equal when nothing is being read (egdb.Loading). Until then
// a search waits for each page it touches first, so front ends say so
// beside a progress report.
func EGDBLoading() (done, total int64) { return egdb.Loading() }

// HasEGDB reports, without opening any file, whether dir holds an endgame
// database of r (its slices from 0 up); the error is one reading dir.
// Front ends that will open several databases one after the other check
// them all first (kalah sweep --egdb), so that a missing one stops the run
// before hours of work rather than after.
func HasEGDB(dir string, r engine.Variant) (bool, error) {
	ss, err := egdb.Slices(dir, r)
	if err != nil {
		return false, fmt.Errorf("endgame database: %w", err)
	}
	return len(ss) > 0 && ss[0] == 0, nil
}

// OpenEGDB opens the endgame database of r in dir, or in the default
// directory when dir is "". It returns nil, and no error, when the default
// directory holds no database for r; an explicit dir without one, or a bad
// file, is an error.
func OpenEGDB(dir string, r engine.Variant) (*egdb.DB, error) {
	explicit := dir != ""
	if !explicit {
		d, err := egdb.DefaultDir()
		if err != nil {
			return nil, nil
		}
		dir = d
	}
	if ok, err := HasEGDB(dir, r); err != nil || !ok {
		switch {
		case !explicit:
			return nil, nil
		case err != nil:
			return nil, err
		}
		return nil, fmt.Errorf("no endgame database for %v in %s (build one with 'kalah egdb build', or go without with --no-egdb)", r, dir)
	}
	db, err := egdb.Open(dir, r)
	if err != nil {
		return nil, fmt.Errorf("endgame database: %w (go without it with --no-egdb)", err)
	}
	return db, nil
}
