package kalah

import (
	"context"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// TestCached: a session answers from the cache the positions of its own
// game and of any other game the cache holds records of, with no search;
// a position it holds none of, or of another rule, is not answered.
func TestCached(t *testing.T) {
	dir := t.TempDir()
	open := func(pits, seeds int, rule Rule) *Session {
		k, err := Open(Config{Pits: pits, Seeds: seeds, Rule: rule, NoEGDB: true, CacheDir: dir, Threads: 1, TableSize: 16 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	k := open(3, 2, EmptyCapture)
	start := k.Start()
	want, err := k.Solve(context.Background(), start)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	k = open(4, 3, NoEmptyCapture)
	defer k.Close()
	r3, _ := engine.NewVariant(3, EmptyCapture)
	res, ok := k.Cached(r3, start)
	if !ok || !res.FromCache || res.Value != want.Value || len(res.Moves) != len(want.Moves) || res.Record.Seeds != 2 || res.Variant != r3 {
		t.Fatalf("Kalah(3,2) from a Kalah(4,3) session: %+v, %v; want value %d", res, ok, want.Value)
	}
	for i, m := range res.Moves {
		if m.Value != want.Moves[i].Value {
			t.Errorf("move %s: %d, want %d", m.Move, m.Value, want.Moves[i].Value)
		}
	}
	if _, ok := k.Cached(engine.Variant{Pits: 3, Rule: NoEmptyCapture}, start); ok {
		t.Error("a record of another rule answered")
	}
	if _, ok := k.Cached(k.Variant(), k.Start()); ok {
		t.Error("a position never solved answered")
	}
	if _, ok := k.Cached(k.Variant(), start); ok {
		t.Error("a position of 3 pits answered under rules of 4")
	}
}
