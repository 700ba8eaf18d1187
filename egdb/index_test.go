package egdb

import (
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// TestRankRoundTrip walks whole slices with a cursor and checks that every
// position is valid, in the slice, ranked as its cursor rank, and unranked
// back to itself; a gapless bijection follows.
func TestRankRoundTrip(t *testing.T) {
	limits := map[int]int{1: 30, 2: 24, 3: 16, 4: 12, 5: 10, 6: 9, 7: 8, 8: 7}
	for m := 1; m <= engine.MaxPits; m++ {
		x, err := NewIndex(m, limits[m])
		if err != nil {
			t.Fatal(err)
		}
		for s := 0; s <= limits[m]; s++ {
			n := x.Size(s)
			if want := SliceSize(m, s).Int64(); n != want {
				t.Fatalf("m=%d slice %d: index size %d, formula %d", m, s, n, want)
			}
			c := x.Cursor(s, 0, n)
			var count int64
			for c.Next() {
				if c.Rank != count {
					t.Fatalf("m=%d s=%d: cursor rank %d at step %d", m, s, c.Rank, count)
				}
				count++
				a, b := engine.LaneSum(c.Own), engine.LaneSum(c.Opp)
				if a == 0 || b == 0 || a+b != s || c.Own>>(8*uint(m)) != 0 || c.Opp>>(8*uint(m)) != 0 {
					t.Fatalf("m=%d s=%d rank %d: bad position %x %x", m, s, c.Rank, c.Own, c.Opp)
				}
				r, s2 := x.Rank(c.Own, c.Opp)
				if r != c.Rank || s2 != s {
					t.Fatalf("m=%d s=%d: position %x %x at cursor rank %d ranks as %d (slice %d)", m, s, c.Own, c.Opp, c.Rank, r, s2)
				}
				if o, p := x.Unrank(s, r); o != c.Own || p != c.Opp {
					t.Fatalf("m=%d s=%d: unrank(%d) = %x %x, want %x %x", m, s, r, o, p, c.Own, c.Opp)
				}
			}
			if count != n {
				t.Fatalf("m=%d s=%d: cursor yielded %d of %d", m, s, count, n)
			}
		}
	}
}

// TestCursorMidSlice starts cursors inside a slice, as the workers do.
func TestCursorMidSlice(t *testing.T) {
	x, _ := NewIndex(6, 12)
	n := x.Size(12)
	for _, lo := range []int64{0, 1, 77, n / 3, n - 5} {
		c := x.Cursor(12, lo, min(1000, n-lo))
		for c.Next() {
			if o, p := x.Unrank(12, c.Rank); o != c.Own || p != c.Opp {
				t.Fatalf("from %d: rank %d is %x %x, want %x %x", lo, c.Rank, c.Own, c.Opp, o, p)
			}
		}
	}
}

// TestSizes checks the counts against the paper's Table 8 and Table 2.
func TestSizes(t *testing.T) {
	if got := CumulativeSize(6, 20).String(); got != "225332381" {
		t.Errorf("positions with at most 20 seeds on 6 pits: %s, want 225332381", got)
	}
	for _, m := range []int{1, 3, 6, 8} {
		var sum int64
		for s := 0; s <= 24; s++ {
			sum += SliceSize(m, s).Int64()
			if got := CumulativeSize(m, s).Int64(); got != sum {
				t.Fatalf("m=%d s<=%d: cumulative %d, sum of slices %d", m, s, got, sum)
			}
		}
	}
	x, _ := NewIndex(6, 24)
	var sum int64
	for s := 0; s <= 24; s++ {
		sum += x.Size(s)
	}
	if sum != 1250490151 {
		t.Errorf("6 pits, at most 24 seeds: %d positions, want 1250490151", sum)
	}
	// Table 2: Kalah(6,4) has about 1.31e13 states (side to move counted).
	if got := StateSpace(6, 4).String(); got != "13132444545150" {
		t.Errorf("state space of Kalah(6,4): %s", got)
	}
}
