package kalah

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/book"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// A fresh session, with no cache and no database, answers every position
// of the built-in book from it at once, as from the cache: with
// FromCache and FromBook, the record of the solve that made it, no
// search.
func TestSessionBook(t *testing.T) {
	b, err := book.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range b.Files() {
		k, err := Open(Config{Pits: f.Pits, Seeds: f.Seeds, Rule: f.Variant.Rule, NoCache: true, NoEGDB: true, TableSize: 1 << 20, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		var slowest time.Duration
		for _, want := range f.Records {
			side, _ := engine.ParseSide(want.ToMove)
			p, err := engine.ParsePosition(want.Position, side)
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			res, err := k.Solve(context.Background(), p)
			slowest = max(slowest, time.Since(t0))
			if err != nil {
				t.Fatal(err)
			}
			if !res.FromBook || !res.FromCache || !res.Solved || res.Stats.Nodes != 0 || res.Value != want.Value || len(res.Moves) != len(want.Moves) ||
				res.Record.Nodes != want.Nodes || res.Record.VCSRevision != want.VCSRevision || res.Record.Date != want.Date {
				t.Fatalf("%s: %v %v: %+v", f.Name, p, p.ToMove, res)
			}
			if v, err := k.Value(context.Background(), p); err != nil || v != want.Value {
				t.Errorf("%s: %v %v: Value %d, %v", f.Name, p, p.ToMove, v, err)
			}
			if res, err := k.BestMove(context.Background(), p); err != nil || !res.FromBook || len(res.Best) == 0 {
				t.Errorf("%s: %v %v: BestMove %+v, %v", f.Name, p, p.ToMove, res, err)
			}
		}
		if res, err := k.Solve(context.Background(), k.Start()); err != nil || res.Record.Seeds != f.Seeds {
			t.Errorf("%s: the start's record: %+v, %v", f.Name, res, err)
		}
		k.Close()
		t.Logf("%s: %d positions, slowest answer %v", f.Name, len(f.Records), slowest)
		if slowest > time.Second {
			t.Errorf("%s: an answer took %v", f.Name, slowest)
		}
	}
}

// NoBook and Recompute leave the book out: the session searches (here
// stopped at once); BookAnswer answers positions of any game the book
// holds, but not with NoBook.
func TestSessionNoBook(t *testing.T) {
	b, err := book.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	f := b.Files()[0]
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	for _, cfg := range []Config{{NoBook: true}, {Recompute: true}} {
		cfg.Pits, cfg.Seeds, cfg.Rule, cfg.NoCache, cfg.NoEGDB, cfg.TableSize, cfg.Threads = f.Pits, f.Seeds, f.Variant.Rule, true, true, 1<<20, 1
		k, err := Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := k.Solve(stopped, k.Start())
		if !errors.Is(err, solver.ErrInterrupted) || (res != nil && (res.FromBook || res.FromCache)) {
			t.Errorf("%+v: %+v, %v", cfg, res, err)
		}
		if _, ok := k.BookAnswer(f.Variant, f.Start); ok {
			t.Errorf("%+v: BookAnswer answers", cfg)
		}
		k.Close()
	}
	k, err := Open(Config{Pits: 3, Seeds: 3, NoCache: true, NoEGDB: true})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	res, ok := k.BookAnswer(f.Variant, f.Start)
	if !ok || !res.FromBook || !res.FromCache || res.Value != f.Records[0].Value || len(res.PV) == 0 || len(res.Best) == 0 {
		t.Errorf("BookAnswer of %s's start: %+v, %v", f.Name, res, ok)
	}
	if _, ok := k.BookAnswer(engine.Variant{Pits: 3}, k.Start()); ok {
		t.Error("BookAnswer of a game the book does not hold")
	}
}

// The cache's own record comes before the book's.
func TestCacheBeforeBook(t *testing.T) {
	b, err := book.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	f := b.Files()[0]
	k, err := Open(Config{Pits: f.Pits, Seeds: f.Seeds, Rule: f.Variant.Rule, CacheDir: t.TempDir(), NoEGDB: true, TableSize: 1 << 20, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	rec, _ := b.Lookup(f.Variant, f.Start)
	rec.Date = "2000-01-01"
	if err := k.saveRoot(f.Start, rec); err != nil {
		t.Fatal(err)
	}
	res, err := k.Solve(context.Background(), f.Start)
	if err != nil || !res.FromCache || res.FromBook || res.Record.Date != "2000-01-01" {
		t.Errorf("%+v, %v", res, err)
	}
	recs, missing, err := k.BookRecords(1)
	if err != nil || len(recs) != 1 || len(missing) == 0 || recs[0].Date != "2000-01-01" {
		t.Errorf("BookRecords: %d records, %d missing, %v", len(recs), len(missing), err)
	}
}

// The cost of an answer from the built-in book: Solve of the Kalah(6,4)
// start in a session with no cache.
func BenchmarkSessionBook(b *testing.B) {
	k, err := Open(Config{NoCache: true, NoEGDB: true, TableSize: 1 << 20, Threads: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer k.Close()
	for b.Loop() {
		if res, err := k.Solve(context.Background(), k.Start()); err != nil || !res.FromBook {
			b.Fatalf("%+v, %v", res, err)
		}
	}
}
