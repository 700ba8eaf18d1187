package serve

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
)

// deepenServer starts a server that builds a 4-seed database of its own
// and deepens it to 9 seeds in the background, in a data directory of the
// test's; the deepening waits at its start until the test releases it.
func deepenServer(t *testing.T) (s *Server, hs *httptest.Server, started <-chan struct{}, release func(), finished <-chan kalah.EGDBBuild) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	st, fin := make(chan struct{}), make(chan kalah.EGDBBuild, 1)
	goOn := make(chan struct{})
	release = sync.OnceFunc(func() { close(goOn) })
	s, hs = startServer(t, Options{CacheDir: t.TempDir(), TableSize: 16 << 20, Threads: 1, NoPonder: true,
		AutoEGDB: true, autoEGDBSeeds: 4, DeepenSeeds: 9, egdbCheckEvery: time.Hour,
		OnEGDBBuild: func(ev kalah.EGDBBuild) {
			switch {
			case ev.Background && ev.Finished:
				fin <- ev
			case ev.Background && ev.Done == 0:
				close(st)
				<-goOn
			}
		}})
	t.Cleanup(release) // before the server's Close, which waits for the deepening
	return s, hs, st, release, fin
}

// TestDeepen: after the first search of a game the server deepens its
// database in the background; /api/status says so while searches go on
// with the default database, and the first search after the build uses
// the deeper one, its values the same as a solve's without a database.
func TestDeepen(t *testing.T) {
	s, hs, started, release, finished := deepenServer(t)
	get := func(path string, v any) int {
		t.Helper()
		return fetchJSON(t, hs, path, v)
	}
	ps := positions(t, 3, 3, engine.NoEmptyCapture, 6)
	var rep solveReply
	if code := get("/api/solve?pits=3&seeds=3&"+query(engine.NoEmptyCapture, ps[0]), &rep); code != 200 || rep.EGDBSeeds != 4 {
		t.Fatalf("first solve: status %d, database %d seeds; want 4", code, rep.EGDBSeeds)
	}
	<-started
	var st statusReply
	get("/api/status", &st)
	if st.State != "ready" || st.Deepening == nil || st.Deepening.MaxSeeds != 9 || st.Deepening.Pits != 3 || st.Build != nil {
		t.Errorf("status while deepening: %+v, deepening %+v; want ready, deepening to 9 seeds", st, st.Deepening)
	}
	// Searches go on meanwhile, with the database there.
	for _, p := range ps[1:3] {
		var rep solveReply
		if code := get("/api/solve?pits=3&seeds=3&"+query(engine.NoEmptyCapture, p), &rep); code != 200 || rep.EGDBSeeds != 4 {
			t.Errorf("a solve while deepening: status %d, database %d seeds", code, rep.EGDBSeeds)
		}
		checkSolve(t, &rep, reference(t, engine.NoEmptyCapture, p))
	}
	release()
	if ev := <-finished; ev.Err != nil || ev.MaxSeeds != 9 {
		t.Fatalf("the deepening ended with %+v", ev)
	}
	for _, p := range ps[3:] {
		var rep solveReply
		if code := get("/api/solve?pits=3&seeds=3&"+query(engine.NoEmptyCapture, p), &rep); code != 200 || rep.EGDBSeeds != 9 {
			t.Errorf("a solve after the deepening: status %d, database %d seeds; want 9", code, rep.EGDBSeeds)
		}
		checkSolve(t, &rep, reference(t, engine.NoEmptyCapture, p))
	}
	st = statusReply{}
	get("/api/status", &st)
	if st.Deepening != nil || len(st.Databases) != 1 || st.Databases[0].Seeds != 9 {
		t.Errorf("status after the deepening: deepening %+v, databases %+v", st.Deepening, st.Databases)
	}
	// Once a game: another search starts none.
	s.deep.mu.Lock()
	n := len(s.deep.started)
	s.deep.mu.Unlock()
	if n != 1 {
		t.Errorf("%d deepenings started, want 1", n)
	}
}

// TestDeepenOff: with DeepenSeeds 0 the server builds its default
// database and nothing more.
func TestDeepenOff(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	var mu sync.Mutex
	var bg int
	_, hs := startServer(t, Options{CacheDir: t.TempDir(), TableSize: 16 << 20, Threads: 1, NoPonder: true,
		AutoEGDB: true, autoEGDBSeeds: 4, OnEGDBBuild: func(ev kalah.EGDBBuild) {
			if ev.Background {
				mu.Lock()
				bg++
				mu.Unlock()
			}
		}})
	var rep solveReply
	if code := fetchJSON(t, hs, "/api/solve?pits=3&seeds=3", &rep); code != 200 || rep.EGDBSeeds != 4 {
		t.Fatalf("status %d, database %d seeds", code, rep.EGDBSeeds)
	}
	hs.Close()
	mu.Lock()
	defer mu.Unlock()
	if bg != 0 {
		t.Errorf("%d background build reports without deepening", bg)
	}
}

// TestBrowserDeepen: while the server deepens its database in the
// background, the page shows a banner with its progress and answers
// meanwhile; the banner goes once the build is done.
func TestBrowserDeepen(t *testing.T) {
	ctx := newBrowser(t)
	p := page{t: t, ctx: ctx}
	_, hs, started, release, finished := deepenServer(t)
	r, _ := engine.NewVariant(3, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	p.run("loading the page", chromedp.Navigate(hs.URL+"/?pits=3&seeds=3"))
	p.checkValues(r.Rule, start)
	<-started
	p.click(`svg g.pit-g[data-move="a"]`)
	p.waitFor("the banner", `!document.getElementById('server').hidden && document.getElementById('server').dataset.state === 'deepening' &&
		document.getElementById('server-text').textContent.includes('deepening the endgame database of Kalah(3) under no-empty-capture to 9 seeds in the background: 0% of') &&
		!document.getElementById('server-bar').hidden`)
	after, _ := r.PlayPosition(start, 0)
	p.waitPosition(after)
	p.checkValues(r.Rule, after)
	if s := eval[string](p, "reading the status", `document.getElementById('status').textContent`); strings.Contains(s, "waiting") {
		t.Errorf("status %q while deepening: searches do not wait for it", s)
	}
	p.screenshot(filepath.Join(artifactsDir(t), "deepening.png"))
	release()
	<-finished
	p.waitFor("the banner gone", `document.getElementById('server').hidden`)
}
