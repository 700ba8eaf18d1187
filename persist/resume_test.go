package persist_test

import (
	"path/filepath"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/tt"
)

// A checkpoint survives the process and is read back whole, under its own
// root only; entries that cannot belong to the root's solve (more seeds
// than the root, pits beyond the board, a finished game) are not handed
// on; a dropped checkpoint is gone, and the store's entries are untouched
// by all of it.
func TestCheckpointRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	r := engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}
	root, _ := r.StartPosition(4)
	other, _ := r.StartPosition(3)
	good := map[engine.Key]tt.Entry{
		{Own: 0x040404040404, Opp: 0x040404040403}: tt.MakeEntry(8, 8, 2, tt.DepthSolved, 26),
		{Own: 0x0102, Opp: 0x0a00000000}:           tt.MakeEntry(-3, tt.NoUpper, 1, tt.DepthSolved, 9),
		{Own: 0x01, Opp: 0x01}:                     tt.MakeEntry(tt.NoLower, 0, 0, tt.DepthSolved, 8),
	}
	bad := map[engine.Key]tt.Entry{
		{Own: 0x3004040404, Opp: 0x040404040404}: tt.MakeEntry(1, 1, 0, tt.DepthSolved, 9),   // 64 seeds > 48
		{Own: 0x01000000000000, Opp: 0x01}:       tt.MakeEntry(1, 1, 0, tt.DepthSolved, 9),   // pit 7 of 6
		{Own: 0, Opp: 0x0303}:                    tt.MakeEntry(-6, -6, 0, tt.DepthSolved, 9), // game over
		{Own: 0x0202, Opp: 0x0202}:               tt.MakeEntry(2, 2, 0, 12, 9),               // not proven: never written
	}
	otherKey := engine.Key{Own: 0x0101010101, Opp: 0x010101010101} // written under another root
	s := openStore(t, dir, r, persist.Options{})
	s.Put(engine.Key{Own: 0x0505, Opp: 0x0505}, tt.MakeEntry(0, 0, 0, tt.DepthSolved, 20))
	cp := s.NewCheckpoint(root, 7)
	for k, e := range good {
		cp.Add(k, e)
	}
	for k, e := range bad {
		cp.Add(k, e)
	}
	if n, err := cp.Close(persist.ResumeInfo{Checkpoints: 3, Nodes: 12345, Seconds: 6.5}); err != nil || n != int64(len(good)+3) {
		t.Fatalf("checkpoint: %d entries written, %v", n, err)
	}
	cp = s.NewCheckpoint(other, 1)
	cp.Add(otherKey, tt.MakeEntry(3, 3, 0, tt.DepthSolved, 9))
	if _, err := cp.Close(persist.ResumeInfo{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openStore(t, dir, r, persist.Options{})
	defer s.Close()
	st, err := s.Stats()
	if err != nil || len(st.Counts) != 1 || st.Counts[0].Entries != 1 || st.Counts[0].Resume != int64(len(good)+3+1) {
		t.Fatalf("stats: %+v, %v", st.Counts, err)
	}
	got := map[engine.Key]tt.Entry{}
	info, ok, err := s.Resume(root, func(k engine.Key, e tt.Entry) { got[k] = e })
	if err != nil || !ok {
		t.Fatalf("resume: %v %v", ok, err)
	}
	if info.Checkpoints != 3 || info.Nodes != 12345 || info.Seconds != 6.5 || info.Entries != int64(len(good)+3) || info.Time == "" {
		t.Errorf("resume head: %+v", info)
	}
	if len(got) != len(good) {
		t.Errorf("resume: %d entries, want %d: %v", len(got), len(good), got)
	}
	for k, e := range good {
		if g, ok := got[k]; !ok || !sameEntry(g, e) {
			t.Errorf("resume: %v is %v (%v), want %v", k, g, ok, e)
		}
	}
	// The next checkpoint replaces this one: its generation is read, and
	// the older one deleted.
	cp = s.NewCheckpoint(root, 8)
	one := engine.Key{Own: 0x0303, Opp: 0x0303}
	cp.Add(one, tt.MakeEntry(4, 4, 1, tt.DepthSolved, 10))
	if _, err := cp.Close(persist.ResumeInfo{Checkpoints: 4}); err != nil {
		t.Fatal(err)
	}
	got = map[engine.Key]tt.Entry{}
	if info, ok, err := s.Resume(root, func(k engine.Key, e tt.Entry) { got[k] = e }); !ok || err != nil || info.Generation != 8 || info.Entries != 1 || len(got) != 1 || got[one].Lower() != 4 {
		t.Errorf("after the next checkpoint: %+v %v %v, %v", info, ok, err, got)
	}
	if st, err := s.Stats(); err != nil || st.Counts[0].Resume != 2 {
		t.Errorf("stats after the next checkpoint: %+v, %v", st.Counts, err)
	}
	if err := s.DropResume(root); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Resume(root, func(engine.Key, tt.Entry) { t.Error("an entry after the drop") }); ok || err != nil {
		t.Errorf("after the drop: %v %v", ok, err)
	}
	n := 0
	if _, ok, _ := s.Resume(other, func(engine.Key, tt.Entry) { n++ }); !ok || n != 1 {
		t.Errorf("the other root's checkpoint: %v, %d entries", ok, n)
	}
	if e, ok := s.Get(engine.Key{Own: 0x0505, Opp: 0x0505}); !ok || e.Lower() != 0 {
		t.Errorf("the store's entry after the drop: %v %v", e, ok)
	}
}
