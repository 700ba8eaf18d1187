package persist_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/tt"
)

// PruneCheckpoints deletes the checkpoints of solved positions, those no
// solve can load (another position's header under the name, another
// format, truncated) and the leftovers of cut-short writes, and keeps the
// checkpoints of unfinished solves of every rule, which still load.
func TestPruneCheckpoints(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	resume := filepath.Join(dir, "resume")
	r6 := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	r4 := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	list := func() []string {
		names, _ := filepath.Glob(filepath.Join(resume, "*"))
		for i := range names {
			names[i] = filepath.Base(names[i])
		}
		return names
	}
	// save checkpoints root in s and returns its file's name.
	save := func(s *persist.Cache, r engine.Variant, seeds int) (engine.Position, string) {
		t.Helper()
		root, _ := r.StartPosition(seeds)
		tab, _ := tt.New(r.Pits, 1<<20)
		before := list()
		if _, err := s.SaveCheckpoint(root, tab, persist.ResumeInfo{Checkpoints: 1, Time: time.Now()}); err != nil {
			t.Fatal(err)
		}
		for _, n := range list() {
			if !slices.Contains(before, n) {
				return root, n
			}
		}
		t.Fatalf("no checkpoint file for %v", root)
		return root, ""
	}
	s := openCache(t, dir, r6, persist.Options{})
	solved, solvedName := save(s, r6, 4)
	if err := s.PutRoot(solved, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	open, openName := save(s, r6, 3)
	_, foreign := save(s, r6, 2)
	_, format := save(s, r6, 1)
	_, short := save(s, r6, 5)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openCache(t, dir, r4, persist.Options{})
	other, otherName := save(s, r4, 3)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(resume, openName))
	os.WriteFile(filepath.Join(resume, foreign), b, 0o644) // another position's checkpoint under this name
	b, _ = os.ReadFile(filepath.Join(resume, format))
	b[16] = 99 // a checkpoint format this kalah does not write
	os.WriteFile(filepath.Join(resume, format), b, 0o644)
	os.Truncate(filepath.Join(resume, short), 1000)
	os.WriteFile(filepath.Join(resume, openName+".tmp"), []byte("cut short"), 0o644)
	os.WriteFile(filepath.Join(resume, "notes.txt"), []byte("not a checkpoint"), 0o644)

	s = openCache(t, dir, engine.Variant{}, persist.Options{})
	pr, err := s.PruneCheckpoints()
	if err != nil {
		t.Fatal(err)
	}
	if want := (persist.Pruned{Solved: 1, Unreadable: 3, Partial: 1, Kept: 2}); pr != want || pr.Removed() != 5 {
		t.Errorf("pruned %+v, want %+v", pr, want)
	}
	got, want := list(), []string{openName, otherName, "notes.txt"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("left %v, want %v (solved: %s)", got, want, solvedName)
	}
	if pr, err := s.PruneCheckpoints(); err != nil || pr != (persist.Pruned{Kept: 2}) {
		t.Errorf("pruned again: %+v, %v", pr, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r    engine.Variant
		root engine.Position
	}{{r6, open}, {r4, other}} {
		s := openCache(t, dir, c.r, persist.Options{})
		tab, _ := tt.New(c.r.Pits, 1<<20)
		if info, err := s.LoadCheckpoint(c.root, tab); err != nil || info.Checkpoints != 1 {
			t.Errorf("%v: the checkpoint kept does not load: %+v, %v", c.root, info, err)
		}
		s.Close()
	}
}
