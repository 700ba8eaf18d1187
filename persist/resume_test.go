package persist_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/tt"
)

// A checkpoint survives the process and loads back whole into a table of
// the same size, for its own root only; a damaged, truncated or foreign
// one, or one made with another table size, is refused with the reason;
// a dropped one is gone. Stats counts the checkpoints, and the cache's
// entries are untouched by all of it.
func TestCheckpointRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	root, _ := r.StartPosition(4)
	other, _ := r.StartPosition(3)
	keys := []engine.Key{{Own: 0x040404040404, Opp: 0x040404040403}, {Own: 0x0102, Opp: 0x0a00000000}, {Own: 0x01, Opp: 0x01}}
	ents := []tt.Entry{
		tt.MakeEntry(8, 8, 2, tt.DepthSolved, 26),
		tt.MakeEntry(-3, tt.NoUpper, 1, tt.DepthSolved, 9),
		tt.MakeEntry(tt.NoLower, 0, 0, 12, 3),
	}
	tab, err := tt.New(6, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	slot := func(tab *tt.Table, k engine.Key) tt.Slot {
		return tab.SlotOf(k, engine.Board{Own: k.Own, Opp: k.Opp}.Seeds())
	}
	for i, k := range keys {
		tab.Put(slot(tab, k), ents[i])
	}
	s := openCache(t, dir, r, persist.Options{})
	s.Put(engine.Key{Own: 0x0505, Opp: 0x0505}, tt.MakeEntry(0, 0, 0, tt.DepthSolved, 20))
	when := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	n, err := s.SaveCheckpoint(root, tab, persist.ResumeInfo{Checkpoints: 3, Nodes: 12345, Seconds: 6.5, Time: when})
	if err != nil || n != 128+tab.Bytes()+4 {
		t.Fatalf("checkpoint: %d bytes, %v", n, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openCache(t, dir, r, persist.Options{})
	defer s.Close()
	st, err := s.Stats()
	if err != nil || len(st.Counts) != 1 || st.Counts[0].Entries != 1 || st.Counts[0].Resume != 1 {
		t.Fatalf("stats: %+v, %v", st.Counts, err)
	}
	got, _ := tt.New(6, 1<<20)
	info, err := s.LoadCheckpoint(root, got)
	if err != nil {
		t.Fatal(err)
	}
	if info.Checkpoints != 3 || info.Nodes != 12345 || info.Seconds != 6.5 || !info.Time.Equal(when) || info.TableSize != 1<<20 {
		t.Errorf("checkpoint info: %+v", info)
	}
	for i, k := range keys {
		if e, ok := got.Probe(slot(got, k)); !ok || e.Lower() != ents[i].Lower() || e.Upper() != ents[i].Upper() || e.Move() != ents[i].Move() || e.Depth() != ents[i].Depth() || e.Work() != ents[i].Work() {
			t.Errorf("after loading: %v is %v (%v), want %v", k, e, ok, ents[i])
		}
	}

	if _, err := s.LoadCheckpoint(other, got); !errors.Is(err, persist.ErrNoCheckpoint) {
		t.Errorf("another root: %v", err)
	}
	small, _ := tt.New(6, 1<<19)
	if _, err := s.LoadCheckpoint(root, small); err == nil || !strings.Contains(err.Error(), "--table-size") {
		t.Errorf("another table size: %v", err)
	}
	// One flipped bit anywhere: refused, and the table left cleared.
	files, _ := filepath.Glob(filepath.Join(dir, "resume", "*.ckpt"))
	if len(files) != 1 {
		t.Fatalf("checkpoint files: %v", files)
	}
	b, _ := os.ReadFile(files[0])
	b[128+len(b)/2] ^= 4
	os.WriteFile(files[0], b, 0o644)
	if _, err := s.LoadCheckpoint(root, got); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("damaged: %v", err)
	}
	if got.Used() != 0 {
		t.Errorf("damaged checkpoint: the table keeps %d entries", got.Used())
	}
	os.WriteFile(files[0], b[:len(b)-100], 0o644)
	if _, err := s.LoadCheckpoint(root, got); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated: %v", err)
	}

	if err := s.DropCheckpoint(root); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LoadCheckpoint(root, got); !errors.Is(err, persist.ErrNoCheckpoint) {
		t.Errorf("after the drop: %v", err)
	}
	if e, ok := s.Get(engine.Key{Own: 0x0505, Opp: 0x0505}); !ok || e.Lower() != 0 {
		t.Errorf("the cache's entry: %v %v", e, ok)
	}
}

// A checkpoint that would leave less than CheckpointMargin free on its
// disk is not written: the error says how much is free and needed, the
// previous checkpoint stays whole and loads, and no partial file is left.
func TestCheckpointLeavesRoom(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	root, _ := r.StartPosition(3)
	tab, err := tt.New(4, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s := openCache(t, dir, r, persist.Options{})
	defer s.Close()
	n, err := s.SaveCheckpoint(root, tab, persist.ResumeInfo{Checkpoints: 1, Time: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	for _, free := range []int64{0, n + persist.CheckpointMargin - 1, n + persist.CheckpointMargin} {
		restore := persist.SetDiskFree(func(string) (int64, bool) { return free, true })
		_, err := s.SaveCheckpoint(root, tab, persist.ResumeInfo{Checkpoints: 2, Time: time.Now()})
		restore()
		fits := free >= n+persist.CheckpointMargin
		if fits != (err == nil) || (err != nil && !strings.Contains(err.Error(), "checkpoint not written")) {
			t.Errorf("%d bytes free: %v", free, err)
		}
		info, lerr := s.LoadCheckpoint(root, tab)
		if want := map[bool]int64{false: 1, true: 2}[fits]; lerr != nil || info.Checkpoints != want {
			t.Errorf("%d bytes free: then loaded checkpoint %d (%v), want %d", free, info.Checkpoints, lerr, want)
		}
		if tmp, _ := filepath.Glob(filepath.Join(dir, "resume", "*.tmp")); len(tmp) != 0 {
			t.Errorf("%d bytes free: left %v", free, tmp)
		}
	}
}
