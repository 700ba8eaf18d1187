package tt

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

func randomKey(rng *rand.Rand, m, seeds int) engine.Key {
	var k engine.Key
	for s := 0; s < seeds; s++ {
		i := rng.IntN(2 * m)
		if i < m {
			k.Own += 1 << (8 * uint(i))
		} else {
			k.Opp += 1 << (8 * uint(i-m))
		}
	}
	return k
}

func TestRankRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for m := 1; m <= engine.MaxPits; m++ {
		for n := 0; n < 3000; n++ {
			k := randomKey(rng, m, rng.IntN(60))
			if got := Unrank(m, Rank(m, k)); got != k {
				t.Fatalf("m=%d: Unrank(Rank(%x)) = %x", m, k, got)
			}
		}
	}
	// Exhaustive: ranks of all positions with at most 5 seeds on 2x2 pits
	// are exactly 0..C(9,4)-1.
	seen := map[uint64]bool{}
	for a := 0; a <= 5; a++ {
		for b := 0; a+b <= 5; b++ {
			for c := 0; a+b+c <= 5; c++ {
				for d := 0; a+b+c+d <= 5; d++ {
					k := engine.Key{Own: uint64(a) | uint64(b)<<8, Opp: uint64(c) | uint64(d)<<8}
					seen[Rank(2, k)] = true
				}
			}
		}
	}
	for r := uint64(0); r < Binom(9, 4); r++ {
		if !seen[r] {
			t.Fatalf("rank %d unused: ranking has a gap", r)
		}
	}
	if len(seen) != int(Binom(9, 4)) {
		t.Fatalf("%d ranks for %d positions", len(seen), Binom(9, 4))
	}
}

func TestMixIsBijection(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, w := range []uint{10, 33, 47, 63, 64} {
		x := newMixer(w)
		for n := 0; n < 10000; n++ {
			v := rng.Uint64() & x.mask
			h := x.mix(v)
			if h&^x.mask != 0 || x.unmix(h) != v {
				t.Fatalf("w=%d: mix(%x)=%x unmix=%x", w, v, h, x.unmix(h))
			}
		}
	}
}

// TestNoFalsePositives fills a table beyond its size and checks that every
// hit is the position that was stored, and that every entry's slot decodes
// back to its position: with rank codes only (the smallest table) and with
// nibble codes too (positions with up to 72 seeds, so both kinds).
func TestNoFalsePositives(t *testing.T) {
	for _, c := range []struct {
		bytes   int64
		inserts int
		nibbles bool
	}{{1 << 15, 200000, false}, {4 << 20, 600000, true}} {
		tab, _ := New(6, c.bytes)
		if tab.code.nibbles() != c.nibbles {
			t.Fatalf("%d bytes: nibble codes %v, want %v", c.bytes, tab.code.nibbles(), c.nibbles)
		}
		checkNoFalsePositives(t, tab, c.inserts)
	}
}

func checkNoFalsePositives(t *testing.T, tab *Table, inserts int) {
	rng := rand.New(rand.NewPCG(9, 10))
	values := map[engine.Key]int{}
	for n := 0; n < inserts; n++ {
		seeds := rng.IntN(72)
		k := randomKey(rng, 6, seeds)
		v := rng.IntN(2*seeds+1) - seeds
		if old, ok := values[k]; ok {
			v = old
		}
		values[k] = v
		tab.Put(tab.SlotOf(k, seeds), MakeEntry(v, v, 0, DepthSolved, rng.IntN(20)))
	}
	hits := 0
	for k, v := range values {
		e, ok := tab.Probe(tab.SlotOf(k, laneTotal(k)))
		if ok {
			hits++
			if e.Lower() != v || e.Upper() != v {
				t.Fatalf("false positive: %x stored %d, probed %d..%d", k, v, e.Lower(), e.Upper())
			}
		}
	}
	if hits == 0 {
		t.Fatal("no hits at all")
	}
	n := 0
	tab.Range(func(k engine.Key, e Entry) {
		n++
		if values[k] != e.Lower() {
			t.Fatalf("slot decodes to %x with value %d, stored %d", k, e.Lower(), values[k])
		}
	})
	if n != hits {
		t.Fatalf("Range saw %d entries, probes hit %d", n, hits)
	}
}

// TestCodes checks that both codes invert, that the nibble code is used
// exactly when every pit holds at most 15 seeds, and that the two kinds of
// code never meet.
func TestCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for m := 1; m <= engine.MaxPits; m++ {
		for _, w := range []uint{42, 49, 57, 64} {
			c := newCoder(m, w)
			if c.nibbles() != (8*m < int(w)) {
				t.Fatalf("m=%d w=%d: nibbles %v", m, w, c.nibbles())
			}
			for n := 0; n < 3000; n++ {
				// At most 60 seeds, so that ranks fit in 64 bits; every
				// third key has a pit at the border, 15 or 16 seeds.
				k := randomKey(rng, m, rng.IntN(min(16*m, 60)))
				if n%3 == 0 {
					i := rng.IntN(m)
					k.Own = k.Own&^(0xff<<(8*uint(i))) | uint64(15+rng.IntN(2))<<(8*uint(i))
				}
				code := c.code(k)
				small := (k.Own|k.Opp)&highNibbles == 0
				if c.nibbles() && small != (code < c.rankBase) {
					t.Fatalf("m=%d w=%d: %x coded %x, base %x", m, w, k, code, c.rankBase)
				}
				if got := c.key(code); got != k {
					t.Fatalf("m=%d w=%d: %x coded %x decodes to %x", m, w, k, code, got)
				}
			}
		}
	}
}

func laneTotal(k engine.Key) int {
	return engine.Board{Own: k.Own, Opp: k.Opp}.Seeds()
}

func TestEntryFields(t *testing.T) {
	for _, v := range []int{-255, -3, 0, 7, 255} {
		e := MakeEntry(NoLower, v, 5, 17, 40).withTag(1<<TagBits - 1)
		if e.Upper() != v || e.Lower() != NoLower || e.Bound() != BoundUpper || e.Move() != 5 || e.Depth() != 17 || e.Work() != 31 || e.tag() != 1<<TagBits-1 {
			t.Fatalf("entry %x does not round-trip", e)
		}
		if e = MakeEntry(v, NoUpper, 0, 0, 0); e == 0 || e.Lower() != v || e.Upper() != NoUpper || e.Bound() != BoundLower {
			t.Fatalf("lower bound %d does not round-trip: %x", v, e)
		}
		if e = MakeEntry(v, v, 0, 0, 0); e.Lower() != v || e.Upper() != v || e.Bound() != BoundExact {
			t.Fatalf("exact %d does not round-trip", v)
		}
		for w := v; w <= 255; w += 37 {
			e = MakeEntry(v, w, 7, DepthSolved, 0)
			if e.Lower() != v || e.Upper() != w || e.Move() != 7 || !e.Solved() {
				t.Fatalf("interval %d..%d does not round-trip: %d..%d", v, w, e.Lower(), e.Upper())
			}
		}
	}
}

func TestMerge(t *testing.T) {
	cases := []struct {
		old, n   Entry
		lo, hi   int
		move, dp int
	}{
		// Same depth: the intervals intersect; a fail low keeps the old move.
		{MakeEntry(2, NoUpper, 3, DepthSolved, 5), MakeEntry(NoLower, 6, 1, DepthSolved, 9), 2, 6, 3, DepthSolved},
		{MakeEntry(NoLower, 6, 1, DepthSolved, 9), MakeEntry(4, NoUpper, 2, DepthSolved, 5), 4, 6, 2, DepthSolved},
		{MakeEntry(-4, 8, 1, 12, 9), MakeEntry(-2, 10, 2, 12, 5), -2, 8, 2, 12},
		// Different depths: the deeper one, a proven one over all.
		{MakeEntry(2, NoUpper, 3, DepthSolved, 5), MakeEntry(NoLower, 0, 1, 9, 9), 2, NoUpper, 3, DepthSolved},
		{MakeEntry(NoLower, 0, 1, 9, 9), MakeEntry(2, NoUpper, 3, DepthSolved, 5), 2, NoUpper, 3, DepthSolved},
		{MakeEntry(NoLower, 0, 1, 9, 9), MakeEntry(2, NoUpper, 3, 6, 5), NoLower, 0, 1, 9},
		// Inconsistent depth-limited bounds: the new one.
		{MakeEntry(5, NoUpper, 1, 6, 9), MakeEntry(NoLower, 3, 2, 6, 5), NoLower, 3, 2, 6},
		// Nothing to merge with.
		{0, MakeEntry(-1, -1, 4, DepthSolved, 0), -1, -1, 4, DepthSolved},
	}
	for i, c := range cases {
		m := Merge(c.old, c.n)
		if m.Lower() != c.lo || m.Upper() != c.hi || m.Move() != c.move || m.Depth() != c.dp {
			t.Errorf("case %d: merged %d..%d move %d depth %d, want %d..%d move %d depth %d",
				i, m.Lower(), m.Upper(), m.Move(), m.Depth(), c.lo, c.hi, c.move, c.dp)
		}
	}
	// The table merges what it stores for one position.
	tab, _ := New(4, 1<<12)
	k := engine.Key{Own: 0x0102, Opp: 0x0301}
	s := tab.SlotOf(k, laneTotal(k))
	tab.Put(s, MakeEntry(-1, NoUpper, 0, DepthSolved, 3))
	tab.Put(s, MakeEntry(NoLower, 3, 1, DepthSolved, 3))
	if e, ok := tab.Probe(s); !ok || e.Lower() != -1 || e.Upper() != 3 {
		t.Errorf("table kept %d..%d, want -1..3", e.Lower(), e.Upper())
	}
}

// TestConcurrent hammers one table from several goroutines; run with -race.
func TestConcurrent(t *testing.T) {
	tab, _ := New(4, 1<<14)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for n := 0; n < 20000; n++ {
				seeds := rng.IntN(30)
				k := randomKey(rng, 4, seeds)
				s := tab.SlotOf(k, seeds)
				// Every goroutine stores the same value for a key: the
				// seed count, so that a hit can be checked.
				if e, ok := tab.Probe(s); ok && e.Lower() != seeds {
					t.Errorf("torn or false entry for %x: %d", k, e.Lower())
					return
				}
				tab.Put(s, MakeEntry(seeds, NoUpper, 1, DepthSolved, 3))
			}
		}(g)
	}
	wg.Wait()
}

func BenchmarkProbeStore(b *testing.B) {
	tab, _ := New(6, 64<<20)
	rng := rand.New(rand.NewPCG(1, 1))
	keys := make([]engine.Key, 4096)
	for i := range keys {
		keys[i] = randomKey(rng, 6, 48)
	}
	i := 0
	for b.Loop() {
		k := keys[i&4095]
		s := tab.SlotOf(k, 48)
		if _, ok := tab.Probe(s); !ok {
			tab.Put(s, MakeEntry(2, 2, 1, DepthSolved, 4))
		}
		i++
	}
}
