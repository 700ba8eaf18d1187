package serve

import (
	"log"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/egdbtest"
	"github.com/kalah-solver/kalah/solver"
)

// TestEGDBDeepened: a database deepened in the server's directory while
// it runs is used from the next search on. A solve running while the
// deeper slices are written finishes on the database it started with,
// to the exact values; the search queued behind it runs on the deeper
// one, in fewer nodes than without a database, to the exact values;
// /api/status reports the new depth without the command that builds it,
// the log says so, the cache's answers stay, and the old database's
// mappings are released. A damaged deeper slice is logged, and the
// searches keep the database they have. A server looks at the directory at most every
// EGDBCheckEvery.
func TestEGDBDeepened(t *testing.T) {
	r := engine.Variant{Pits: 3, Rule: engine.NoEmptyCapture}
	dir := t.TempDir()
	egdbtest.Build(t, dir, r, 2)
	var logs syncBuffer
	var hold atomic.Bool
	paused, resume := make(chan struct{}), make(chan struct{})
	s, hs := startServer(t, Options{CacheDir: t.TempDir(), EGDBDir: dir, TableSize: 16 << 20, Threads: 1, NoPonder: true,
		ProgressEvery: time.Hour, Log: log.New(&logs, "", 0), egdbCheckEvery: time.Nanosecond,
		afterProgress: func(solver.Progress) {
			if hold.CompareAndSwap(true, false) { // the first pass of the held solve
				paused <- struct{}{}
				<-resume
			}
		}})
	ps := positions(t, 3, 3, r.Rule, 4)
	a, b, c, d := ps[0], ps[1], ps[2], ps[3]
	solve := func(p engine.Position) *solveReply {
		var rep solveReply
		if code := fetchJSON(t, hs, "/api/solve?"+query(r.Rule, p), &rep); code != 200 {
			t.Errorf("%s %s: status %d", p, p.ToMove, code)
		}
		return &rep
	}
	status := func(seeds int, command string) {
		t.Helper()
		var st statusReply
		fetchJSON(t, hs, "/api/status", &st)
		want := egdbState{Pits: 3, Rule: "no-empty-capture", Seeds: seeds, DefaultSeeds: kalah.AutoEGDBSeeds(3), Command: command}
		if st.State != "ready" || len(st.Databases) != 1 || *st.Databases[0] != want {
			t.Errorf("status %+v %+v, want %+v", st, st.Databases, want)
		}
	}

	rep := solve(a)
	checkSolve(t, rep, reference(t, r.Rule, a))
	if rep.EGDBSeeds != 2 {
		t.Errorf("solved with a database of %d seeds, want 2", rep.EGDBSeeds)
	}
	status(2, "kalah egdb build --pits 3 --rule no-empty-capture --max-seeds 18 --egdb "+dir)

	// A solve of b is held after its first pass while the database is
	// deepened and a solve of c waits in line behind it.
	hold.Store(true)
	gotB, gotC := make(chan *solveReply, 1), make(chan *solveReply, 1)
	go func() { gotB <- solve(b) }()
	<-paused
	egdbtest.Build(t, dir, r, 18)
	go func() { gotC <- solve(c) }()
	for s.queued() < 1 {
		time.Sleep(5 * time.Millisecond)
	}
	close(resume)
	repB, repC := <-gotB, <-gotC
	checkSolve(t, repB, reference(t, r.Rule, b))
	if repB.EGDBSeeds != 2 || repB.FromCache {
		t.Errorf("the solve running during the build: database %d seeds, from the cache %v; want a search with 2", repB.EGDBSeeds, repB.FromCache)
	}
	refC := reference(t, r.Rule, c)
	checkSolve(t, repC, refC)
	if repC.EGDBSeeds != 18 || repC.FromCache {
		t.Errorf("the next search: database %d seeds, from the cache %v; want a search with 18", repC.EGDBSeeds, repC.FromCache)
	}
	if repC.Nodes >= refC.Stats.Nodes {
		t.Errorf("the next search: %d nodes, %d without a database; want fewer", repC.Nodes, refC.Stats.Nodes)
	}
	status(18, "")
	if l := logs.String(); !strings.Contains(l, "now 18 seeds (was 2 seeds)") {
		t.Errorf("log %q: no line for the switch", l)
	}
	if rep := solve(a); !rep.FromCache || rep.Value != reference(t, r.Rule, a).Value {
		t.Errorf("a cached answer after the switch: from the cache %v, value %d", rep.FromCache, rep.Value)
	}
	if n := egdbtest.Mappings(egdb.SlicePath(dir, r, 2)); n >= 0 && n != 1 {
		t.Errorf("slice 2 mapped %d times, want once: by the new database, the old one closed", n)
	}
	// A damaged slice past it: logged, and the searches keep the database.
	if err := os.WriteFile(egdb.SlicePath(dir, r, 19), []byte("not a slice"), 0o644); err != nil {
		t.Fatal(err)
	}
	repD := solve(d)
	checkSolve(t, repD, reference(t, r.Rule, d))
	if repD.EGDBSeeds != 18 {
		t.Errorf("with a damaged slice 19: database %d seeds, want 18", repD.EGDBSeeds)
	}
	if l := logs.String(); !strings.Contains(l, "a deeper endgame database does not open, searching with the one of 18 seeds") {
		t.Errorf("log %q: no line for the damaged slice", l)
	}
	status(18, "")

	// With the default interval the server does not look again at once.
	dir2 := t.TempDir()
	egdbtest.Build(t, dir2, r, 2)
	_, hs2 := startServer(t, Options{CacheDir: t.TempDir(), EGDBDir: dir2, TableSize: 16 << 20, Threads: 1, NoPonder: true,
		egdbCheckEvery: time.Hour})
	for i, p := range []engine.Position{a, b} {
		var rep solveReply
		if code := fetchJSON(t, hs2, "/api/solve?"+query(r.Rule, p), &rep); code != 200 || rep.EGDBSeeds != 2 {
			t.Errorf("solve %d within the interval: status %d, database %d seeds; want 2", i, code, rep.EGDBSeeds)
		}
		if i == 0 {
			egdbtest.Build(t, dir2, r, 6)
		}
	}
}
