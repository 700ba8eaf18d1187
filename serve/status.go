package serve

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
)

// What the server is doing besides searching, for the page: /api/status
// says whether it is warming up (opening the first game's session: its
// cache, its endgame database, its table), building an endgame database
// (with the positions done so far), reading the databases' files into
// memory (after a reboot: searches wait for the disk meanwhile), or ready,
// and for every game whose session it has opened, how deep the database
// its searches use is (one deepened while the server runs, from the next
// search on) against the depth the server builds by itself, with the
// command that makes a shallow one deep enough. The page polls it while it
// waits, beside /api/progress, and says what the server does.

// statusBoard is what /api/status reports. It has a lock of its own: the
// database build reports from its own goroutine, and /api/status reads it
// while the slot's holder works.
type statusBoard struct {
	mu    sync.Mutex
	warm  *warmState           // the warm-up under way, nil when none
	build *buildState          // the database build under way, nil when none
	deep  *buildState          // the background deepening under way, nil when none
	dbs   map[dbKey]*egdbState // the databases of the sessions opened so far
	order []dbKey              // dbs's keys, in the order they were first seen
	stage func(stage string)   // tests: called as the warm-up's stage changes
	// loading reports the databases' files read into memory so far, of
	// those opened (kalah.EGDBLoading when nil; tests set it).
	loading func() (done, total int64)
}

// loadingMin is the least of the databases' files left to read that
// /api/status reports: a small database is read in milliseconds, too soon
// for the page to say anything of it.
const loadingMin = 64 << 20

// loadState is the endgame databases' files being read into memory in the
// background (kalah.EGDBLoading): until they are, a search waits for the
// disk at each page it touches first.
type loadState struct {
	Done  int64 `json:"done"`  // bytes read
	Total int64 `json:"total"` // bytes to read, done included
}

// dbKey names a database: a board size and a rule.
type dbKey struct {
	pits int
	rule engine.Rule
}

// warmState is the warm-up under way.
type warmState struct {
	Pits    int     `json:"pits"`
	Seeds   int     `json:"seeds"`
	Rule    string  `json:"rule"`
	Stage   string  `json:"stage"`   // what it does now, in words ("touching the table")
	Elapsed float64 `json:"elapsed"` // seconds since it started
	started time.Time
}

// buildState is an endgame-database build under way.
type buildState struct {
	Pits      int     `json:"pits"`
	Rule      string  `json:"rule"`
	MaxSeeds  int     `json:"max_seeds"` // built up to this seed count
	Dir       string  `json:"dir"`
	Positions int64   `json:"positions"` // to build
	Bytes     int64   `json:"bytes"`     // their size on disk
	Done      int64   `json:"done"`      // built so far
	Elapsed   float64 `json:"elapsed"`   // seconds
	started   time.Time
}

// egdbState is the database of one board size and rule, as the server's
// session of that game opened it.
type egdbState struct {
	Pits         int    `json:"pits"`
	Rule         string `json:"rule"`
	Seeds        int    `json:"seeds"`         // its depth, -1 for none
	DefaultSeeds int    `json:"default_seeds"` // the depth the server (and 'kalah solve') builds by itself
	NoEGDB       bool   `json:"no_egdb,omitempty"`
	// Command, when the database is shallower than the default (or than
	// the game's seeds, for a game with fewer) and the server uses
	// databases, builds that one: the server searches with it from its
	// next search on (refreshEGDB), and Seeds then says its depth.
	Command string `json:"command,omitempty"`
}

// statusReply is /api/status's answer.
type statusReply struct {
	// State is "warming", "building", "loading" or "ready" (building wins
	// when a warm-up builds; loading, the databases' files still being
	// read into memory, only when it neither warms up nor builds).
	State   string      `json:"state"`
	Warming *warmState  `json:"warming,omitempty"`
	Build   *buildState `json:"build,omitempty"`
	// Deepening is the database being deepened in the background
	// (Options.DeepenSeeds): searches go on meanwhile, so it does not
	// change State.
	Deepening *buildState  `json:"deepening,omitempty"`
	Loading   *loadState   `json:"loading,omitempty"`
	Databases []*egdbState `json:"databases"`
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	if _, err := parseQuery(r.URL.RawQuery, nil); err != nil {
		writeError(w, 0, err)
		return
	}
	writeJSON(w, http.StatusOK, s.stat.reply())
}

func (b *statusBoard) reply() statusReply {
	b.mu.Lock()
	defer b.mu.Unlock()
	rep := statusReply{State: "ready", Databases: []*egdbState{}}
	if b.warm != nil {
		w := *b.warm
		w.Elapsed = time.Since(w.started).Seconds()
		rep.State, rep.Warming = "warming", &w
	}
	if b.build != nil {
		x := *b.build
		x.Elapsed = time.Since(x.started).Seconds()
		rep.State, rep.Build = "building", &x
	}
	if b.deep != nil {
		x := *b.deep
		x.Elapsed = time.Since(x.started).Seconds()
		rep.Deepening = &x
	}
	loading := b.loading
	if loading == nil {
		loading = kalah.EGDBLoading
	}
	if done, total := loading(); total-done >= loadingMin {
		rep.Loading = &loadState{Done: done, Total: total}
		if rep.State == "ready" {
			rep.State = "loading"
		}
	}
	for _, k := range b.order {
		d := *b.dbs[k]
		rep.Databases = append(rep.Databases, &d)
	}
	return rep
}

// warming starts (key not nil) or ends the warm-up's report.
func (b *statusBoard) warming(key *gameKey) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if key == nil {
		b.warm = nil
		return
	}
	b.warm = &warmState{Pits: key.pits, Seeds: key.seeds, Rule: key.rule.String(), Stage: "opening the cache", started: time.Now()}
}

// warmStage says what the warm-up does now.
func (b *statusBoard) warmStage(stage string) {
	b.mu.Lock()
	if b.warm != nil {
		b.warm.Stage = stage
	}
	hook := b.stage
	b.mu.Unlock()
	if hook != nil {
		hook(stage)
	}
}

// egdbBuild records a database build's report (kalah.Config.OnEGDBBuild)
// and passes it on to Options.OnEGDBBuild; the build calls it from its
// own goroutine.
func (s *Server) egdbBuild(ev kalah.EGDBBuild) {
	b := &s.stat
	b.mu.Lock()
	st := &b.build
	what := "building"
	if ev.Background {
		st, what = &b.deep, "deepening"
	}
	switch {
	case ev.Finished:
		*st = nil
		if ev.Background && ev.Err == nil {
			s.deep.built.Store(true) // the next search switches to it
		}
	case *st == nil || ev.Done == 0:
		*st = &buildState{Pits: ev.Variant.Pits, Rule: ev.Variant.Rule.String(), MaxSeeds: ev.MaxSeeds, Dir: ev.Dir,
			Positions: ev.Positions, Bytes: ev.Bytes, Done: ev.Done, started: time.Now()}
	default:
		(*st).Done = ev.Done
	}
	b.mu.Unlock()
	switch {
	case ev.Finished && ev.Err != nil:
		s.logf("%s the endgame database of %v in %s failed: %v", what, ev.Variant, ev.Dir, ev.Err)
	case ev.Finished:
		s.logf("%s the endgame database of %v up to %d seeds in %s: done", what, ev.Variant, ev.MaxSeeds, ev.Dir)
	case ev.Done == 0:
		s.logf("%s the endgame database of %v up to %d seeds in %s (%d positions)", what, ev.Variant, ev.MaxSeeds, ev.Dir, ev.Positions)
	}
	if s.opts.OnEGDBBuild != nil {
		s.opts.OnEGDBBuild(ev)
	}
}

// prepareEGDB makes the database of the session k (of game key) ready
// before its first search, building the default one when the server
// builds databases and it is missing (kalah.Session.PrepareEGDB), and
// records its depth for /api/status. The caller holds the slot.
func (s *Server) prepareEGDB(ctx context.Context, k *kalah.Session, key gameKey) error {
	if err := k.PrepareEGDB(ctx); err != nil {
		return err
	}
	s.noteEGDB(k, key)
	s.deepen(k, key)
	return nil
}

// noteEGDB records the depth of the database session k (of game key)
// searches with, once known (k.EGDBSeeds).
func (s *Server) noteEGDB(k *kalah.Session, key gameKey) {
	d := &egdbState{Pits: key.pits, Rule: key.rule.String(), Seeds: k.EGDBSeeds(), DefaultSeeds: k.AutoEGDBDepth(), NoEGDB: s.opts.NoEGDB}
	// A game of fewer seeds than the default depth needs no deeper a database than its seeds.
	if want := min(d.DefaultSeeds, 2*key.pits*key.seeds); d.Seeds < want && !d.NoEGDB {
		d.Command = fmt.Sprintf("kalah egdb build --pits %d --rule %v --max-seeds %d", key.pits, key.rule, want)
		if s.opts.EGDBDir != "" {
			d.Command += " --egdb " + shellQuote(s.opts.EGDBDir)
		}
	}
	b := &s.stat
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dbs == nil {
		b.dbs = map[dbKey]*egdbState{}
	}
	dk := dbKey{pits: key.pits, rule: key.rule}
	if !slices.Contains(b.order, dk) {
		b.order = append(b.order, dk)
	}
	b.dbs[dk] = d
}

// shellQuote quotes a path for a shell command line when it needs it.
func shellQuote(p string) string {
	for _, c := range p {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/.-_+,:@", c)) {
			return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
		}
	}
	return p
}
