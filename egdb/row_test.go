package egdb

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// TestSowRow checks the row tables against sowing every move in full: for
// every pit count and both rules, runs of consecutive positions (the row
// table reused, the column from the cursor) and single positions (a fresh
// table, the column ranked) give the same children, ranks and results.
func TestSowRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, capture := range []engine.Rule{engine.NoEmptyCapture, engine.EmptyCapture} {
		for m := 1; m <= engine.MaxPits; m++ {
			rules := engine.Variant{Pits: m, Rule: capture}
			maxSeeds := min(16, 2*m+8)
			x, err := NewIndex(m, maxSeeds)
			if err != nil {
				t.Fatal(err)
			}
			for s := 2; s <= maxSeeds; s++ {
				w := &slicer{rules: rules, x: x, lower: make([]table, s), cur: make([]uint32, (x.Size(s)+3)/4), s: s}
				check := func(own, opp uint64, got *[engine.MaxPits]kid, n int) {
					t.Helper()
					b := engine.Board{Own: own, Opp: opp}
					var want kid
					i := 0
					for mv := b.Moves(); mv != 0; mv &= mv - 1 {
						w.sowMove(b, bits.TrailingZeros8(mv), &want)
						if i >= n || got[i] != want {
							t.Fatalf("%v m=%d s=%d own %x opp %x move %d: row gives %+v, sowing %+v", capture, m, s, own, opp, i, got[i], want)
						}
						i++
					}
					if i != n {
						t.Fatalf("%v m=%d own %x opp %x: %d moves, row gives %d", capture, m, own, opp, i, n)
					}
				}
				size := x.Size(s)
				for range 20 {
					lo := rng.Int64N(size)
					c := x.Cursor(s, lo, min(size-lo, 50))
					for c.Next() {
						var kids [engine.MaxPits]kid
						check(c.Own, c.Opp, &kids, w.sowRow(&w.row, c.Own, c.Opp, c.Col, &kids))
						var one [engine.MaxPits]kid
						check(c.Own, c.Opp, &one, w.sowRow(&w.rrow, c.Own, c.Opp, x.rankSide(c.Opp*ones), &one))
					}
				}
			}
		}
	}
}
