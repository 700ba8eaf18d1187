package serve

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/book"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// TestBookWithoutSession: a position of the built-in opening book is
// answered at once, before the server has opened any session (no
// database, no table), never waiting in line: the start of Kalah(6,4)
// and the positions after its first moves, under both rules.
func TestBookWithoutSession(t *testing.T) {
	s, hs := startServer(t, Options{CacheDir: t.TempDir(), NoEGDB: true, NoPonder: true, TableSize: 16 << 20, Threads: 1, MaxQueue: 1})
	b, err := book.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	c := loadClient(1)
	for _, rule := range []engine.Rule{engine.NoEmptyCapture, engine.EmptyCapture} {
		r := engine.Variant{Pits: 6, Rule: rule}
		start, err := r.StartPosition(4)
		if err != nil {
			t.Fatal(err)
		}
		ps := []engine.Position{start}
		for m := 0; m < 6; m++ {
			if start.Board.Moves()&(1<<m) == 0 {
				continue
			}
			child, _ := r.PlayPosition(start, m)
			if !child.Board.Over() {
				ps = append(ps, child)
			}
		}
		for _, p := range ps {
			want, ok := b.Lookup(r, p)
			if !ok {
				t.Fatalf("%v %v: not in the built-in book", rule, p)
			}
			// Without the book this would be a search of minutes.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			code, rep, err := ask(ctx, c, hs, rule, p)
			cancel()
			if code != 200 {
				t.Fatalf("%v %v: status %d: %v", rule, p, code, err)
			}
			if !rep.FromBook || !rep.FromCache || rep.Value != want.Value || len(rep.Moves) != len(want.Moves) {
				t.Errorf("%v %v: from_book %v, from_cache %v, value %d with %d moves; the book says %d with %d", rule, p, rep.FromBook, rep.FromCache, rep.Value, len(rep.Moves), want.Value, len(want.Moves))
			}
		}
	}
	s.smu.RLock()
	opened := s.k != nil
	s.smu.RUnlock()
	if opened {
		t.Error("answering from the book opened a session")
	}
}

// BenchmarkBookAnswers is the fresh-install half of the explorer's
// latency measurement (docs/explorer.md, "How fast it answers"): a server
// on an empty data directory ($XDG_DATA_HOME a new temporary directory)
// started as 'kalah serve' starts, warming its first game meanwhile,
// which builds the default database of Kalah(6,4) under no-empty-capture
// (20 seeds; KALAH_BOOK_NO_BUILD=1 skips the
// warm-up). From the start on it asks /api/solve over HTTP, one request
// at a time, for every position of the built-in book under both rules,
// ply by ply from the start, round after round until the warm-up has
// ended, then once more. Every answer must come from the book with the
// book's value and moves. It reports the positions, the rounds, the
// median, 99th percentile and largest answer time over all rounds, and
// how many answers exceeded 100 ms.
// Run it once: go test -run '^$' -bench BookAnswers -benchtime 1x ./serve
func BenchmarkBookAnswers(b *testing.B) {
	b.Setenv("XDG_DATA_HOME", b.TempDir())
	bk, err := book.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	type entry struct {
		rule engine.Rule
		p    engine.Position
		want *results.Record
	}
	var ps []entry
	for _, rule := range []engine.Rule{engine.NoEmptyCapture, engine.EmptyCapture} {
		r := engine.Variant{Pits: 6, Rule: rule}
		f := bk.File(r, 4)
		if f == nil {
			b.Fatalf("%v: no built-in book of Kalah(6,4)", rule)
		}
		start, err := r.StartPosition(4)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range book.Positions(r, start, f.Plies) {
			want, ok := bk.Lookup(r, p)
			if !ok {
				b.Fatalf("%v %v: within %d plies but not in the book", rule, p, f.Plies)
			}
			ps = append(ps, entry{rule, p, want})
		}
	}
	c := loadClient(1)
	for range b.N {
		s, hs := startServer(b, Options{AutoEGDB: true, MaxQueue: -1})
		ctx, cancel := context.WithCancel(context.Background())
		warmed := make(chan struct{})
		go func() {
			defer close(warmed)
			if os.Getenv("KALAH_BOOK_NO_BUILD") == "" {
				s.Warm(ctx, 6, 4, engine.NoEmptyCapture)
			}
		}()
		var wall []float64
		slow, rounds := 0, 0
		for done := false; !done; rounds++ {
			select {
			case <-warmed:
				done = true // a last round after the warm-up
			default:
			}
			for _, e := range ps {
				t0 := time.Now()
				code, rep, err := ask(context.Background(), c, hs, e.rule, e.p)
				w := time.Since(t0).Seconds()
				if code != 200 {
					b.Fatalf("%v %v: status %d: %v", e.rule, e.p, code, err)
				}
				if !rep.FromBook || rep.Value != e.want.Value || !slices.Equal(rep.Moves, e.want.Moves) {
					b.Fatalf("%v %v: from_book %v, value %d, moves %v; the book says %d, %v", e.rule, e.p, rep.FromBook, rep.Value, rep.Moves, e.want.Value, e.want.Moves)
				}
				wall = append(wall, w)
				if w > 0.1 {
					slow++
				}
			}
		}
		cancel()
		slices.Sort(wall)
		b.ReportMetric(float64(len(ps)), "positions")
		b.ReportMetric(float64(rounds), "rounds")
		b.ReportMetric(quantile(wall, 0.5)*1e3, "median-ms")
		b.ReportMetric(quantile(wall, 0.99)*1e3, "p99-ms")
		b.ReportMetric(wall[len(wall)-1]*1e3, "max-ms")
		b.ReportMetric(float64(slow), "over-100ms")
	}
}
