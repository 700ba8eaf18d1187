package egdb

import (
	"context"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// TestPublishedValues checks start positions small enough for the
// database alone against Irving, Donkers & Uiterwijk (2000), Tables 9 and
// 10 (empty-capture).
func TestPublishedValues(t *testing.T) {
	type game struct{ m, n, value int }
	exact := []game{{4, 1, 2}, {4, 2, 6}, {5, 1, 0}, {6, 1, 2}}
	// Table 10 as signs: +1 W, 0 D, -1 L, for n = 1..6.
	signs := map[int][]int{1: {0, -1, 1, -1, 1, 0}, 2: {1, -1, -1, -1, 1, 1}, 3: {0, 1, 1, 1, 1, -1}}
	if testing.Short() {
		signs[3] = signs[3][:4] // Kalah(3,5) and (3,6) need 30 and 36 seeds
	} else {
		exact = append(exact, game{4, 3, 8}, game{4, 4, 2}, game{5, 2, 0})
	}
	for m := 1; m <= 6; m++ {
		maxN := 0
		for _, g := range exact {
			if g.m == m {
				maxN = max(maxN, g.n)
			}
		}
		maxN = max(maxN, len(signs[m]))
		if maxN == 0 {
			continue
		}
		rules := engine.Variant{Pits: m, Rule: engine.EmptyCapture}
		size := 2 * m * maxN
		if m == 6 {
			size = 12 // shared with the other six-pit tests
		}
		db := shared(t, rules, size)
		value := func(n int) int {
			b, _ := rules.Start(n)
			d, ok := db.ProbeDiff(b)
			if !ok {
				t.Fatalf("Kalah(%d,%d) not in the database", m, n)
			}
			return d
		}
		for _, g := range exact {
			if g.m == m {
				if v := value(g.n); v != g.value {
					t.Errorf("Kalah(%d,%d) = %+d, published %+d", m, g.n, v, g.value)
				}
			}
		}
		for i, sign := range signs[m] {
			if v := value(i + 1); (v > 0) != (sign > 0) || (v < 0) != (sign < 0) {
				t.Errorf("Kalah(%d,%d) = %+d, published sign %+d", m, i+1, v, sign)
			}
		}
	}
}

func TestVerifyFindsDamage(t *testing.T) {
	db, err := Build(context.Background(), rules4, 10, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s <= 10; s++ {
		res, err := db.Verify(context.Background(), s, VerifyOptions{})
		if err != nil || res.Mismatches != 0 || res.Checked != res.Positions {
			t.Fatalf("slice %d: %+v, %v", s, res, err)
		}
	}
	res, _ := db.Verify(context.Background(), 10, VerifyOptions{Fraction: 0.1, Seed: 3})
	if res.Checked < res.Positions/20 || res.Checked > res.Positions/5 {
		t.Fatalf("a 10%% sample checked %d of %d", res.Checked, res.Positions)
	}
	// Damage one entry of slice 9: it and the slice-9 and slice-10
	// positions that read it disagree.
	damageEntry(&db.slices[9], 1234)
	for s, want := range map[int]bool{8: false, 9: true, 10: true} {
		res, _ := db.Verify(context.Background(), s, VerifyOptions{Threads: 2})
		if (res.Mismatches > 0) != want {
			t.Errorf("slice %d after damaging slice 9: %d mismatches", s, res.Mismatches)
		}
		if want && len(res.Examples) == 0 {
			t.Errorf("slice 9: examples %+v", res.Examples)
		}
	}
}

func TestProbe(t *testing.T) {
	db := shared(t, engine.Variant{Pits: 6}, 12)
	b := engine.Board{Own: 0x010203, Opp: 0x0102, OwnStore: 20, OppStore: 11}
	if _, ok := db.Probe(engine.Board{Own: 5}); ok {
		t.Error("a finished game probed")
	}
	if _, ok := db.Probe(engine.Board{Own: 7, Opp: 6}); ok {
		t.Error("13 seeds probed in a 12-seed database")
	}
	g, ok := db.Probe(b)
	if !ok || g < 0 || g > 9 {
		t.Fatalf("Probe = %d, %v", g, ok)
	}
	// g is the best move's worth.
	best := -1
	for _, i := range b.MoveList() {
		mg, ok := db.MoveGain(b, i)
		if !ok {
			t.Fatal("MoveGain outside the database")
		}
		best = max(best, mg)
	}
	if best != g {
		t.Errorf("Probe %d, best move %d", g, best)
	}
	if n := testing.AllocsPerRun(100, func() { db.Probe(b) }); n != 0 {
		t.Errorf("Probe allocates %v times", n)
	}
	// Concurrent probes (run with -race).
	var wg sync.WaitGroup
	want := db.Slice(12) // decoded once
	for w := range 4 {
		wg.Go(func() {
			c := db.Index().Cursor(12, int64(w)*1000, 5000)
			for c.Next() {
				if v, _ := db.Probe(engine.Board{Own: c.Own, Opp: c.Opp}); v != int(want[c.Rank]) {
					t.Errorf("rank %d: probe %d", c.Rank, v)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestStats(t *testing.T) {
	db, _ := Build(context.Background(), rules4, 8, Options{})
	st, err := db.Stats(8)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, c := range st.Gains {
		sum += c
	}
	if sum != st.Positions || st.Won+st.Drawn+st.Lost != st.Positions || st.Positions != db.Index().Size(8) {
		t.Fatalf("stats do not add up: %+v", st)
	}
	if st.Drawn != st.Gains[4] {
		t.Fatalf("drawn %d, g=4 count %d", st.Drawn, st.Gains[4])
	}
}

// TestPrefetch runs Prefetch on every position of every slice, in both
// encodings, and on boards the database does not hold: it must stay
// within the tables (a wrong line offset would panic here) and not
// allocate.
func TestPrefetch(t *testing.T) {
	for _, enc := range []int{EncodingGainByte, EncodingPacked} {
		db, err := Build(context.Background(), rules4, 10, Options{Encoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		if db.Encoding(10) != enc {
			t.Fatalf("built in encoding %d, want %d", db.Encoding(10), enc)
		}
		for s := 0; s <= db.MaxSeeds(); s++ {
			c := db.Index().Cursor(s, 0, db.Index().Size(s))
			for c.Next() {
				db.Prefetch(engine.Board{Own: c.Own, Opp: c.Opp})
			}
		}
		db.Prefetch(engine.Board{Own: 5})              // a side without seeds
		db.Prefetch(engine.Board{Own: 6, Opp: 5})      // 11 seeds, past the database
		db.Prefetch(engine.Board{Own: 0x0505, Opp: 1}) // likewise
		b := engine.Board{Own: 0x010203, Opp: 0x0102}
		if n := testing.AllocsPerRun(100, func() { db.Prefetch(b) }); n != 0 {
			t.Errorf("%s: Prefetch allocates %v times", EncodingName(enc), n)
		}
	}
}
