package serve

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
)

// TestStatusBuild: a server that builds databases (AutoEGDB, here to a
// tiny depth) builds the missing one in the warm-up; /api/status says it
// warms up, then that it builds, with the build's progress, then that it
// is ready, with the database's depth; the answers use the database and
// hold the exact values.
func TestStatusBuild(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	var mu sync.Mutex
	var events []kalah.EGDBBuild
	var building, warming []statusReply
	var hs2 func(string, any) int
	s, hs := startServer(t, Options{CacheDir: t.TempDir(), TableSize: 16 << 20, Threads: 1, NoPonder: true,
		AutoEGDB: true, autoEGDBSeeds: 4, OnEGDBBuild: func(ev kalah.EGDBBuild) {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, ev)
			if !ev.Finished {
				var st statusReply
				hs2("/api/status", &st)
				building = append(building, st)
			}
		}})
	hs2 = func(path string, v any) int { return fetchJSON(t, hs, path, v) }
	s.stat.stage = func(stage string) {
		var st statusReply
		hs2("/api/status", &st)
		mu.Lock()
		warming = append(warming, st)
		mu.Unlock()
	}
	w, err := s.Warm(context.Background(), 4, 3, engine.NoEmptyCapture)
	if err != nil {
		t.Fatal(err)
	}
	if w.EGDBSeeds != 4 {
		t.Errorf("warmed with a database of %d seeds, want the 4 built", w.EGDBSeeds)
	}
	mu.Lock()
	if len(events) < 2 || events[0].Done != 0 || !events[len(events)-1].Finished || events[len(events)-1].Err != nil {
		t.Errorf("build events %+v: want a start and a finished end", events)
	}
	for _, st := range building {
		if st.State != "building" || st.Build == nil || st.Build.Pits != 4 || st.Build.MaxSeeds != 4 || st.Build.Positions == 0 || st.Build.Rule != "no-empty-capture" {
			t.Errorf("status during the build: %+v (build %+v)", st, st.Build)
		}
	}
	stages := []string{}
	for _, st := range warming {
		if st.State != "warming" || st.Warming == nil || st.Warming.Pits != 4 || st.Warming.Seeds != 3 {
			t.Errorf("status during the warm-up: %+v", st)
		} else {
			stages = append(stages, st.Warming.Stage)
		}
	}
	mu.Unlock()
	if got := strings.Join(stages, ", "); got != "opening the endgame database, making the table, touching the table" {
		t.Errorf("warm-up stages %q", got)
	}
	var st statusReply
	if code := fetchJSON(t, hs, "/api/status", &st); code != 200 || st.State != "ready" || st.Warming != nil || st.Build != nil ||
		len(st.Databases) != 1 || *st.Databases[0] != (egdbState{Pits: 4, Rule: "no-empty-capture", Seeds: 4, DefaultSeeds: 4}) {
		t.Errorf("status after the warm-up: %d %+v %v", code, st, st.Databases)
	}

	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	var rep solveReply
	if code := fetchJSON(t, hs, "/api/solve?pits=4&seeds=3", &rep); code != 200 {
		t.Fatalf("status %d", code)
	}
	checkSolve(t, &rep, reference(t, engine.NoEmptyCapture, start))
	if rep.EGDBSeeds != 4 {
		t.Errorf("solved with a database of %d seeds, want 4", rep.EGDBSeeds)
	}
	if code := fetchJSON(t, hs, "/api/status?x=1", &st); code != 400 {
		t.Errorf("/api/status?x=1: status %d, want 400", code)
	}
}

// TestStatusShallow: a game solved without a database, or with one
// shallower than the default, is listed with the command that builds the
// default one; with NoEGDB, without.
func TestStatusShallow(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	for _, no := range []bool{false, true} {
		_, hs := startServer(t, Options{CacheDir: t.TempDir(), TableSize: 16 << 20, Threads: 1, NoPonder: true, NoEGDB: no})
		var rep solveReply
		if code := fetchJSON(t, hs, "/api/solve?pits=3&seeds=2&rule=empty-capture", &rep); code != 200 {
			t.Fatalf("status %d", code)
		}
		var st statusReply
		fetchJSON(t, hs, "/api/status", &st)
		want := egdbState{Pits: 3, Rule: "empty-capture", Seeds: -1, DefaultSeeds: kalah.AutoEGDBSeeds(3), NoEGDB: no}
		if !no {
			want.Command = "kalah egdb build --pits 3 --rule empty-capture --max-seeds 12" // the game's seeds: fewer than the default
		}
		if st.State != "ready" || len(st.Databases) != 1 || *st.Databases[0] != want {
			t.Errorf("NoEGDB %v: status %+v %+v, want %+v", no, st, st.Databases, want)
		}
	}
}

// TestStatusLoading: while the databases' files are still being read into
// memory (at least loadingMin of them left), /api/status says "loading"
// with the bytes read of those to read, unless it warms up or builds; once
// they are read it is ready again.
func TestStatusLoading(t *testing.T) {
	var done, total int64 = 1 << 30, 3 << 30
	b := statusBoard{loading: func() (int64, int64) { return done, total }}
	if rep := b.reply(); rep.State != "loading" || rep.Loading == nil || *rep.Loading != (loadState{Done: 1 << 30, Total: 3 << 30}) {
		t.Errorf("while loading: state %q, loading %+v", rep.State, rep.Loading)
	}
	b.warming(&gameKey{pits: 6, seeds: 4, rule: engine.NoEmptyCapture})
	if rep := b.reply(); rep.State != "warming" || rep.Loading == nil {
		t.Errorf("warming while loading: state %q, loading %+v; want warming, with the loading", rep.State, rep.Loading)
	}
	b.warming(nil)
	done = total - loadingMin + 1
	if rep := b.reply(); rep.State != "ready" || rep.Loading != nil {
		t.Errorf("with less than loadingMin left: state %q, loading %+v", rep.State, rep.Loading)
	}
	done = total
	if rep := b.reply(); rep.State != "ready" || rep.Loading != nil {
		t.Errorf("after loading: state %q, loading %+v", rep.State, rep.Loading)
	}
}
