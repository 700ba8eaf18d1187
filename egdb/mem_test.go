package egdb

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// A build into a directory reads each slice it has written back from its
// file (writeAndMap) and builds the next ones from those mappings: every
// value must be the in-memory build's, in both encodings.
func TestBuildDirMapsWrittenSlices(t *testing.T) {
	defer func(old int64) { remapMin = old }(remapMin)
	remapMin = 0 // map every slice back, however small
	const maxSeeds = 12
	for _, c := range engine.AllRules {
		rules := engine.Variant{Pits: 4, Rule: c}
		want, err := Build(context.Background(), rules, maxSeeds, Options{Encoding: EncodingGainByte})
		if err != nil {
			t.Fatal(err)
		}
		defer want.Close()
		for _, enc := range encodings {
			db, err := BuildDir(context.Background(), t.TempDir(), rules, maxSeeds, Options{Encoding: enc, Threads: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(db.unmap) < maxSeeds-1 {
				t.Errorf("%v %s: %d slices mapped back, want at least %d", rules, EncodingName(enc), len(db.unmap), maxSeeds-1)
			}
			for s := 0; s <= maxSeeds; s++ {
				cur := want.Index().Cursor(s, 0, want.Index().Size(s))
				for cur.Next() {
					b := engine.Board{Own: cur.Own, Opp: cur.Opp}
					g0, ok0 := want.Probe(b)
					g1, ok1 := db.Probe(b)
					if ok0 != ok1 || g0 != g1 {
						t.Fatalf("%v %s slice %d rank %d: in memory %d (%v), through files %d (%v)", rules, EncodingName(enc), s, cur.Rank, g0, ok0, g1, ok1)
					}
				}
			}
			db.Close()
		}
	}
}

// A build that has too little memory for a slice, whole or in parts,
// stops before it with ErrMemory and a message saying what is kept; the slices below are on
// disk, and a build with memory enough resumes from them.
func TestBuildStopsWithoutMemory(t *testing.T) {
	dir := t.TempDir()
	rules := rules4
	const stopAt, maxSeeds = 8, 10
	x, _ := NewIndex(4, maxSeeds)
	limit := min(SliceMemory(x.Size(stopAt), EncodingPacked), PartsMemory(x, stopAt, EncodingPacked)) - 1 // neither whole nor in parts
	_, err := BuildDir(context.Background(), dir, rules, maxSeeds, Options{
		Available: func() (int64, bool) { return limit, true }})
	if !errors.Is(err, ErrMemory) {
		t.Fatalf("err = %v, want ErrMemory", err)
	}
	for _, want := range []string{"slice 8 ", "slices 0..7 are kept in " + RuleDir(dir, rules), "--max-seeds 7"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	for s := 0; s <= maxSeeds; s++ {
		_, statErr := os.Stat(SlicePath(dir, rules, s))
		if (statErr == nil) != (s < stopAt) {
			t.Errorf("slice %d: file exists %v", s, statErr == nil)
		}
	}
	// Memory unknown: no check.
	var built []int
	db, err := BuildDir(context.Background(), dir, rules, maxSeeds, Options{
		Available: func() (int64, bool) { return 0, false },
		SliceDone: func(r SliceReport) {
			if r.Built {
				built = append(built, r.Seeds)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if len(built) != maxSeeds-stopAt+1 || built[0] != stopAt {
		t.Errorf("resumed build built slices %v, want %d..%d", built, stopAt, maxSeeds)
	}
	// An in-memory build checks too.
	if _, err := Build(context.Background(), rules, maxSeeds, Options{
		Available: func() (int64, bool) { return limit, true }}); !errors.Is(err, ErrMemory) {
		t.Errorf("in-memory build: err = %v, want ErrMemory", err)
	}
}
