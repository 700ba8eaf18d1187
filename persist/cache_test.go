package persist_test

import (
	"context"
	"errors"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/solver"
	"github.com/kalah-solver/kalah/tt"
)

func openCache(t *testing.T, dir string, r engine.Variant, opts persist.Options) *persist.Cache {
	t.Helper()
	s, err := persist.Open(dir, r, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameEntry compares the fields a cache keeps.
func sameEntry(a, b tt.Entry) bool {
	return a.Lower() == b.Lower() && a.Upper() == b.Upper() && a.Move() == b.Move() && a.Work() == b.Work() && a.Solved() && b.Solved()
}

func TestCacheRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	r6 := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	r6e := engine.Variant{Pits: 6, Rule: engine.EmptyCapture}
	keys := []engine.Key{{Own: 0x040404040404, Opp: 0x040404040404}, {Own: 1, Opp: 0x0100000000}, {Own: 0x0a0000000000, Opp: 0x30}, {Own: 0x0202, Opp: 0x0101}}
	ents := []tt.Entry{
		tt.MakeEntry(10, 10, 5, tt.DepthSolved, 20),
		tt.MakeEntry(-7, tt.NoUpper, 0, tt.DepthSolved, 31),
		tt.MakeEntry(tt.NoLower, 255, 3, tt.DepthSolved, 0),
		tt.MakeEntry(-3, 5, 2, tt.DepthSolved, 7),
	}
	s := openCache(t, dir, r6, persist.Options{})
	for i := range keys {
		s.Put(keys[i], ents[i])
	}
	s.Put(engine.Key{Own: 9, Opp: 9}, tt.MakeEntry(1, 1, 0, 12, 20)) // not proven: ignored
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if e, ok := s.Get(keys[0]); !ok || !sameEntry(e, ents[0]) {
		t.Errorf("before close: %v %v", e, ok)
	}
	p, _ := r6.StartPosition(4)
	if err := s.PutRoot(p, []byte(`{"value":8}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil { // twice is fine
		t.Fatal(err)
	}

	s = openCache(t, dir, r6, persist.Options{})
	defer s.Close()
	for i := range keys {
		if e, ok := s.Get(keys[i]); !ok || !sameEntry(e, ents[i]) {
			t.Errorf("key %v: got %d..%d %v, want %d..%d", keys[i], e.Lower(), e.Upper(), ok, ents[i].Lower(), ents[i].Upper())
		}
	}
	if _, ok := s.Get(engine.Key{Own: 9, Opp: 9}); ok {
		t.Error("an unproven entry was stored")
	}
	if v, ok := s.GetRoot(p); !ok || string(v) != `{"value":8}` {
		t.Errorf("root record %q %v", v, ok)
	}
	if _, ok := s.GetRoot(engine.Position{Pits: 6, Board: p.Board, ToMove: engine.North}); ok {
		t.Error("root record found for the other side to move")
	}
	st, err := s.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Counts) != 1 || st.Counts[0].Entries != int64(len(keys)) || st.Counts[0].Roots != 1 || st.Counts[0].Variant != r6 || st.DiskBytes == 0 {
		t.Errorf("stats %+v", st)
	}
	n := 0
	err = s.Range(nil, func(r engine.Variant, k engine.Key, e tt.Entry) error {
		n++
		if r != r6 {
			t.Errorf("range: rules %v", r)
		}
		return nil
	})
	if err != nil || n != len(keys) {
		t.Errorf("range: %d entries, %v", n, err)
	}
	if _, err := s.GC(); err != nil {
		t.Error(err)
	}
	s.Close()

	// Another rule shares the directory but not the entries.
	s = openCache(t, dir, r6e, persist.Options{})
	if _, ok := s.Get(keys[0]); ok {
		t.Error("entry of no-empty-capture found under empty-capture")
	}
	s.Close()
}

func TestCachePutNeverBlocks(t *testing.T) {
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	s := openCache(t, t.TempDir(), r, persist.Options{Queue: 4, FlushEvery: time.Hour})
	defer s.Close()
	t0 := time.Now()
	for i := 0; i < 100000; i++ {
		s.Put(engine.Key{Own: uint64(i % 200), Opp: 1}, tt.MakeEntry(0, 0, 0, tt.DepthSolved, 20))
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("100000 puts took %v", d)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if s.Dropped() == 0 || s.Written()+s.Dropped() != 100000 {
		t.Errorf("written %d + dropped %d != 100000", s.Written(), s.Dropped())
	}
}

func TestCacheInUse(t *testing.T) {
	dir := t.TempDir()
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	s := openCache(t, dir, r, persist.Options{})
	defer s.Close()
	t0 := time.Now()
	_, err := persist.Open(dir, r, persist.Options{})
	if !errors.Is(err, persist.ErrInUse) || !strings.Contains(err.Error(), "cache "+dir+" is in use by another kalah process") {
		t.Fatalf("second open: %v", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("second open took %v", d)
	}
}

func TestCacheForeign(t *testing.T) {
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("my files"), 0o644)
	if _, err := persist.Open(dir, r, persist.Options{}); !errors.Is(err, persist.ErrNotCache) {
		t.Errorf("directory of other files: %v", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o644)
	if _, err := persist.Open(file, r, persist.Options{}); !errors.Is(err, persist.ErrNotCache) {
		t.Errorf("a file: %v", err)
	}
	if _, err := persist.Open(filepath.Join(file, "sub"), r, persist.Options{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("below a file: %v", err)
	}
}

// TestCacheCorrupt overwrites every file of a cache with garbage, one
// kind at a time: opening fails with an error (or, where BadgerDB can
// recover, succeeds), never a panic.
func TestCacheCorrupt(t *testing.T) {
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	for _, pattern := range []string{"MANIFEST", "*.sst", "*.vlog", "*.mem", "*"} {
		dir := t.TempDir()
		s := openCache(t, dir, r, persist.Options{})
		for i := 0; i < 1000; i++ {
			s.Put(engine.Key{Own: uint64(i), Opp: 7}, tt.MakeEntry(2, 2, 1, tt.DepthSolved, 15))
		}
		if _, err := s.GC(); err != nil { // writes the tables out
			t.Fatal(err)
		}
		s.Close()
		files, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil && !fi.IsDir() && filepath.Base(f) != "LOCK" {
				garbage := []byte(strings.Repeat("garbage!", 1+int(fi.Size())/8))
				os.WriteFile(f, garbage, 0o644)
			}
		}
		s2, err := persist.Open(dir, r, persist.Options{})
		if err != nil {
			if !errors.Is(err, persist.ErrNotCache) || !strings.Contains(err.Error(), dir) {
				t.Errorf("%s garbled: unclear error %v", pattern, err)
			}
			t.Logf("%s garbled: %v", pattern, err)
			continue
		}
		t.Logf("%s garbled: opened", pattern)
		s2.Get(engine.Key{Own: 5, Opp: 7})
		s2.Close()
	}
}

func TestCacheReadOnly(t *testing.T) {
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	dir := t.TempDir()
	openCache(t, dir, r, persist.Options{}).Close()
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if os.Geteuid() == 0 {
		// Root writes through permission bits; make it immutable instead.
		if err := exec.Command("chattr", "+i", dir).Run(); err != nil {
			t.Skipf("running as root without chattr +i: %v", err)
		}
		defer exec.Command("chattr", "-i", dir).Run()
	}
	_, err := persist.Open(dir, r, persist.Options{})
	if err == nil || !strings.Contains(err.Error(), "not writable") {
		t.Errorf("read-only cache: %v", err)
	}
}

// TestCacheResume interrupts a solve part-way, then solves again with a
// fresh table over the same cache: the value is the uninterrupted one and
// the second solve needs fewer nodes.
func TestCacheResume(t *testing.T) {
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	p, _ := r.StartPosition(4)
	newSolver := func(st solver.Cache, progress func(solver.Progress)) *solver.Solver {
		sv, err := solver.New(r, solver.Options{TableSize: 1 << 24, Threads: 1, Cache: st, Progress: progress, ProgressEvery: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		return sv
	}
	// Progress is reported after every pass at the root (and by a timer,
	// which the hour-long ProgressEvery below silences): count them.
	var calls atomic.Int64
	count := func(solver.Progress) { calls.Add(1) }
	sv := newSolver(nil, count)
	full, err := sv.SolveEveryMove(context.Background(), p)
	sv.Close()
	if err != nil {
		t.Fatal(err)
	}
	half := calls.Load() / 2

	dir := t.TempDir()
	opts := persist.Options{MinSeeds: 8, MinWork: 4}
	st := openCache(t, dir, r, opts)
	ctx, cancel := context.WithCancel(context.Background())
	calls.Store(0)
	sv = newSolver(st, func(solver.Progress) {
		if calls.Add(1) >= half {
			cancel()
		}
	})
	part, err := sv.SolveEveryMove(ctx, p)
	sv.Close()
	if !errors.Is(err, solver.ErrInterrupted) {
		t.Fatalf("first solve not interrupted (%v); the test needs a longer solve", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if st.Written() == 0 {
		t.Fatal("the interrupted solve stored nothing")
	}

	st = openCache(t, dir, r, opts)
	defer st.Close()
	sv = newSolver(st, nil)
	again, err := sv.SolveEveryMove(context.Background(), p)
	sv.Close()
	if err != nil {
		t.Fatal(err)
	}
	if again.Value != full.Value {
		t.Fatalf("resumed value %d, uninterrupted %d", again.Value, full.Value)
	}
	if again.Stats.CacheHits == 0 || again.Stats.Nodes >= full.Stats.Nodes {
		t.Errorf("resumed solve: %d nodes (%d cache hits), uninterrupted %d nodes, interrupted part %d", again.Stats.Nodes, again.Stats.CacheHits, full.Stats.Nodes, part.Stats.Nodes)
	}
	t.Logf("uninterrupted %d nodes; interrupted after %d; resumed %d (%d cache hits)", full.Stats.Nodes, part.Stats.Nodes, again.Stats.Nodes, again.Stats.CacheHits)
}

// TestBadgerLogDropsCacheAdvice checks that BadgerDB's block-cache sizing
// advice, a warning with a histogram that its monitor gives every minute
// of a search's look-ups, stays out of the cache's log, and that its other
// warnings and errors reach it.
func TestBadgerLogDropsCacheAdvice(t *testing.T) {
	var buf strings.Builder
	warningf, errorf := persist.BadgerLog(log.New(&buf, "", 0))
	// The formats of badger's monitorCache (db.go).
	warningf("%s might be too small. Metrics: %s\n", "Block cache", "hit: 1 miss: 9")
	warningf("Cache life expectancy (in seconds): %+v\n", "\n -- Histogram:\nMin value: 0\n")
	if buf.Len() != 0 {
		t.Fatalf("cache advice logged: %q", buf.String())
	}
	warningf("While forcing compaction on level 0: %v", "disk full")
	errorf("Failure reading value log: %v\n", "EOF")
	want := "badger warning: While forcing compaction on level 0: disk full\n" +
		"badger error: Failure reading value log: EOF\n"
	if buf.String() != want {
		t.Fatalf("log %q, want %q", buf.String(), want)
	}
}
